package tainttoleration

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/nodetraits"
)

var (
	_ framework.BatchFilterPlugin = (*Plugin)(nil)
	_ framework.BatchScorePlugin  = (*Plugin)(nil)
)

var statusUntolerated = &framework.Status{
	Code: framework.UnschedulableAndUnresolvable, Reasons: []string{ErrReasonUntoleratedTaints}, Plugin: Name,
}

// FilterBatch implements framework.BatchFilterPlugin with Filter's
// verdicts; nodes without NoSchedule/NoExecute taints pass on the node
// traits index alone.
func (p *Plugin) FilterBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, cand []int32, reject func(int32, *framework.Status)) []int32 {
	var idx *nodetraits.Index
	if s, _ := cyclecache.Get(&p.traits, state, preFilterStateKey); s != nil {
		idx = s.index
	}
	tolerations := pod.Pod.Spec.Tolerations
	j := 0
	for _, k := range cand {
		ni := nodes[k]
		if t, ok := idx.At(k, ni); !ok || t&nodetraits.HardTaints != 0 {
			if untolerated(ni.Node.Spec.Taints, tolerations) {
				reject(k, statusUntolerated)
				continue
			}
		}
		cand[j] = k
		j++
	}
	return cand[:j]
}

func untolerated(taints []api.Taint, tolerations []api.Toleration) bool {
	for i := range taints {
		t := &taints[i]
		if t.Effect != api.TaintEffectNoSchedule && t.Effect != api.TaintEffectNoExecute {
			continue
		}
		if !api.TolerationsTolerateTaint(tolerations, t) {
			return true
		}
	}
	return false
}

// ScoreBatch implements framework.BatchScorePlugin with Score's values.
func (p *Plugin) ScoreBatch(state *framework.CycleState, _ *framework.PodInfo, nodes []*framework.NodeInfo, scores []framework.NodeScore) *framework.Status {
	s, ok := cyclecache.Get(&p.preScore, state, preScoreStateKey)
	if !ok || s == nil {
		return framework.AsStatus(fmt.Errorf("%s: reading %q from cycle state: PreScore did not run", Name, preScoreStateKey))
	}
	for i, ni := range nodes {
		if t, ok := s.traits.At(int32(scores[i].Index), ni); ok && t&nodetraits.PreferTaints == 0 {
			scores[i].Score = 0
			continue
		}
		scores[i].Score = countIntolerable(ni.Node.Spec.Taints, s.tolerationsPreferNoSchedule)
	}
	return nil
}
