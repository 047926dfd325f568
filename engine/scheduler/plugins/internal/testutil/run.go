package testutil

import (
	"podlab.dev/podlab/engine/scheduler/framework"
)

// FilterResult is one plugin's verdict on every node of a snapshot.
type FilterResult struct {
	// PreFilter is PreFilter's status (nil when the plugin has none or it
	// succeeded); when it rejects, Nodes is empty.
	PreFilter       *framework.Status
	PreFilterResult *framework.PreFilterResult
	// Nodes holds Filter's status per node, in snapshot order (nil when
	// PreFilter skipped the plugin: the node passes).
	Nodes []*framework.Status
}

// RunFilter runs a plugin's PreFilter (if any) and Filter on every node,
// as the scheduling cycle would for this one plugin.
func RunFilter(pl framework.FilterPlugin, pod *framework.PodInfo, snap *framework.Snapshot) FilterResult {
	state := framework.NewCycleState()
	var res FilterResult
	if pf, ok := pl.(framework.PreFilterPlugin); ok {
		r, st := pf.PreFilter(state, pod, snap)
		res.PreFilterResult = r
		if st.IsSkip() {
			res.PreFilter = st
			res.Nodes = make([]*framework.Status, len(snap.Nodes()))
			return res
		}
		if !st.IsSuccess() {
			res.PreFilter = st
			return res
		}
	}
	for _, ni := range snap.Nodes() {
		res.Nodes = append(res.Nodes, pl.Filter(state, pod, ni))
	}
	return res
}

// ScoreResult is one score plugin's raw and normalised scores.
type ScoreResult struct {
	// PreScore is PreScore's status (Skip means no scores were computed).
	PreScore   *framework.Status
	Raw        []int64
	Normalized []int64
	// Err is the first Score/NormalizeScore error.
	Err *framework.Status
}

// RunScore runs PreScore (if any), Score on every given node (all nodes of
// the snapshot when nodes is nil) and NormalizeScore.
func RunScore(pl framework.ScorePlugin, pod *framework.PodInfo, snap *framework.Snapshot, nodes []*framework.NodeInfo) ScoreResult {
	if nodes == nil {
		nodes = snap.Nodes()
	}
	state := framework.NewCycleState()
	var res ScoreResult
	if ps, ok := pl.(framework.PreScorePlugin); ok {
		st := ps.PreScore(state, pod, snap, nodes)
		if !st.IsSuccess() {
			res.PreScore = st
			return res
		}
	}
	scores := make([]framework.NodeScore, len(nodes))
	for i, ni := range nodes {
		s, st := pl.Score(state, pod, ni)
		if !st.IsSuccess() && res.Err == nil {
			res.Err = st
		}
		scores[i] = framework.NodeScore{Name: ni.Node.Name, Index: ni.Index, Score: s}
		res.Raw = append(res.Raw, s)
	}
	if ext := pl.ScoreExtensions(); ext != nil {
		if st := ext.NormalizeScore(state, pod, scores); !st.IsSuccess() && res.Err == nil {
			res.Err = st
		}
	}
	for _, s := range scores {
		res.Normalized = append(res.Normalized, s.Score)
	}
	return res
}
