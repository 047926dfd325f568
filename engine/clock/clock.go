package clock

import (
	"container/heap"
	"fmt"
	"time"

	"podlab.dev/podlab/engine/api"
)

// ID identifies a scheduled action (for Cancel).
type ID int64

// Clock holds virtual time and the actions waiting for it. T is the
// action's type; it should be a value type (or immutable) so Clone copies
// the pending actions safely.
type Clock[T any] struct {
	now       api.Time
	seq       int64
	items     entries[T]
	cancelled map[ID]struct{}
}

type entry[T any] struct {
	at     api.Time
	id     ID
	action T
}

// entries is a min-heap on (at, id): ids increase with every Schedule, so
// simultaneous actions keep their scheduling order.
type entries[T any] []entry[T]

func (h entries[T]) Len() int { return len(h) }
func (h entries[T]) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].id < h[j].id
}
func (h entries[T]) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *entries[T]) Push(x any)   { *h = append(*h, x.(entry[T])) }
func (h *entries[T]) Pop() any {
	old := *h
	n := len(old)
	e := old[n-1]
	var zero entry[T]
	old[n-1] = zero
	*h = old[:n-1]
	return e
}

// New returns a clock at time start with nothing scheduled.
func New[T any](start api.Time) *Clock[T] {
	return &Clock[T]{now: start, cancelled: map[ID]struct{}{}}
}

// Now returns the current virtual time.
func (c *Clock[T]) Now() api.Time { return c.now }

// Len returns the number of pending (not cancelled) actions.
func (c *Clock[T]) Len() int { return len(c.items) - len(c.cancelled) }

// Schedule queues action to run at virtual time at. A time in the past
// runs at the current time (after what is already due now).
func (c *Clock[T]) Schedule(at api.Time, action T) ID {
	if at < c.now {
		at = c.now
	}
	c.seq++
	id := ID(c.seq)
	heap.Push(&c.items, entry[T]{at: at, id: id, action: action})
	return id
}

// After queues action to run d after the current time.
func (c *Clock[T]) After(d time.Duration, action T) ID {
	return c.Schedule(c.now.Add(d), action)
}

// Cancel drops a pending action; cancelling an action that already ran or
// was cancelled does nothing.
func (c *Clock[T]) Cancel(id ID) {
	for _, e := range c.items {
		if e.id == id {
			c.cancelled[id] = struct{}{}
			return
		}
	}
}

// NextAt returns the time of the earliest pending action.
func (c *Clock[T]) NextAt() (api.Time, bool) {
	c.dropCancelledHead()
	if len(c.items) == 0 {
		return 0, false
	}
	return c.items[0].at, true
}

func (c *Clock[T]) dropCancelledHead() {
	for len(c.items) > 0 {
		if _, ok := c.cancelled[c.items[0].id]; !ok {
			return
		}
		e := heap.Pop(&c.items).(entry[T])
		delete(c.cancelled, e.id)
	}
}

// PopDue removes and returns the earliest action due at or before t,
// advancing the clock to its time. ok is false when nothing is due.
func (c *Clock[T]) PopDue(t api.Time) (at api.Time, action T, ok bool) {
	c.dropCancelledHead()
	if len(c.items) == 0 || c.items[0].at > t {
		return 0, action, false
	}
	e := heap.Pop(&c.items).(entry[T])
	c.now = e.at
	return e.at, e.action, true
}

// RunUntil runs every action due at or before t in (time, sequence) order,
// including actions that running ones schedule, then sets the clock to t.
// It refuses to move time backwards.
func (c *Clock[T]) RunUntil(t api.Time, run func(now api.Time, action T)) error {
	if t < c.now {
		return fmt.Errorf("clock: cannot run until %s: it is already %s", t, c.now)
	}
	for {
		at, action, ok := c.PopDue(t)
		if !ok {
			break
		}
		run(at, action)
	}
	c.now = t
	return nil
}

// Step runs the actions of the next d of virtual time (RunUntil(now+d)).
func (c *Clock[T]) Step(d time.Duration, run func(now api.Time, action T)) error {
	if d < 0 {
		return fmt.Errorf("clock: cannot step by a negative duration %s", d)
	}
	return c.RunUntil(c.now.Add(d), run)
}

// Clone returns an independent copy: same time, same pending actions (the
// action values are copied as they are).
func (c *Clock[T]) Clone() *Clock[T] {
	out := &Clock[T]{now: c.now, seq: c.seq, cancelled: make(map[ID]struct{}, len(c.cancelled))}
	out.items = append(entries[T](nil), c.items...)
	for id := range c.cancelled {
		out.cancelled[id] = struct{}{}
	}
	return out
}
