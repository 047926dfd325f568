package engine

// Freeze and Thaw mark a clone kept only to be restored later (the lab's
// checkpoints). Its pod states and timelines are shared with the live
// engine bucket by bucket (engine/internal/cowmap), so there is nothing
// left worth packing but the flat copy of the event log, which Events
// rebuilds from the shared chunks: Thaw costs nothing, and a restore
// starts at once.
// (They used to pack the pod and timeline maps into slices and rebuild
// them on Thaw: 20 ms of a restore at 30,000 pods.)
//
// A frozen engine must not be used (read or run) until Thaw.

// Freeze packs the engine until Thaw. It does nothing when frozen.
func (e *Engine) Freeze() {
	if e.frozen {
		return
	}
	e.flat = nil
	e.frozen = true
}

// Frozen reports whether the engine is packed (Freeze) and must be
// thawed before use.
func (e *Engine) Frozen() bool { return e.frozen }

// Thaw unpacks a frozen engine; it does nothing otherwise.
func (e *Engine) Thaw() { e.frozen = false }
