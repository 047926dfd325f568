package nodename

import "podlab.dev/podlab/engine/scheduler/framework"

var _ framework.BatchFilterPlugin = (*Plugin)(nil)

var statusNodeName = &framework.Status{
	Code: framework.UnschedulableAndUnresolvable, Reasons: []string{ErrReason}, Plugin: Name,
}

// FilterBatch implements framework.BatchFilterPlugin: every node passes
// when the pod names none.
func (*Plugin) FilterBatch(_ *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, cand []int32, reject func(int32, *framework.Status)) []int32 {
	want := pod.Pod.Spec.NodeName
	if want == "" {
		return cand
	}
	j := 0
	for _, k := range cand {
		if nodes[k].Node.Name != want {
			reject(k, statusNodeName)
			continue
		}
		cand[j] = k
		j++
	}
	return cand[:j]
}
