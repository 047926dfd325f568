package noderesources

import (
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

var (
	_ framework.BatchFilterPlugin = (*Fit)(nil)
	_ framework.BatchScorePlugin  = (*Fit)(nil)
	_ framework.BatchScorePlugin  = (*BalancedAllocation)(nil)
)

// freeAt is freeEntry for nodes[k], by position when nodes is the
// snapshot's node list.
func (idx *allocIndex) freeAt(k int32, ni *framework.NodeInfo) *freeEntry {
	if idx == nil {
		return nil
	}
	if int(k) < len(idx.nodes) && idx.nodes[k] == ni {
		return &idx.free[k]
	}
	return idx.freeEntry(ni)
}

// FilterBatch implements framework.BatchFilterPlugin with Filter's
// verdicts.
func (f *Fit) FilterBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, cand []int32, reject func(int32, *framework.Status)) []int32 {
	s, ok := cyclecache.Get(&f.preFilter, state, preFilterStateKey)
	if !ok || s == nil {
		s = f.computePreFilterState(pod)
	}
	j := 0
	for _, k := range cand {
		ni := nodes[k]
		if e := s.index.freeAt(k, ni); e != nil && len(s.scalars) == 0 {
			if st := rejectionOf(s, e); st != nil {
				reject(k, st)
				continue
			}
			cand[j] = k
			j++
			continue
		} else if fitsQuick(s, ni) {
			cand[j] = k
			j++
			continue
		}
		var st *framework.Status
		if len(s.scalars) == 0 {
			st = rejection(s, ni)
		} else if st = statusOf(fitsRequest(s, ni)); st != nil {
			st.Plugin = Name
		}
		if st != nil {
			reject(k, st)
			continue
		}
		cand[j] = k
		j++
	}
	return cand[:j]
}

// ScoreBatch implements framework.BatchScorePlugin with Score's values,
// answered from the node's memo when the pod requests what the last one
// scored there did (see scoreMemo).
func (f *Fit) ScoreBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, scores []framework.NodeScore) *framework.Status {
	s, _ := cyclecache.Get(&f.preScore, state, fitPreScoreStateKey)
	if f.custom != nil {
		req := f.podRequests(s, pod)
		if s != nil && s.index != nil && s.epoch != 0 {
			s.index.customFit.scoreAll(s.index, s.epoch, f.custom, req, nodes, scores)
			return nil
		}
		for i, ni := range nodes {
			scores[i].Score = f.custom.nodeScore(req, ni)
		}
		return nil
	}
	cpu, mem := pod.ScoreRequests.MilliCPU, pod.ScoreRequests.Memory
	for i, ni := range nodes {
		k := -1
		if s != nil && s.epoch != 0 {
			k = s.index.positionOf(scores[i].Index, ni)
		}
		if k < 0 {
			scores[i].Score = s.score(pod, ni)
			continue
		}
		m := &s.index.memos[k]
		if m.fitEpoch == s.epoch {
			scores[i].Score = int64(m.fit)
			continue
		}
		sc := fitScoreFast(&s.index.entries[k], cpu, mem)
		m.fit, m.fitEpoch = int8(sc), s.epoch
		scores[i].Score = sc
	}
	return nil
}

// ScoreBatch implements framework.BatchScorePlugin with Score's values,
// answered from the node's memo when the pod requests what the last one
// scored there did (see scoreMemo).
func (b *BalancedAllocation) ScoreBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, scores []framework.NodeScore) *framework.Status {
	s, _ := cyclecache.Get(&b.preScore, state, balancedPreScoreStateKey)
	if b.custom != nil {
		if s == nil {
			// PreScore skipped (a best-effort pod): Score is never called
			return nil
		}
		if s.index != nil && s.epoch != 0 {
			s.index.customBalanced.scoreAll(s.index, s.epoch, b.custom, s.podReq, nodes, scores)
			return nil
		}
		for i, ni := range nodes {
			scores[i].Score = b.custom.nodeScore(s.podReq, ni)
		}
		return nil
	}
	for i, ni := range nodes {
		k := -1
		if s != nil && s.epoch != 0 {
			k = s.index.positionOf(scores[i].Index, ni)
		}
		if k < 0 {
			scores[i].Score = s.score(pod, ni)
			continue
		}
		m := &s.index.memos[k]
		if m.balancedEpoch == s.epoch {
			scores[i].Score = int64(m.balanced)
			continue
		}
		sc := balancedScoreFast(&s.index.entries[k], s.cpu, s.mem)
		m.balanced, m.balancedEpoch = int8(sc), s.epoch
		scores[i].Score = sc
	}
	return nil
}
