// Package nodeunschedulable is kube-scheduler's NodeUnschedulable filter
// (pkg/scheduler/framework/plugins/nodeunschedulable): a cordoned node
// (spec.unschedulable) only takes pods that tolerate
// node.kubernetes.io/unschedulable:NoSchedule.
package nodeunschedulable

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Name is the plugin's name in profiles and explanations.
const Name = "NodeUnschedulable"

// Reasons, exactly as upstream.
const (
	// ErrReasonUnschedulable rejects a cordoned node.
	ErrReasonUnschedulable = "node(s) were unschedulable"
	// ErrReasonUnknownCondition is declared upstream but no longer used by
	// the filter; kept for the reason table.
	ErrReasonUnknownCondition = "node(s) had unknown conditions"
)

// Plugin is the NodeUnschedulable filter.
type Plugin struct{}

var _ framework.FilterPlugin = (*Plugin)(nil)

// New returns the plugin.
func New() *Plugin { return &Plugin{} }

// Name implements framework.Plugin.
func (*Plugin) Name() string { return Name }

var unschedulableTaint = api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}

// Filter implements framework.FilterPlugin: an unschedulable node is
// rejected as unresolvable unless the pod tolerates the unschedulable
// taint (node_unschedulable.go Filter). The taint comparison operators
// (Gt/Lt) are alpha and off in v1.36, as in api.Toleration.ToleratesTaint.
func (*Plugin) Filter(_ *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	if !node.Node.Spec.Unschedulable {
		return nil
	}
	if api.TolerationsTolerateTaint(pod.Pod.Spec.Tolerations, &unschedulableTaint) {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable)
}
