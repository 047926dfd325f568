// Package tainttoleration is kube-scheduler's TaintToleration plugin
// (pkg/scheduler/framework/plugins/tainttoleration): Filter rejects nodes
// with a NoSchedule or NoExecute taint the pod does not tolerate; Score
// prefers nodes with fewer untolerated PreferNoSchedule taints.
package tainttoleration

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

// Name is the plugin's name in profiles and explanations.
const Name = "TaintToleration"

// ErrReasonUntoleratedTaints is the reason Filter gives since v1.34
// (taint_toleration.go Filter). Upstream still declares ErrReasonNotMatch
// ("node(s) had taints that the pod didn't tolerate") but no longer
// returns it.
const ErrReasonUntoleratedTaints = "node(s) had untolerated taint(s)"

const preScoreStateKey framework.StateKey = "PreScore" + Name

// Plugin is the TaintToleration filter and score plugin.
type Plugin struct {
	preScore cyclecache.Cache[*preScoreState]
}

var (
	_ framework.FilterPlugin    = (*Plugin)(nil)
	_ framework.PreScorePlugin  = (*Plugin)(nil)
	_ framework.ScorePlugin     = (*Plugin)(nil)
	_ framework.ScoreExtensions = (*Plugin)(nil)
)

// New returns the plugin.
func New() *Plugin { return &Plugin{} }

// Name implements framework.Plugin.
func (*Plugin) Name() string { return Name }

// Filter implements framework.FilterPlugin: the first NoSchedule or
// NoExecute taint no toleration tolerates rejects the node as
// unresolvable (v1helper.FindMatchingUntoleratedTaint with
// helper.DoNotScheduleTaintsFilterFunc).
func (*Plugin) Filter(_ *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	taints := node.Node.Spec.Taints
	for i := range taints {
		t := &taints[i]
		if t.Effect != api.TaintEffectNoSchedule && t.Effect != api.TaintEffectNoExecute {
			continue
		}
		if !api.TolerationsTolerateTaint(pod.Pod.Spec.Tolerations, t) {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUntoleratedTaints)
		}
	}
	return nil
}
