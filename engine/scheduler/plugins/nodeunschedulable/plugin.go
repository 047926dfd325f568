// Package nodeunschedulable is kube-scheduler's NodeUnschedulable filter
// (pkg/scheduler/framework/plugins/nodeunschedulable): a cordoned node
// (spec.unschedulable) only takes pods that tolerate
// node.kubernetes.io/unschedulable:NoSchedule.
package nodeunschedulable

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/nodetraits"
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
type Plugin struct {
	traits cyclecache.Cache[*traitsState]
}

var (
	_ framework.PreFilterPlugin = (*Plugin)(nil)
	_ framework.FilterPlugin    = (*Plugin)(nil)
)

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// traitsState carries the snapshot's node traits to Filter.
type traitsState struct{ index *nodetraits.Index }

// Clone implements framework.StateData; the state is immutable.
func (s *traitsState) Clone() framework.StateData { return s }

// PreFilter implements framework.PreFilterPlugin. Upstream has none; this
// one never rejects or skips, it only fetches the snapshot's node traits
// so Filter passes schedulable nodes without reading the Node object.
func (p *Plugin) PreFilter(state *framework.CycleState, _ *framework.PodInfo, snap *framework.Snapshot) (*framework.PreFilterResult, *framework.Status) {
	s := &traitsState{}
	if snap != nil {
		s.index = nodetraits.Of(snap)
	}
	state.Write(preFilterStateKey, s)
	p.traits.Store(state, s)
	return nil, nil
}

// PreFilterExtensions implements framework.PreFilterPlugin: none.
func (*Plugin) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// New returns the plugin.
func New() *Plugin { return &Plugin{} }

// Name implements framework.Plugin.
func (*Plugin) Name() string { return Name }

var unschedulableTaint = api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}

// Filter implements framework.FilterPlugin: an unschedulable node is
// rejected as unresolvable unless the pod tolerates the unschedulable
// taint (node_unschedulable.go Filter). The taint comparison operators
// (Gt/Lt) are alpha and off in v1.36, as in api.Toleration.ToleratesTaint.
func (p *Plugin) Filter(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	if s, _ := cyclecache.Get(&p.traits, state, preFilterStateKey); s != nil {
		if t, ok := s.index.Get(node); ok && t&nodetraits.Unschedulable == 0 {
			return nil
		}
	}
	if !node.Node.Spec.Unschedulable {
		return nil
	}
	if api.TolerationsTolerateTaint(pod.Pod.Spec.Tolerations, &unschedulableTaint) {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable)
}
