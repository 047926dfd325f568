// Package nodename is kube-scheduler's NodeName filter
// (pkg/scheduler/framework/plugins/nodename): a pod that names a node in
// spec.nodeName fits only that node.
package nodename

import "podlab.dev/podlab/engine/scheduler/framework"

// Name is the plugin's name in profiles and explanations.
const Name = "NodeName"

// ErrReason rejects every node but the requested one.
const ErrReason = "node(s) didn't match the requested node name"

// Plugin is the NodeName filter.
type Plugin struct{}

var _ framework.FilterPlugin = (*Plugin)(nil)

// New returns the plugin.
func New() *Plugin { return &Plugin{} }

// Name implements framework.Plugin.
func (*Plugin) Name() string { return Name }

// Filter implements framework.FilterPlugin (node_name.go Filter):
// unresolvable when the pod names another node.
func (*Plugin) Filter(_ *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	if !Fits(pod, node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason)
	}
	return nil
}

// Fits reports whether the pod names no node or this one (node_name.go Fits).
func Fits(pod *framework.PodInfo, node *framework.NodeInfo) bool {
	return pod.Pod.Spec.NodeName == "" || pod.Pod.Spec.NodeName == node.Node.Name
}
