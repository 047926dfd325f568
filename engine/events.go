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
	e.events = append(e.events, Event{Time: e.clock.Now(), Type: typ, Reason: reason, Object: object, Message: message})
}

// Events returns the events recorded so far, oldest first. The slice is
// shared: do not modify it.
func (e *Engine) Events() []Event { return e.events[:len(e.events):len(e.events)] }

// EventsSince returns the events recorded after the first n.
func (e *Engine) EventsSince(n int) []Event {
	if n >= len(e.events) {
		return nil
	}
	return e.events[n:len(e.events):len(e.events)]
}
