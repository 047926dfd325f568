package engine

import (
	"maps"
	"podlab.dev/podlab/engine/internal/cowmap"
	"slices"
)

// Copy on write between an engine and its clones. Clone (a checkpoint, a
// fork's lane) does not copy every pod's state: both engines keep the same
// podState values, and whichever modifies one first installs its own copy.
// Each engine has an owner token; a podState it may modify in place
// carries its token. Clone gives both engines new tokens, so every state
// existing at that moment is shared and copied before its first change.
//
// The rule for the engine's code: a podState is read through e.pods, and
// reached for modification through podW (by key) or mut (a state in hand),
// before the first write — callers then pass the returned state on, so
// no function modifies a copy its caller does not hold. Functions that
// modify a state they are given call mut as well: that is a no-op for
// their callers in this package, and makes a call that forgot safe (the
// controllers' API in workloads.go hands states straight from the map).

// owner is an engine's token (not zero-sized: each must have its own
// address); the same one marks the buckets of its pod states' and
// timelines' maps it may write (cowmap).
type owner = cowmap.Owner

// podW returns the pod's state ready to be modified (nil if there is no
// such pod).
func (e *Engine) podW(key string) *podState {
	ps := e.pods.Get(key)
	if ps == nil || ps.owner == e.own {
		return ps
	}
	return e.ownPod(key, ps)
}

// mut returns ps ready to be modified: ps itself, or the copy now in its
// place when ps is shared with a clone.
func (e *Engine) mut(ps *podState) *podState {
	if ps == nil || ps.owner == e.own {
		return ps
	}
	return e.ownPod(ps.pod.Key(), ps)
}

// ownPod installs a copy of a shared state. What the engine modifies in
// place is copied (kill, the container runtime); the PodInfo, which the
// snapshot shares, is copied only when it changes (setPodObject).
func (e *Engine) ownPod(key string, ps *podState) *podState {
	cp := ps.copyFor(e.own)
	// a stale state (the pod was removed or replaced) is referred to by
	// nobody but the caller: it gets the private copy, the map keeps its own
	if e.pods.Get(key) == ps {
		e.pods.Set(e.own, key, cp)
	}
	return cp
}

func (ps *podState) copyFor(o *owner) *podState {
	cp := *ps
	cp.owner = o
	cp.infoShared = ps.info != nil
	if ps.kill != nil {
		k := *ps.kill
		cp.kill = &k
	}
	if ps.taintAt != nil {
		at := *ps.taintAt
		cp.taintAt = &at
	}
	cp.rt = ps.rt.clone()
	return &cp
}

// cowStrict makes owned panic on a shared state (tests set it: a lookup
// that should have used podW).
var cowStrict = false

// owned is mut for functions that modify the state they are given: their
// callers reach it through podW or mut first, so it is already owned; a
// shared one is copied (the caller's pointer is then stale, which tests
// catch with cowStrict).
func (e *Engine) owned(ps *podState) *podState {
	if ps != nil && ps.owner != e.own && cowStrict {
		panic("engine: pod state " + ps.pod.Key() + " modified without podW/mut (shared with a clone)")
	}
	return e.mut(ps)
}

// timelineW returns a pod's timeline ready to be modified. Timelines are
// shared with clones like pod states: every write goes through here
// (clusterAPI.FinishPod included), so Clone copies none of them.
func (e *Engine) timelineW(key string) *podTimeline {
	tl := e.timelines.Get(key)
	if tl == nil || tl.owner == e.own {
		return tl
	}
	cp := *tl
	cp.owner = e.own
	cp.plans = slices.Clip(tl.plans)
	e.timelines.Set(e.own, key, &cp)
	return &cp
}

// podSet is the pods bound to one node (Engine.podsByNode), shared with
// clones until one of them changes it.
type podSet struct {
	owner *owner
	keys  map[string]struct{}
}

// podSetW returns the node's pod set ready to be modified, creating it.
func (e *Engine) podSetW(node string) *podSet {
	set := e.podsByNode[node]
	switch {
	case set == nil:
		set = &podSet{owner: e.own, keys: map[string]struct{}{}}
	case set.owner != e.own:
		set = &podSet{owner: e.own, keys: maps.Clone(set.keys)}
	default:
		return set
	}
	e.podsByNode[node] = set
	return set
}
