package framework

import "strings"

// Code is the result kind of a plugin call, as framework.Code upstream.
type Code int

const (
	// Success: the node passes / the call succeeded.
	Success Code = iota
	// Error: an internal error; the pod is not scheduled this cycle.
	Error
	// Unschedulable: the node does not fit now; preemption may help.
	Unschedulable
	// UnschedulableAndUnresolvable: the node does not fit and preemption
	// cannot help (the node is not a preemption candidate).
	UnschedulableAndUnresolvable
	// Skip: PreFilter/PreScore say the plugin has nothing to do for this pod.
	Skip
)

func (c Code) String() string {
	switch c {
	case Success:
		return "Success"
	case Error:
		return "Error"
	case Unschedulable:
		return "Unschedulable"
	case UnschedulableAndUnresolvable:
		return "UnschedulableAndUnresolvable"
	case Skip:
		return "Skip"
	}
	return "Unknown"
}

// Status is a plugin's verdict. A nil *Status means Success. Reasons are
// exactly the strings kube-scheduler prints (they feed the FitError
// histogram); Plugin names the plugin that produced it.
type Status struct {
	Code    Code
	Reasons []string
	Plugin  string
	Err     error
}

// SkipStatus is the Skip status every PreFilter/PreScore that skips
// returns: shared, so a skip allocates nothing (the runtime only reads a
// status's code; WithPlugin copies). Never modify it.
var SkipStatus = &Status{Code: Skip}

// NewStatus builds a status.
func NewStatus(code Code, reasons ...string) *Status {
	return &Status{Code: code, Reasons: reasons}
}

// AsStatus wraps an internal error.
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	return &Status{Code: Error, Reasons: []string{err.Error()}, Err: err}
}

// IsSuccess reports a nil or Success status.
func (s *Status) IsSuccess() bool { return s == nil || s.Code == Success }

// IsSkip reports a Skip status.
func (s *Status) IsSkip() bool { return s != nil && s.Code == Skip }

// IsRejected reports Unschedulable or UnschedulableAndUnresolvable.
func (s *Status) IsRejected() bool {
	return s != nil && (s.Code == Unschedulable || s.Code == UnschedulableAndUnresolvable)
}

// CodeOf returns the status code (Success for nil).
func (s *Status) CodeOf() Code {
	if s == nil {
		return Success
	}
	return s.Code
}

// WithPlugin returns s attributed to the named plugin: s itself when it
// already is, else a copy. Statuses are shared (plugins hand out one
// status for a common rejection), so they are never changed in place.
func (s *Status) WithPlugin(name string) *Status {
	if s == nil || s.Plugin == name {
		return s
	}
	c := *s
	c.Plugin = name
	return &c
}

// Message joins the reasons with ", " as Status.Message upstream.
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.Reasons, ", ")
}

// NodeToStatus gives each node's filter verdict in a failed scheduling
// cycle (upstream framework.NodeToStatusReader). nil stands for a node
// without one, which preemption counts as UnschedulableAndUnresolvable
// (upstream's status of absent nodes).
type NodeToStatus interface {
	NodeStatus(ni *NodeInfo) *Status
}

// NodeToStatusMap is a NodeToStatus by node name.
type NodeToStatusMap map[string]*Status

// NodeStatus implements NodeToStatus.
func (m NodeToStatusMap) NodeStatus(ni *NodeInfo) *Status { return m[ni.Node.Name] }
