// Package cyclecache lets a plugin reach the state it computed in
// PreFilter/PreScore without a CycleState map lookup on every node.
//
// A plugin writes its state into the CycleState as usual (so clones made
// for preemption dry runs carry it) and also remembers it here, tagged
// with the *CycleState it belongs to. Filter/Score then pay one atomic
// load and a pointer comparison; any other CycleState (a clone) falls back
// to CycleState.Read. It imports engine/scheduler/framework only.
package cyclecache

import (
	"sync/atomic"

	"podlab.dev/podlab/engine/scheduler/framework"
)

type entry[T any] struct {
	cycle *framework.CycleState
	data  T
}

// Cache remembers the state of the latest cycle. The zero value is ready.
type Cache[T any] struct {
	last atomic.Pointer[entry[T]]
}

// Store records data for the cycle. Call it on every PreFilter/PreScore,
// including ones that skip, so a reused CycleState never sees stale data.
func (c *Cache[T]) Store(cycle *framework.CycleState, data T) {
	c.last.Store(&entry[T]{cycle: cycle, data: data})
}

// Load returns the data stored for this very cycle.
func (c *Cache[T]) Load(cycle *framework.CycleState) (T, bool) {
	if e := c.last.Load(); e != nil && e.cycle == cycle {
		return e.data, true
	}
	var zero T
	return zero, false
}

// Get returns the state for the cycle: from the cache when it was stored
// for this cycle, else from the CycleState slot key (a clone), else zero.
func Get[T framework.StateData](c *Cache[T], cycle *framework.CycleState, key framework.StateKey) (T, bool) {
	if d, ok := c.Load(cycle); ok {
		return d, true
	}
	if cycle != nil {
		if d, ok := cycle.Read(key).(T); ok {
			return d, true
		}
	}
	var zero T
	return zero, false
}
