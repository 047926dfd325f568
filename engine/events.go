package engine

import (
	"encoding/json"

	"podlab.dev/podlab/engine/api"
)

// Event types.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"
)

// Event reasons the engine records (the real components' reasons, plus
// Deleted when a pod object is finally removed).
const (
	ReasonScheduled            = "Scheduled"
	ReasonFailedScheduling     = "FailedScheduling"
	ReasonPreempted            = "Preempted"
	ReasonStarted              = "Started"
	ReasonKilling              = "Killing"
	ReasonEvicted              = "Evicted"
	ReasonEvictionThresholdMet = "EvictionThresholdMet"
	ReasonTaintManagerEviction = "TaintManagerEviction"
	ReasonNodeNotReady         = "NodeNotReady"
	ReasonNodeReady            = "NodeReady"
	ReasonNodeNotSchedulable   = "NodeNotSchedulable"
	ReasonNodeSchedulable      = "NodeSchedulable"
	ReasonNodeInsufficientMem  = "NodeHasInsufficientMemory"
	ReasonNodeSufficientMem    = "NodeHasSufficientMemory"
	ReasonRegisteredNode       = "RegisteredNode"
	ReasonRemovingNode         = "RemovingNode"
	ReasonDeleted              = "Deleted"
	ReasonUnhealthy            = "Unhealthy"
	ReasonBackOff              = "BackOff"
)

// Event is one line of `kubectl get events`: when, type, reason, the
// object ("pod/NAMESPACE/NAME", "node/NAME") and the message.
type Event struct {
	Time    api.Time
	Type    string
	Reason  string
	Object  string
	Message string
}

// MarshalJSON prints the event as a `podlab run` line:
// {"t":"12.5s","type":"Normal","reason":"Killing","object":"pod/default/web-1","message":"…"}.
func (e Event) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		T       string `json:"t"`
		Type    string `json:"type"`
		Reason  string `json:"reason"`
		Object  string `json:"object"`
		Message string `json:"message"`
	}{e.Time.String(), e.Type, e.Reason, e.Object, e.Message})
}

func podObject(key string) string   { return "pod/" + key }
func nodeObject(name string) string { return "node/" + name }

func (e *Engine) record(typ, reason, object, message string) {
	e.sealFullTail()
	e.events = append(e.events, Event{Time: e.clock.Now(), Type: typ, Reason: reason, Object: object, Message: message})
}

// Events returns the events recorded so far, oldest first. The slice is
// shared: do not modify it.
func (e *Engine) Events() []Event {
	flat := e.flatEvents()
	return flat[:len(flat):len(flat)]
}

// EventsSince returns the events recorded after the first n.
func (e *Engine) EventsSince(n int) []Event {
	flat := e.flatEvents()
	if n >= len(flat) {
		return nil
	}
	return flat[n:len(flat):len(flat)]
}

// The event log is kept in chunks so that clones share it: sealed
// chunks (eventChunk events or more, packed without pointers:
// events_sealed.go) never change and are shared by every clone; e.events is the open tail (the controllers' Record
// appends to it directly), which a clone gets clipped, so whichever side
// appends first copies only the tail. Events() reads a flat copy, kept
// up to date by appending what is new, and dropped by Freeze: a line of
// history that diverged from its origin (a restored checkpoint) shares
// all but its tail, instead of copying the whole log on its first event.
var eventChunk = 4096 // tests make it small

// sealFullTail seals the open tail once it holds eventChunk events.
func (e *Engine) sealFullTail() {
	if len(e.events) < eventChunk {
		return
	}
	e.sealed = append(e.sealed, sealChunk(e.events))
	e.sealedLen += len(e.events)
	// a new tail, not e.events[:0]: a clone may share the old one
	e.events = make([]Event, 0, eventChunk)
}

// flatEvents returns every event in order, extending the flat copy with
// what was recorded since it was last brought up to date.
func (e *Engine) flatEvents() []Event {
	n := e.sealedLen + len(e.events)
	if len(e.flat) == n {
		return e.flat
	}
	if len(e.flat) > n {
		e.flat = nil // not ours (cannot happen: the log only grows)
	}
	from := len(e.flat)
	if e.flat == nil {
		e.flat = make([]Event, 0, n+n/4)
	}
	at := 0
	var ev Event
	for _, c := range e.sealed {
		for i := from - at; i < c.len(); i++ {
			c.event(i, &ev)
			e.flat = append(e.flat, ev)
			from++
		}
		at += c.len()
	}
	e.flat = append(e.flat, e.events[from-at:]...)
	return e.flat
}
