package nodeunschedulable

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/nodetraits"
)

var _ framework.BatchFilterPlugin = (*Plugin)(nil)

// statusUnschedulable is shared by every rejection of the batch path
// (the runtime accepts shared statuses that name their plugin).
var statusUnschedulable = &framework.Status{
	Code: framework.UnschedulableAndUnresolvable, Reasons: []string{ErrReasonUnschedulable}, Plugin: Name,
}

// FilterBatch implements framework.BatchFilterPlugin with Filter's
// verdicts: the toleration is checked once per pod, cordons are read from
// the node traits index.
func (p *Plugin) FilterBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, cand []int32, reject func(int32, *framework.Status)) []int32 {
	if api.TolerationsTolerateTaint(pod.Pod.Spec.Tolerations, &unschedulableTaint) {
		return cand
	}
	var idx *nodetraits.Index
	if s, _ := cyclecache.Get(&p.traits, state, preFilterStateKey); s != nil {
		idx = s.index
	}
	j := 0
	for _, k := range cand {
		ni := nodes[k]
		t, ok := idx.At(k, ni)
		if (ok && t&nodetraits.Unschedulable != 0) || (!ok && ni.Node.Spec.Unschedulable) {
			reject(k, statusUnschedulable)
			continue
		}
		cand[j] = k
		j++
	}
	return cand[:j]
}
