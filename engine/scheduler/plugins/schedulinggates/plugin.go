// Package schedulinggates is kube-scheduler's SchedulingGates PreEnqueue
// plugin (pkg/scheduler/framework/plugins/schedulinggates): a pod whose
// spec.schedulingGates is not empty is kept out of activeQ — gated, never
// attempted — until every gate is removed.
package schedulinggates

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Name is the plugin's name in profiles.
const Name = "SchedulingGates"

// Plugin is the SchedulingGates PreEnqueue plugin.
type Plugin struct{}

var _ framework.PreEnqueuePlugin = (*Plugin)(nil)

// New returns the plugin.
func New() *Plugin { return &Plugin{} }

// Name implements framework.Plugin.
func (*Plugin) Name() string { return Name }

// PreEnqueue implements framework.PreEnqueuePlugin
// (scheduling_gates.go:48): UnschedulableAndUnresolvable with
// "waiting for scheduling gates: [a b]" (the gate names formatted as a
// Go slice, %v) while the pod has gates.
func (*Plugin) PreEnqueue(pod *api.Pod) *framework.Status {
	if len(pod.Spec.SchedulingGates) == 0 {
		return nil
	}
	return &framework.Status{
		Code:    framework.UnschedulableAndUnresolvable,
		Reasons: []string{Message(pod.Spec.SchedulingGates)},
		Plugin:  Name,
	}
}

// Message is the plugin's status message for the gates.
func Message(gates []string) string {
	return fmt.Sprintf("waiting for scheduling gates: %v", gates)
}
