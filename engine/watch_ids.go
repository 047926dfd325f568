package engine

import "podlab.dev/podlab/engine/api"

// PodID is a pod's number in its engine: given when the pod object is
// created and never given again by that engine (a clone goes on from the
// same count, so two engines may give one number to different pods). A
// watcher can keep what it holds per pod in a slice indexed by it instead
// of a map probed by the pod's namespace/name: at a few changes a second
// against an engine that has just pushed every map out of the cache, the
// string key's hash and bytes are a measurable part of what the lab's
// metrics cost (docs/benchmarks.md, issue 14).
type PodID int

// PodIDWatcher is a Watcher that is also told the pod's number. The
// engine calls PodChangedID instead of PodChanged for a watcher that
// implements it, with the same meaning: the pod whose number it is was
// created, replaced, changed state or was removed. A key removed and
// created again reports two numbers; PodWithStateID tells which one the
// store holds now.
type PodIDWatcher interface {
	Watcher
	PodChangedID(key string, id PodID)
}

// PodWithStateID is Pod, PodState and the pod's number in one lookup
// (nil, 0, 0 when gone), for watchers reading the pods they were told
// changed.
func (e *Engine) PodWithStateID(key string) (*api.Pod, PodState, PodID) {
	if ps := e.pods.Get(key); ps != nil {
		return ps.pod, ps.state, ps.id
	}
	return nil, 0, 0
}

// EachPodID is EachPod with each pod's number.
func (e *Engine) EachPodID(fn func(p *api.Pod, st PodState, id PodID)) {
	for _, ps := range e.pods.All() {
		fn(ps.pod, ps.state, ps.id)
	}
}
