package framework

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
	data map[StateKey]StateData
	// SkipFilterPlugins / SkipScorePlugins hold plugins whose PreFilter /
	// PreScore returned Skip.
	SkipFilterPlugins map[string]bool
	SkipScorePlugins  map[string]bool
}

// NewCycleState returns an empty state.
func NewCycleState() *CycleState {
	return &CycleState{data: map[StateKey]StateData{}}
}

// Read returns the data at key, or nil.
func (c *CycleState) Read(key StateKey) StateData { return c.data[key] }

// Write stores data at key.
func (c *CycleState) Write(key StateKey, d StateData) { c.data[key] = d }

// WithFilterSkipped returns a state that shares c's data with one more
// filter plugin skipped. The data is shared, so the result is for
// running filters only (they read the state, never write it).
func (c *CycleState) WithFilterSkipped(name string) *CycleState {
	out := &CycleState{data: c.data, SkipScorePlugins: c.SkipScorePlugins}
	out.SkipFilterPlugins = make(map[string]bool, len(c.SkipFilterPlugins)+1)
	for k, v := range c.SkipFilterPlugins {
		out.SkipFilterPlugins[k] = v
	}
	out.SkipFilterPlugins[name] = true
	return out
}

// Clone deep-copies every slot (via StateData.Clone).
func (c *CycleState) Clone() *CycleState {
	out := &CycleState{data: make(map[StateKey]StateData, len(c.data))}
	for k, v := range c.data {
		if v != nil {
			out.data[k] = v.Clone()
		}
	}
	if c.SkipFilterPlugins != nil {
		out.SkipFilterPlugins = make(map[string]bool, len(c.SkipFilterPlugins))
		for k, v := range c.SkipFilterPlugins {
			out.SkipFilterPlugins[k] = v
		}
	}
	if c.SkipScorePlugins != nil {
		out.SkipScorePlugins = make(map[string]bool, len(c.SkipScorePlugins))
		for k, v := range c.SkipScorePlugins {
			out.SkipScorePlugins[k] = v
		}
	}
	return out
}
