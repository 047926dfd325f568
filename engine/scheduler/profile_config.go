package scheduler

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
)

// ProfileConfig is one KubeSchedulerProfile (kubescheduler.config.k8s.io/v1)
// as decoded and validated by the lab: its scheduler name, its plugins per
// extension point as the user wrote them (merged with the default set by
// Build, as v1 defaults.go setDefaults_KubeSchedulerProfile does), and the
// arguments of the plugins whose args change decisions.
type ProfileConfig struct {
	// SchedulerName is the name pods select the profile by
	// (spec.schedulerName); "" means default-scheduler.
	SchedulerName string
	// PercentageOfNodesToScore overrides Config.PercentageOfNodesToScore
	// for this profile (nil: the global value).
	PercentageOfNodesToScore *int32
	// Plugins are the user's plugin sets (nil: the defaults).
	Plugins *Plugins
	// Args are the plugins' arguments; a nil entry means the defaults.
	Args PluginArgs
}

// PluginRef is a v1.Plugin: a plugin name and, for score plugins, its
// weight (0: unset, which the framework treats as 1).
type PluginRef struct {
	Name   string
	Weight int32
}

// PluginSet is a v1.PluginSet: plugins enabled (in order) and disabled
// ("*" disables every default plugin of the extension point).
type PluginSet struct {
	Enabled  []PluginRef
	Disabled []string
}

// Plugins is v1.Plugins: a PluginSet per extension point. Only MultiPoint,
// PreEnqueue (SchedulingGates), PreFilter, Filter, PostFilter, PreScore
// and Score change what the lab computes; the others are validated
// (plugin names) and otherwise kept as written.
type Plugins struct {
	MultiPoint PluginSet
	PreEnqueue PluginSet
	QueueSort  PluginSet
	PreFilter  PluginSet
	Filter     PluginSet
	PostFilter PluginSet
	PreScore   PluginSet
	Score      PluginSet
	Reserve    PluginSet
	Permit     PluginSet
	PreBind    PluginSet
	Bind       PluginSet
	PostBind   PluginSet
}

// PluginArgs holds the pluginConfig args the lab honours, each already
// defaulted (nil: the plugin's defaults).
type PluginArgs struct {
	NodeResourcesFit                *noderesources.FitArgs
	NodeResourcesBalancedAllocation *noderesources.BalancedAllocationArgs
	PodTopologySpread               *SpreadArgs
	InterPodAffinity                *interpodaffinity.Args
	NodeAffinity                    *nodeaffinity.Args
	DefaultPreemption               *PreemptionArgs
}

// SpreadArgs are PodTopologySpreadArgs after defaulting.
type SpreadArgs struct {
	DefaultConstraints []api.TopologySpreadConstraint
	// DefaultingType is "System" (the default) or "List".
	DefaultingType string
}

// PreemptionArgs are DefaultPreemptionArgs after defaulting (10 % and 100).
type PreemptionArgs struct {
	MinCandidateNodesPercentage int32
	MinCandidateNodesAbsolute   int32
}

// ExtensionPoint names, as the v1 API spells the Plugins fields.
var ExtensionPoints = []string{
	"multiPoint", "preEnqueue", "queueSort", "preFilter", "filter", "postFilter",
	"preScore", "score", "reserve", "permit", "preBind", "bind", "postBind",
}

// Set returns the plugin set of the extension point (as in
// ExtensionPoints), nil for an unknown name.
func (p *Plugins) Set(point string) *PluginSet {
	switch point {
	case "multiPoint":
		return &p.MultiPoint
	case "preEnqueue":
		return &p.PreEnqueue
	case "queueSort":
		return &p.QueueSort
	case "preFilter":
		return &p.PreFilter
	case "filter":
		return &p.Filter
	case "postFilter":
		return &p.PostFilter
	case "preScore":
		return &p.PreScore
	case "score":
		return &p.Score
	case "reserve":
		return &p.Reserve
	case "permit":
		return &p.Permit
	case "preBind":
		return &p.PreBind
	case "bind":
		return &p.Bind
	case "postBind":
		return &p.PostBind
	}
	return nil
}

// Clone returns a deep copy.
func (p *Plugins) Clone() *Plugins {
	if p == nil {
		return nil
	}
	out := &Plugins{}
	for _, point := range ExtensionPoints {
		from, to := p.Set(point), out.Set(point)
		to.Enabled = append([]PluginRef(nil), from.Enabled...)
		to.Disabled = append([]string(nil), from.Disabled...)
	}
	return out
}

// Name returns the profile's scheduler name, default-scheduler when unset.
func (pc *ProfileConfig) Name() string {
	if pc.SchedulerName == "" {
		return api.DefaultSchedulerName
	}
	return pc.SchedulerName
}
