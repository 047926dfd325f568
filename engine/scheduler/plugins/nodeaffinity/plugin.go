// Package nodeaffinity is kube-scheduler's NodeAffinity plugin
// (pkg/scheduler/framework/plugins/nodeaffinity): Filter enforces
// spec.nodeSelector and required node affinity, Score sums the weights of
// the preferred terms a node matches; the profile's addedAffinity argument
// adds to both (added.go).
package nodeaffinity

import (
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/helper"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

// Name is the plugin's name in profiles and explanations.
const Name = "NodeAffinity"

// Reasons, exactly as upstream.
const (
	// ErrReasonPod rejects a node that fails nodeSelector or required affinity.
	ErrReasonPod = "node(s) didn't match Pod's node affinity/selector"
	// ErrReasonConflict is PreFilter's rejection when the required terms'
	// metadata.name fields leave no node name at all.
	ErrReasonConflict = "pod affinity terms conflict"
)

const (
	preFilterStateKey framework.StateKey = "PreFilter" + Name
	preScoreStateKey  framework.StateKey = "PreScore" + Name
)

// Plugin is the NodeAffinity plugin.
type Plugin struct {
	preFilter cyclecache.Cache[*preFilterState]
	preScore  cyclecache.Cache[*preScoreState]
	// addedRequired / addedPreferred are args.addedAffinity compiled (nil:
	// none); addedRequired's bind and addedPreferred's are refreshed by
	// PreFilter and PreScore, which run single-threaded.
	args           Args
	addedRequired  *requiredAffinity
	addedPreferred *preferredTerms
}

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

type preFilterState struct{ required *requiredAffinity }

// Clone implements framework.StateData; the state is immutable.
func (s *preFilterState) Clone() framework.StateData { return s }

type preScoreState struct{ preferred *preferredTerms }

// Clone implements framework.StateData; the state is immutable.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreFilter implements framework.PreFilterPlugin (node_affinity.go
// PreFilter): Skip when the pod has neither a nodeSelector nor required
// node affinity; narrow to the named nodes when every required term pins
// metadata.name with In; reject with ErrReasonConflict when those names
// intersect to nothing.
func (p *Plugin) PreFilter(state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot) (*framework.PreFilterResult, *framework.Status) {
	ns := requiredSelector(pod.Pod)
	if ns == nil && pod.Pod.Spec.NodeSelector == nil && p.addedRequired == nil {
		p.preFilter.Store(state, nil)
		return nil, framework.SkipStatus
	}
	if p.addedRequired != nil {
		p.addedRequired.bind(snap)
	}
	required := compileRequired(pod.Pod)
	required.bind(snap)
	s := &preFilterState{required: required}
	state.Write(preFilterStateKey, s)
	p.preFilter.Store(state, s)
	if ns == nil || len(ns.NodeSelectorTerms) == 0 {
		return nil, nil
	}
	names := requiredNodeNames(ns.NodeSelectorTerms)
	if names != nil && len(names) == 0 {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonConflict)
	}
	if len(names) > 0 {
		return &framework.PreFilterResult{NodeNames: names}, nil
	}
	return nil, nil
}

// PreFilterExtensions implements framework.PreFilterPlugin: none.
func (*Plugin) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter implements framework.FilterPlugin: unresolvable when the node
// fails the nodeSelector or every required term.
func (p *Plugin) Filter(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	if p.addedRequired != nil && !p.addedRequired.matches(node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonEnforced)
	}
	s, _ := cyclecache.Get(&p.preFilter, state, preFilterStateKey)
	var required *requiredAffinity
	if s != nil {
		required = s.required
	} else {
		// As upstream, compute it when PreFilter did not run.
		required = compileRequired(pod.Pod)
	}
	if !required.matches(node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPod)
	}
	return nil
}

// PreScore implements framework.PreScorePlugin: Skip when the pod has no
// preferred node affinity; an unparsable preferred term is an error.
func (p *Plugin) PreScore(state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot, _ []*framework.NodeInfo) *framework.Status {
	a := pod.Pod.Spec.Affinity
	if (a == nil || a.NodeAffinity == nil || a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution == nil) && p.addedPreferred == nil {
		p.preScore.Store(state, nil)
		return framework.SkipStatus
	}
	preferred := &preferredTerms{}
	if a != nil && a.NodeAffinity != nil && a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution != nil {
		var err error
		preferred, err = compilePreferred(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
		if err != nil {
			p.preScore.Store(state, nil)
			return framework.AsStatus(err)
		}
	}
	preferred.bind(snap)
	if p.addedPreferred != nil {
		p.addedPreferred.bind(snap)
	}
	s := &preScoreState{preferred: preferred}
	state.Write(preScoreStateKey, s)
	p.preScore.Store(state, s)
	return nil
}

// Score implements framework.ScorePlugin: the sum of the weights of the
// preferred terms the node matches.
func (p *Plugin) Score(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) (int64, *framework.Status) {
	var count int64
	if p.addedPreferred != nil {
		count += p.addedPreferred.score(node)
	}
	s, _ := cyclecache.Get(&p.preScore, state, preScoreStateKey)
	if s == nil {
		a := pod.Pod.Spec.Affinity
		if a == nil || a.NodeAffinity == nil || a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution == nil {
			return count, nil
		}
		preferred, err := compilePreferred(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
		if err != nil {
			return 0, framework.AsStatus(err)
		}
		return count + preferred.score(node), nil
	}
	return count + s.preferred.score(node), nil
}

// ScoreExtensions implements framework.ScorePlugin.
func (p *Plugin) ScoreExtensions() framework.ScoreExtensions { return p }

// NormalizeScore implements framework.ScoreExtensions: scale to [0, 100]
// by the best node (DefaultNormalizeScore, not reversed).
func (*Plugin) NormalizeScore(_ *framework.CycleState, _ *framework.PodInfo, scores []framework.NodeScore) *framework.Status {
	return helper.DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
}
