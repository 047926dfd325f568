// Package tainttoleration is kube-scheduler's TaintToleration plugin
// (pkg/scheduler/framework/plugins/tainttoleration): Filter rejects nodes
// with a NoSchedule or NoExecute taint the pod does not tolerate; Score
// prefers nodes with fewer untolerated PreferNoSchedule taints.
package tainttoleration

import (
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/nodetraits"
)

// Name is the plugin's name in profiles and explanations.
const Name = "TaintToleration"

// ErrReasonUntoleratedTaints is the reason Filter gives since v1.34
// (taint_toleration.go Filter). Upstream still declares ErrReasonNotMatch
// ("node(s) had taints that the pod didn't tolerate") but no longer
// returns it.
const ErrReasonUntoleratedTaints = "node(s) had untolerated taint(s)"

const (
	preFilterStateKey framework.StateKey = "PreFilter" + Name
	preScoreStateKey  framework.StateKey = "PreScore" + Name
)

// Plugin is the TaintToleration filter and score plugin.
type Plugin struct {
	traits   cyclecache.Cache[*traitsState]
	preScore cyclecache.Cache[*preScoreState]
}

// traitsState carries the snapshot's node traits to Filter.
type traitsState struct{ index *nodetraits.Index }

// Clone implements framework.StateData; the state is immutable.
func (s *traitsState) Clone() framework.StateData { return s }

var (
	_ framework.PreFilterPlugin = (*Plugin)(nil)
	_ framework.FilterPlugin    = (*Plugin)(nil)
	_ framework.PreScorePlugin  = (*Plugin)(nil)
	_ framework.ScorePlugin     = (*Plugin)(nil)
	_ framework.ScoreExtensions = (*Plugin)(nil)
)

// New returns the plugin.
func New() *Plugin { return &Plugin{} }

// Name implements framework.Plugin.
func (*Plugin) Name() string { return Name }

// PreFilter implements framework.PreFilterPlugin. Upstream has none; this
// one never rejects or skips, it only fetches the snapshot's node traits
// so Filter passes nodes without hard taints without reading the Node.
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

// Filter implements framework.FilterPlugin: the first NoSchedule or
// NoExecute taint no toleration tolerates rejects the node as
// unresolvable (v1helper.FindMatchingUntoleratedTaint with
// helper.DoNotScheduleTaintsFilterFunc).
func (p *Plugin) Filter(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	if s, _ := cyclecache.Get(&p.traits, state, preFilterStateKey); s != nil {
		if t, ok := s.index.Get(node); ok && t&nodetraits.HardTaints == 0 {
			return nil
		}
	}
	if untolerated(node.Node.Spec.Taints, pod.Pod.Spec.Tolerations) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUntoleratedTaints)
	}
	return nil
}
