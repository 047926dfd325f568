package podtopologyspread

import "podlab.dev/podlab/engine/scheduler/framework"

var _ framework.BatchFilterPlugin = (*Plugin)(nil)

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
	j := 0
	for _, k := range cand {
		if st := s.filter(nodes[k]); st != nil {
			reject(k, st)
			continue
		}
		cand[j] = k
		j++
	}
	return cand[:j]
}
