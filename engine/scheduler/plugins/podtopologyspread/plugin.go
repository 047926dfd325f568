// Package podtopologyspread is kube-scheduler's PodTopologySpread plugin
// (pkg/scheduler/framework/plugins/podtopologyspread of v1.36): the hard
// (DoNotSchedule) constraints filter nodes by skew, the soft
// (ScheduleAnyway) ones score them, and pods without constraints that a
// workload owns get the cluster's default constraints.
//
// Unlike upstream, which rescans every node's pods in PreFilter and
// PreScore, matching pods are counted by a PodIndex per (namespace,
// selector) that the Snapshot keeps up to date as pods come and go
// (index.go), so a scheduling cycle costs O(nodes) (O(domains) when no
// node filtering applies), whatever the number of pods.
//
// It imports engine/api, engine/scheduler/framework and the plugins'
// internal cyclecache only.
package podtopologyspread

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

// Name is the plugin's name in profiles and in the UI.
const Name = "PodTopologySpread"

// Reasons, exactly as upstream's plugin.go.
const (
	// ErrReasonConstraintsNotMatch: the node's domain would be too skewed
	// (Unschedulable: preemption may help).
	ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	// ErrReasonNodeLabelNotMatch: the node lacks a constraint's topology key
	// (UnschedulableAndUnresolvable).
	ErrReasonNodeLabelNotMatch = ErrReasonConstraintsNotMatch + " (missing required label)"
)

// Defaulting types of Args.DefaultingType (config.SystemDefaulting /
// config.ListDefaulting).
const (
	SystemDefaulting = "System"
	ListDefaulting   = "List"
)

// systemDefaultConstraints are upstream's built-in defaults (plugin.go).
var systemDefaultConstraints = []api.TopologySpreadConstraint{
	{TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 3},
	{TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 5},
}

// Args configure the plugin (config.PodTopologySpreadArgs).
type Args struct {
	// DefaultConstraints apply to pods that set no constraints of their own
	// and that a workload selects. They must not carry a labelSelector: the
	// selector is the workload's (see Selectors). Only with DefaultingType
	// "List".
	DefaultConstraints []api.TopologySpreadConstraint
	// DefaultingType is "System" (the default when empty: hostname maxSkew
	// 3 and zone maxSkew 5, both ScheduleAnyway) or "List"
	// (DefaultConstraints as given; empty means no defaults).
	DefaultingType string
	// Selectors returns the selector default constraints count pods with:
	// the merged selector of what selects the pod. Upstream
	// (helper.DefaultSelector) merges the Services selecting the pod with
	// the selector of its controlling ReplicationController, ReplicaSet or
	// StatefulSet; the lab passes api.DefaultSelector over its Services
	// and the owning workload. A nil hook, or a result that is empty
	// or matches nothing, means no default constraints for that pod, as
	// upstream when nothing selects it.
	Selectors func(pod *api.Pod) api.Selector
}

// Plugin is the PodTopologySpread plugin. PreFilter and PreScore must not
// run concurrently with each other or with Snapshot changes (the engine
// runs one cycle at a time); Filter and Score may run in parallel.
type Plugin struct {
	defaultConstraints []api.TopologySpreadConstraint
	systemDefaulted    bool
	selectors          func(pod *api.Pod) api.Selector

	// lastFilter / lastScore remember the state the latest PreFilter /
	// PreScore wrote, so Filter and Score (called once per node) usually
	// skip the CycleState map lookup.
	lastFilter cyclecache.Cache[*preFilterState]
	lastScore  cyclecache.Cache[*preScoreState]

	// topoMeta caches per topology key facts about the current Topology.
	topoMeta map[string]*topologyMeta
}

var (
	_ framework.PreFilterPlugin     = (*Plugin)(nil)
	_ framework.PreFilterExtensions = (*Plugin)(nil)
	_ framework.FilterPlugin        = (*Plugin)(nil)
	_ framework.PreScorePlugin      = (*Plugin)(nil)
	_ framework.ScorePlugin         = (*Plugin)(nil)
	_ framework.ScoreExtensions     = (*Plugin)(nil)
	_ framework.Explainer           = (*Plugin)(nil)
)

// New builds the plugin, validating the args as
// validation.ValidatePodTopologySpreadArgs does.
func New(args Args) (*Plugin, error) {
	if args.DefaultingType == "" {
		args.DefaultingType = SystemDefaulting // SetDefaults_PodTopologySpreadArgs
	}
	if err := validateArgs(&args); err != nil {
		return nil, fmt.Errorf("PodTopologySpread args: %w", err)
	}
	pl := &Plugin{
		defaultConstraints: args.DefaultConstraints,
		selectors:          args.Selectors,
		topoMeta:           map[string]*topologyMeta{},
	}
	if args.DefaultingType == SystemDefaulting {
		pl.defaultConstraints = systemDefaultConstraints
		pl.systemDefaulted = true
	}
	return pl, nil
}

// Name implements framework.Plugin.
func (pl *Plugin) Name() string { return Name }

func validateArgs(args *Args) error {
	switch args.DefaultingType {
	case SystemDefaulting:
		if len(args.DefaultConstraints) > 0 {
			return fmt.Errorf("defaultingType: Invalid value %q: when .defaultConstraints are not empty", args.DefaultingType)
		}
	case ListDefaulting:
	default:
		return fmt.Errorf("defaultingType: Unsupported value %q: supported values: %q, %q", args.DefaultingType, SystemDefaulting, ListDefaulting)
	}
	for i, c := range args.DefaultConstraints {
		switch {
		case c.MaxSkew <= 0:
			return fmt.Errorf("defaultConstraints[%d].maxSkew: Invalid value %d: not in valid range (0, inf)", i, c.MaxSkew)
		case c.TopologyKey == "":
			return fmt.Errorf("defaultConstraints[%d].topologyKey: Required value: can not be empty", i)
		case c.WhenUnsatisfiable == "":
			return fmt.Errorf("defaultConstraints[%d].whenUnsatisfiable: Required value: can not be empty", i)
		case c.WhenUnsatisfiable != api.DoNotSchedule && c.WhenUnsatisfiable != api.ScheduleAnyway:
			return fmt.Errorf("defaultConstraints[%d].whenUnsatisfiable: Unsupported value %q: supported values: %q, %q", i, c.WhenUnsatisfiable, api.DoNotSchedule, api.ScheduleAnyway)
		case c.LabelSelector != nil:
			return fmt.Errorf("defaultConstraints[%d].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod", i)
		}
		for j := range args.DefaultConstraints[:i] {
			o := &args.DefaultConstraints[j]
			if o.TopologyKey == c.TopologyKey && o.WhenUnsatisfiable == c.WhenUnsatisfiable {
				return fmt.Errorf("defaultConstraints[%d]: Duplicate value: \"{%s, %s}\"", i, c.TopologyKey, c.WhenUnsatisfiable)
			}
		}
	}
	return nil
}
