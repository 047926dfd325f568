package lab

import (
	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/lab/command"
)

// overBudget reports a scale or an `add zone` that asks for more objects
// than the budget leaves at t=0, with the refusal it will meet when it
// runs (object_budget.go). What the cluster holds by then is not known
// here, so only a request too big on its own is reported (the budget's
// words quote the objects at t=0).
func (x *objectIndex) overBudget(c command.Command) (string, bool) {
	if x.limit <= 0 {
		return "", false
	}
	var resource string
	var n int64
	switch c := c.(type) {
	case command.AddZone:
		resource, n = "nodes", int64(max(c.Nodes, 1))
	case command.Scale:
		resource, n = "pods", int64(c.Replicas)
	default:
		return "", false
	}
	used := x.used
	if resource == "pods" {
		// a scale asks for replicas minus the pods it has, unknown here:
		// only replicas beyond the whole budget fail for sure
		used = 0
	}
	if used+n <= x.limit {
		return "", false
	}
	return (&engine.BudgetError{Resource: resource, Requested: n, Used: x.used, Limit: x.limit}).Error(), true
}
