package scheduler

import (
	"fmt"

	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/imagelocality"
	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/nodename"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeports"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeunschedulable"
	"podlab.dev/podlab/engine/scheduler/plugins/podtopologyspread"
	"podlab.dev/podlab/engine/scheduler/plugins/schedulinggates"
	"podlab.dev/podlab/engine/scheduler/plugins/tainttoleration"
	"podlab.dev/podlab/engine/scheduler/preemption"
)

// DefaultWeights are the default profile's score weights
// (pkg/scheduler/apis/config/v1/default_plugins.go getDefaultPlugins and
// applyDynamicResources; VolumeBinding's weight is unset there and
// defaults to 1).
var DefaultWeights = map[string]int64{
	tainttoleration.Name:                 3,
	nodeaffinity.Name:                    2,
	noderesources.Name:                   1,
	VolumeBindingName:                    1,
	podtopologyspread.Name:               2,
	interpodaffinity.Name:                2,
	DynamicResourcesName:                 2,
	noderesources.BalancedAllocationName: 1,
	imagelocality.Name:                   1,
}

// defaultScoreOrder is the order of the score plugins in the default
// profile's MultiPoint list (DynamicResources inserted before
// DefaultPreemption by applyDynamicResources).
var defaultScoreOrder = []string{
	tainttoleration.Name, nodeaffinity.Name, noderesources.Name, VolumeBindingName,
	podtopologyspread.Name, interpodaffinity.Name, DynamicResourcesName,
	noderesources.BalancedAllocationName, imagelocality.Name,
}

// Build returns a scheduler running cfg.Profiles (or, when there are
// none, the default profile with cfg's PodTopologySpread args) on snap, or
// an error when the configuration is invalid: PodTopologySpread's default
// constraints are validated as upstream's args validation does, and the
// plugin sets as the framework's construction does (unknown plugins,
// plugins at points they do not implement, double registration).
func Build(cfg Config, snap *framework.Snapshot) (*Scheduler, error) {
	if err := validPercentage(cfg.PercentageOfNodesToScore); err != nil {
		return nil, fmt.Errorf("scheduler configuration: %w", err)
	}
	configs := cfg.Profiles
	if len(configs) == 0 {
		configs = []ProfileConfig{{Args: PluginArgs{PodTopologySpread: &SpreadArgs{
			DefaultConstraints: cfg.DefaultConstraints, DefaultingType: cfg.DefaultingType}}}}
	}
	s := newScheduler(cfg, snap, nil, nil, nil)
	s.profiles = make(map[string]*profile, len(configs))
	for i := range configs {
		pc := &configs[i]
		name := pc.Name()
		if _, dup := s.profiles[name]; dup {
			return nil, fmt.Errorf("scheduler profile: duplicate profile with scheduler name %q", name)
		}
		if err := validPercentage(pc.PercentageOfNodesToScore); err != nil {
			return nil, fmt.Errorf("scheduler profile %q: %w", name, err)
		}
		prof, err := s.buildProfile(cfg, pc)
		if err != nil {
			return nil, fmt.Errorf("creating profile for scheduler name %s: %w", name, err)
		}
		s.profiles[name] = prof
		if i == 0 {
			s.use(prof)
		}
	}
	return s, nil
}

// buildProfile instantiates a profile's modelled plugins with their args
// and lays them out per extension point as the framework would.
func (s *Scheduler) buildProfile(cfg Config, pc *ProfileConfig) (*profile, error) {
	ep, err := expandProfile(mergePlugins(pc.Plugins), pc.Name())
	if err != nil {
		return nil, err
	}
	plugins, err := instantiate(cfg, pc.Args)
	if err != nil {
		return nil, err
	}
	prof := assembleProfile(ep, plugins)
	prof.name = pc.Name()
	prof.policy = describeProfile(prof, ep, pc.Args)
	prof.config = pc
	prof.percentage = cfg.PercentageOfNodesToScore
	if pc.PercentageOfNodesToScore != nil {
		prof.percentage = pc.PercentageOfNodesToScore
	}
	for _, name := range ep.points[ptPostFilter] {
		if name == DefaultPreemptionName {
			args := PreemptionArgs{MinCandidateNodesPercentage: preemption.MinCandidateNodesPercentage, MinCandidateNodesAbsolute: preemption.MinCandidateNodesAbsolute}
			if pc.Args.DefaultPreemption != nil {
				args = *pc.Args.DefaultPreemption
			}
			prof.postFilter = s.preemptionPostFilter(args)
		}
	}
	return prof, nil
}

// instantiate builds every plugin the lab models with the profile's args
// (the registry's factories; nil args mean the defaults).
func instantiate(cfg Config, args PluginArgs) (map[string]framework.Plugin, error) {
	spreadArgs := podtopologyspread.Args{Selectors: cfg.SpreadSelectors}
	if a := args.PodTopologySpread; a != nil {
		spreadArgs.DefaultConstraints, spreadArgs.DefaultingType = a.DefaultConstraints, a.DefaultingType
	}
	spread, err := podtopologyspread.New(spreadArgs)
	if err != nil {
		return nil, err
	}
	fit := noderesources.NewFit()
	if args.NodeResourcesFit != nil {
		fit = noderesources.NewFitWithArgs(*args.NodeResourcesFit)
	}
	balanced := noderesources.NewBalancedAllocation()
	if args.NodeResourcesBalancedAllocation != nil {
		balanced = noderesources.NewBalancedAllocationWithArgs(*args.NodeResourcesBalancedAllocation)
	}
	ipa := interpodaffinity.New()
	if args.InterPodAffinity != nil {
		ipa = interpodaffinity.NewWithArgs(*args.InterPodAffinity)
	}
	na := nodeaffinity.New()
	if args.NodeAffinity != nil {
		if na, err = nodeaffinity.NewWithArgs(*args.NodeAffinity); err != nil {
			return nil, fmt.Errorf("initializing plugin %q: %w", nodeaffinity.Name, err)
		}
	}
	out := map[string]framework.Plugin{}
	for _, pl := range []framework.Plugin{
		nodeunschedulable.New(), nodename.New(), tainttoleration.New(), na,
		nodeports.New(), fit, spread, ipa, balanced, imagelocality.New(), schedulinggates.New(),
	} {
		out[pl.Name()] = pl
	}
	return out, nil
}

// New is Build for a configuration known to be valid (the built-in
// defaults, or one Build already accepted); it panics on an invalid one.
// Use Build for configuration that comes from the user.
func New(cfg Config, snap *framework.Snapshot) *Scheduler {
	s, err := Build(cfg, snap)
	if err != nil {
		panic(err)
	}
	return s
}
