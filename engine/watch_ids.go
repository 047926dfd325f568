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

// PodRef is a watcher's handle on the state of a pod it was told changed
// (PodRefWatcher). Read later with PodByRef, it gives the pod's object
// and state at that moment — what any change made after telling
// included — without looking its key up: while the engine has not been
// cloned since, the state it was told with is the one the store holds
// (the engine tells a change with the state it owns; cow.go). After a
// clone the state may have been replaced by a copy, and PodByRef says
// to look the key up instead.
type PodRef struct{ ps *podState }

// PodRefWatcher is a PodIDWatcher that is also handed the pod's PodRef.
// The engine calls PodChangedRef instead of PodChangedID for a watcher
// that implements it, with the same meaning.
type PodRefWatcher interface {
	PodIDWatcher
	PodChangedRef(key string, id PodID, ref PodRef)
}

// PodByRef reads the pod a PodRef was told with: its current object,
// state and number (nil, 0, 0 once removed from the store: numbers are
// never given again). ok is false when the handle cannot tell — the
// engine was cloned since, or the state was a copy no longer in the
// store —: then PodWithStateID(key) does.
func (e *Engine) PodByRef(ref PodRef) (p *api.Pod, st PodState, id PodID, ok bool) {
	ps := ref.ps
	switch {
	case ps == nil || ps.owner != e.own || ps.detached:
		return nil, 0, 0, false
	case ps.removed:
		return nil, 0, 0, true
	}
	return ps.pod, ps.state, ps.id, true
}
