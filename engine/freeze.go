package engine

// Freeze and Thaw pack a clone kept only to be restored later (the lab's
// checkpoints): its largest maps — every pod's state, every timeline, the
// snapshot's pod → node index — hold 50–80 bytes an entry, about a third
// of a clone at 30,000 pods. Frozen, they are plain slices (the pod keys
// the engine keeps sorted anyway are shared, not copied), and the
// snapshot's index is dropped: Thaw rebuilds them all.
//
// A frozen engine must not be used (read or run) until Thaw.

type frozenMaps struct {
	podKeys   []string // sorted; the engine's cached podKeys
	pods      []*podState
	tlKeys    []string
	timelines []*podTimeline
}

// Freeze packs the engine until Thaw. It does nothing when frozen.
func (e *Engine) Freeze() {
	if e.frozen != nil {
		return
	}
	keys := e.sortedPodKeys()
	f := &frozenMaps{podKeys: keys, pods: make([]*podState, len(keys))}
	for i, k := range keys {
		f.pods[i] = e.pods[k]
	}
	f.tlKeys = make([]string, 0, len(e.timelines))
	f.timelines = make([]*podTimeline, 0, len(e.timelines))
	for k, tl := range e.timelines {
		f.tlKeys = append(f.tlKeys, k)
		f.timelines = append(f.timelines, tl)
	}
	e.pods, e.timelines = nil, nil
	e.flat = nil // Events() rebuilds it from the shared chunks
	e.snap.Freeze()
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
	e.snap.Thaw()
}
