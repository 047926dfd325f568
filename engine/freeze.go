package engine

import "podlab.dev/podlab/engine/scheduler/framework"

// Freeze and Thaw pack a clone kept only to be restored later (the lab's
// checkpoints): its largest maps — every pod's state, every timeline, the
// snapshot's pod → node index — hold 50–80 bytes an entry, about a third
// of a clone at 30,000 pods. Frozen, they are plain slices (the pod keys
// the engine keeps sorted anyway are shared, not copied; the snapshot's
// index is a node position per key): Thaw rebuilds the maps.
//
// A frozen engine must not be used (read or run) until Thaw.

type frozenMaps struct {
	podKeys   []string // sorted; the engine's cached podKeys
	pods      []*podState
	tlKeys    []string
	timelines []*podTimeline
	// podNode[i] is the position in the snapshot's Nodes of the node
	// podKeys[i] is assigned to (-1: none); nil when the snapshot was not
	// frozen.
	podNode []int32
}

// Freeze packs the engine until Thaw. It does nothing when frozen.
func (e *Engine) Freeze() {
	if e.frozen != nil {
		return
	}
	keys := e.sortedPodKeys()
	// each pod's state beside its key, and the snapshot's pod → node
	// index as node positions (rebuilt without allocating); every
	// assigned pod is one of ours
	f := &frozenMaps{podKeys: keys, pods: make([]*podState, len(keys)), podNode: make([]int32, len(keys))}
	assigned := 0
	for i, k := range keys {
		f.pods[i] = e.pods[k]
		f.podNode[i] = -1
		if ni := e.snap.NodeOfPod(k); ni != nil {
			f.podNode[i] = int32(ni.Index)
			assigned++
		}
	}
	f.tlKeys = make([]string, 0, len(e.timelines))
	f.timelines = make([]*podTimeline, 0, len(e.timelines))
	for k, tl := range e.timelines {
		f.tlKeys = append(f.tlKeys, k)
		f.timelines = append(f.timelines, tl)
	}
	if assigned == e.snap.PodCount() {
		e.snap.Freeze()
	} else {
		f.podNode = nil
	}
	e.pods, e.timelines = nil, nil
	e.flat = nil // Events() rebuilds it from the shared chunks
	e.frozen = f
}

// Frozen reports whether the engine is packed (Freeze) and must be
// thawed before use.
func (e *Engine) Frozen() bool { return e.frozen != nil }

// Thaw unpacks a frozen engine; it does nothing otherwise.
func (e *Engine) Thaw() {
	f := e.frozen
	if f == nil {
		return
	}
	e.frozen = nil
	e.pods = make(map[string]*podState, len(f.pods))
	for i, k := range f.podKeys {
		e.pods[k] = f.pods[i]
	}
	e.timelines = make(map[string]*podTimeline, len(f.timelines))
	for i, k := range f.tlKeys {
		e.timelines[k] = f.timelines[i]
	}
	e.podKeys, e.podKeysOK, e.podKeysNew, e.podKeysGone = f.podKeys, true, nil, nil
	if f.podNode != nil {
		infos := make([]*framework.PodInfo, len(f.pods))
		for i, ps := range f.pods {
			infos[i] = ps.info
		}
		e.snap.ThawFrom(f.podKeys, f.podNode, infos)
	}
	e.snap.Thaw()
}
