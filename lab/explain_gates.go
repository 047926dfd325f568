package lab

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

// GateLines explain a gated pod (ex.Gate set) in place of a scheduling
// cycle: upstream's SchedulingGates PreEnqueue plugin keeps it out of
// activeQ, so it is never attempted (no FailedScheduling event) until its
// last gate is removed. Used by `podlab explain` and the explain view.
func GateLines(ex *scheduler.Explanation) []string {
	if ex.Gate == nil {
		return nil
	}
	name := podRef(ex.Pod)
	if len(ex.Gates) == 1 {
		return []string{
			"waiting for its scheduling gate: " + ex.Gates[0],
			fmt.Sprintf("%s (PreEnqueue) keeps the pod out of the scheduling queue: no scheduling attempt is made until the gate is removed", ex.Gate.Plugin),
			fmt.Sprintf("remove it with `ungate pod %s`", name),
		}
	}
	return []string{
		"waiting for its scheduling gates: " + strings.Join(ex.Gates, ", "),
		fmt.Sprintf("%s (PreEnqueue) keeps the pod out of the scheduling queue: no scheduling attempt is made until every gate is removed", ex.Gate.Plugin),
		fmt.Sprintf("remove them with `ungate pod %s` (all) or `ungate pod %s GATE` (one)", name, name),
	}
}

// bindingRefused is the API server's refusal of the binding the scheduler
// would make ("" if none): a pod that still has gates is attempted only
// when its profile disabled SchedulingGates, and cannot be bound
// (engine.BindingRefused), as podlab schedule reports.
func bindingRefused(ex *scheduler.Explanation, pod *api.Pod) string {
	if ex.Chosen == "" {
		return ""
	}
	if err := engine.BindingRefused(pod); err != nil {
		return err.Error()
	}
	return ""
}
