package podtopologyspread

import "podlab.dev/podlab/engine/scheduler/framework"

var (
	_ framework.BatchFilterPlugin = (*Plugin)(nil)
	_ framework.BatchScorePlugin  = (*Plugin)(nil)
)

// FilterBatch implements framework.BatchFilterPlugin with Filter's
// verdicts: the cycle's state is fetched once, then each node costs the
// same array reads as Filter.
func (pl *Plugin) FilterBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, cand []int32, reject func(int32, *framework.Status)) []int32 {
	s, err := pl.filterState(state)
	if err != nil {
		st := framework.AsStatus(err)
		for _, k := range cand {
			reject(k, st)
		}
		return cand[:0]
	}
	if len(s.topos) == 1 && len(nodes) == len(s.nodes) && len(nodes) == len(s.topos[0].DomainOf) && len(nodes) > 0 && &nodes[0] == &s.nodes[0] {
		return s.filterOneConstraint(cand, reject)
	}
	j := 0
	for _, k := range cand {
		if st := s.filterAt(k, nodes[k]); st != nil {
			reject(k, st)
			continue
		}
		cand[j] = k
		j++
	}
	return cand[:j]
}

// ScoreBatch implements framework.BatchScorePlugin with Score's values. A
// node whose runtime-given position (NodeScore.Index) is confirmed by
// pointer in the snapshot's node list is scored from its position without
// reading the NodeInfo; with ignored nodes, or otherwise, as Score.
func (pl *Plugin) ScoreBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, scores []framework.NodeScore) *framework.Status {
	s, err := pl.scoreState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	for i, ni := range nodes {
		if k := scores[i].Index; s.ignored == nil && k >= 0 && k < len(s.nodes) && s.nodes[k] == ni {
			scores[i].Score = s.scoreIdx(k, ni)
			continue
		}
		scores[i].Score = s.score(ni)
	}
	return nil
}

// filterOneConstraint is filterIdx for the common case of one hard
// constraint over the snapshot's own node list (positions are indexes),
// with the constraint's tables hoisted out of the loop.
func (s *preFilterState) filterOneConstraint(cand []int32, reject func(int32, *framework.Status)) []int32 {
	domainOf, matchNum, limit := s.topos[0].DomainOf, s.matchNum[0], s.limit[0]
	j := 0
	for _, k := range cand {
		d := domainOf[k]
		switch {
		case d < 0:
			reject(k, statusNodeLabelNotMatch)
		case int(matchNum[d]) > limit:
			reject(k, statusConstraintsNotMatch)
		default:
			cand[j] = k
			j++
		}
	}
	return cand[:j]
}
