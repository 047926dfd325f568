package engine

import "podlab.dev/podlab/engine/api"

// EachPod calls fn for every pod with its state, in no particular order:
// for aggregates (counts, sums) that do not depend on order, without the
// sort Pods and Snapshot pay. Do not modify the pods.
func (e *Engine) EachPod(fn func(p *api.Pod, st PodState)) {
	for _, ps := range e.pods.All() {
		fn(ps.pod, ps.state)
	}
}
