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
	"podlab.dev/podlab/engine/scheduler/plugins/tainttoleration"
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

// defaultPlugins returns the default profile's plugins in MultiPoint
// order: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
// NodePorts, NodeResourcesFit, (VolumeRestrictions, NodeVolumeLimits,
// VolumeBinding, VolumeZone: not modelled, they pass every node),
// PodTopologySpread, InterPodAffinity, (DynamicResources: not modelled),
// NodeResourcesBalancedAllocation, ImageLocality. PreFilter, Filter,
// PreScore and Score run in this order, each plugin at the points it
// implements, as upstream expands MultiPoint. SchedulingGates and
// PrioritySort are the queue's business; DefaultPreemption is the
// PostFilter (preempt.go); DefaultBinder is the caller's Snapshot.AddPod.
func defaultPlugins(cfg Config) ([]framework.Plugin, error) {
	spread, err := podtopologyspread.New(podtopologyspread.Args{
		DefaultConstraints: cfg.DefaultConstraints,
		DefaultingType:     cfg.DefaultingType,
		Selectors:          cfg.SpreadSelectors,
	})
	if err != nil {
		return nil, err
	}
	return []framework.Plugin{
		nodeunschedulable.New(),
		nodename.New(),
		tainttoleration.New(),
		nodeaffinity.New(),
		nodeports.New(),
		noderesources.NewFit(),
		spread,
		interpodaffinity.New(),
		noderesources.NewBalancedAllocation(),
		imagelocality.New(),
	}, nil
}

// Build returns a scheduler running the default profile on snap, or an
// error when the configuration is invalid (PodTopologySpread's default
// constraints are validated as upstream's args validation does).
func Build(cfg Config, snap *framework.Snapshot) (*Scheduler, error) {
	if err := validPercentage(cfg.PercentageOfNodesToScore); err != nil {
		return nil, fmt.Errorf("scheduler configuration: %w", err)
	}
	plugins, err := defaultPlugins(cfg)
	if err != nil {
		return nil, fmt.Errorf("scheduler profile: %w", err)
	}
	s := newScheduler(cfg, snap, plugins, DefaultWeights, defaultScoreOrder)
	s.postFilter = s.preemptionPostFilter()
	return s, nil
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
