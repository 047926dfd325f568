package framework

import "maps"

// StateData is data a plugin stores for one scheduling cycle.
type StateData interface {
	// Clone returns a copy that a preemption dry run may mutate with
	// AddPod/RemovePod without touching the original.
	Clone() StateData
}

// StateKey names a plugin's slot in the CycleState.
type StateKey string

// CycleState carries per-pod data between extension points of one cycle.
// Unlike upstream it is not synchronised: a cycle writes it from one
// goroutine (PreFilter/PreScore) and only reads it in parallel Filter/Score.
type CycleState struct {
	// slots holds the data by key, in the order written; it starts in
	// inline, so a cycle's state is one allocation (a map was three or
	// more per pod: header, group, and growth past eight keys). A cycle
	// writes about a dozen keys; Read scans them (most plugins read their
	// state through cyclecache, not Read).
	slots  []stateSlot
	inline [inlineSlots]stateSlot
	// SkipFilterPlugins / SkipScorePlugins hold plugins whose PreFilter /
	// PreScore returned Skip.
	SkipFilterPlugins map[string]bool
	SkipScorePlugins  map[string]bool
}

type stateSlot struct {
	key  StateKey
	data StateData
}

// inlineSlots covers the default profile's PreFilter and PreScore states.
const inlineSlots = 16

// NewCycleState returns an empty state.
func NewCycleState() *CycleState {
	c := &CycleState{}
	c.slots = c.inline[:0]
	return c
}

// Read returns the data at key, or nil.
func (c *CycleState) Read(key StateKey) StateData {
	for i := range c.slots {
		if c.slots[i].key == key {
			return c.slots[i].data
		}
	}
	return nil
}

// Write stores data at key.
func (c *CycleState) Write(key StateKey, d StateData) {
	for i := range c.slots {
		if c.slots[i].key == key {
			c.slots[i].data = d
			return
		}
	}
	c.slots = append(c.slots, stateSlot{key, d})
}

// WithFilterSkipped returns a state that shares c's data with one more
// filter plugin skipped. The data is shared, so the result is for
// running filters only (they read the state, never write it).
func (c *CycleState) WithFilterSkipped(name string) *CycleState {
	// capacity clamped: a write to the result could not reach c's slots
	out := &CycleState{slots: c.slots[:len(c.slots):len(c.slots)], SkipScorePlugins: c.SkipScorePlugins}
	out.SkipFilterPlugins = make(map[string]bool, len(c.SkipFilterPlugins)+1)
	for k, v := range c.SkipFilterPlugins {
		out.SkipFilterPlugins[k] = v
	}
	out.SkipFilterPlugins[name] = true
	return out
}

// Clone deep-copies every slot (via StateData.Clone).
func (c *CycleState) Clone() *CycleState {
	out := NewCycleState()
	for _, sl := range c.slots {
		if sl.data != nil {
			// c's keys are distinct (Write): no search for an existing slot
			out.slots = append(out.slots, stateSlot{sl.key, sl.data.Clone()})
		}
	}
	out.SkipFilterPlugins = maps.Clone(c.SkipFilterPlugins)
	out.SkipScorePlugins = maps.Clone(c.SkipScorePlugins)
	return out
}
