package oraclecheck

import (
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/imagelocality"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/nodename"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeports"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeunschedulable"
	"podlab.dev/podlab/engine/scheduler/plugins/tainttoleration"
)

// verdict is one node's outcome, shaped like the oracle's explain output.
type verdict struct {
	Feasible bool
	Plugin   string // first rejecting filter
	Code     framework.Code
	Reasons  []string
	Scores   map[string]int64 // normalised, feasible nodes only
}

// filters and scorers in the default profile's order (v1.36), restricted
// to the node plugins.
func filters() []framework.FilterPlugin {
	return []framework.FilterPlugin{
		nodeunschedulable.New(), nodename.New(), tainttoleration.New(), nodeaffinity.New(),
		nodeports.New(), noderesources.NewFit(),
	}
}

func scorers() []framework.ScorePlugin {
	return []framework.ScorePlugin{
		tainttoleration.New(), nodeaffinity.New(), noderesources.NewFit(),
		noderesources.NewBalancedAllocation(), imagelocality.New(),
	}
}

// explain runs one minimal scheduling cycle of the node plugins: PreFilter,
// Filter (first rejection wins), then PreScore/Score/NormalizeScore over
// the feasible nodes. A skipped score plugin scores 0, as the oracle
// reports it.
func explain(pod *framework.PodInfo, snap *framework.Snapshot) map[string]*verdict {
	state := framework.NewCycleState()
	out := map[string]*verdict{}
	skip := map[string]bool{}
	var prefilterReject *framework.Status
	for _, f := range filters() {
		pf, ok := f.(framework.PreFilterPlugin)
		if !ok {
			continue
		}
		_, st := pf.PreFilter(state, pod, snap)
		if st.IsSkip() {
			skip[f.Name()] = true
		} else if !st.IsSuccess() && prefilterReject == nil {
			prefilterReject = st.WithPlugin(f.Name())
		}
	}
	var feasible []*framework.NodeInfo
	for _, ni := range snap.Nodes() {
		v := &verdict{Feasible: true}
		out[ni.Node.Name] = v
		if prefilterReject != nil {
			v.Feasible, v.Plugin, v.Code, v.Reasons = false, prefilterReject.Plugin, prefilterReject.Code, prefilterReject.Reasons
			continue
		}
		for _, f := range filters() {
			if skip[f.Name()] {
				continue
			}
			if st := f.Filter(state, pod, ni); !st.IsSuccess() {
				v.Feasible, v.Plugin, v.Code, v.Reasons = false, f.Name(), st.Code, st.Reasons
				break
			}
		}
		if v.Feasible {
			feasible = append(feasible, ni)
		}
	}
	for _, s := range scorers() {
		scores := make([]framework.NodeScore, len(feasible))
		for i, ni := range feasible {
			scores[i] = framework.NodeScore{Name: ni.Node.Name, Index: ni.Index}
		}
		skipped := false
		if ps, ok := s.(framework.PreScorePlugin); ok {
			st := ps.PreScore(state, pod, snap, feasible)
			skipped = st.IsSkip()
		}
		if !skipped {
			for i, ni := range feasible {
				scores[i].Score, _ = s.Score(state, pod, ni)
			}
			if ext := s.ScoreExtensions(); ext != nil {
				ext.NormalizeScore(state, pod, scores)
			}
		}
		for _, ns := range scores {
			v := out[ns.Name]
			if v.Scores == nil {
				v.Scores = map[string]int64{}
			}
			v.Scores[s.Name()] = ns.Score
		}
	}
	return out
}
