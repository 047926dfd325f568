package nodeaffinity

import (
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

var (
	_ framework.BatchFilterPlugin = (*Plugin)(nil)
	_ framework.BatchScorePlugin  = (*Plugin)(nil)
)

var statusNoMatch = &framework.Status{
	Code: framework.UnschedulableAndUnresolvable, Reasons: []string{ErrReasonPod}, Plugin: Name,
}

var statusEnforced = &framework.Status{
	Code: framework.UnschedulableAndUnresolvable, Reasons: []string{ErrReasonEnforced}, Plugin: Name,
}

// FilterBatch implements framework.BatchFilterPlugin with Filter's
// verdicts, reading the bound per-domain tables by position when nodes is
// the snapshot's node list.
func (p *Plugin) FilterBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, cand []int32, reject func(int32, *framework.Status)) []int32 {
	s, _ := cyclecache.Get(&p.preFilter, state, preFilterStateKey)
	var required *requiredAffinity
	if s != nil {
		required = s.required
	} else {
		required = compileRequired(pod.Pod)
	}
	if p.addedRequired != nil {
		// the profile's addedAffinity first (Filter's order), then the pod's
		j := 0
		for _, k := range cand {
			if !p.addedRequired.matchesAt(k, nodes[k]) {
				reject(k, statusEnforced)
				continue
			}
			cand[j] = k
			j++
		}
		cand = cand[:j]
	}
	j := 0
	for _, k := range cand {
		if !required.matchesAt(k, nodes[k]) {
			reject(k, statusNoMatch)
			continue
		}
		cand[j] = k
		j++
	}
	return cand[:j]
}

// ScoreBatch implements framework.BatchScorePlugin with Score's values.
func (p *Plugin) ScoreBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, scores []framework.NodeScore) *framework.Status {
	s, _ := cyclecache.Get(&p.preScore, state, preScoreStateKey)
	if s == nil {
		for i, ni := range nodes {
			sc, st := p.Score(state, pod, ni)
			if !st.IsSuccess() {
				return st
			}
			scores[i].Score = sc
		}
		return nil
	}
	for i, ni := range nodes {
		scores[i].Score = s.preferred.scoreAt(int32(scores[i].Index), ni)
	}
	if p.addedPreferred != nil {
		for i, ni := range nodes {
			scores[i].Score += p.addedPreferred.scoreAt(int32(scores[i].Index), ni)
		}
	}
	return nil
}
