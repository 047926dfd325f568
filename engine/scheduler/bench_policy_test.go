package scheduler

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
)

// BenchmarkStrategies is the TopologySpreading shape (5,000 nodes, every
// node evaluated) with a KubeSchedulerConfiguration: the default profile
// (no configuration: the LeastAllocated fast path), LeastAllocated /
// MostAllocated / RequestedToCapacityRatio through the configured scorer
// (resource weights 2:1, so the fast path cannot serve them), and a
// profile with changed weights and BalancedAllocation disabled. The goal:
// the configured strategies within 10 % of the default profile.
func BenchmarkStrategies(b *testing.B) {
	weighted := []noderesources.ResourceSpec{{Name: "cpu", Weight: 2}, {Name: "memory", Weight: 1}}
	fit := func(typ string, shape ...noderesources.ShapePoint) []ProfileConfig {
		return []ProfileConfig{{Args: PluginArgs{NodeResourcesFit: &noderesources.FitArgs{
			ScoringStrategy: noderesources.ScoringStrategy{Type: typ, Resources: weighted, Shape: shape}}}}}
	}
	cases := []struct {
		name     string
		profiles []ProfileConfig
	}{
		{"Default", nil},
		{"LeastAllocated", fit(noderesources.LeastAllocated)},
		{"MostAllocated", fit(noderesources.MostAllocated)},
		{"RequestedToCapacityRatio", fit(noderesources.RequestedToCapacityRatio, noderesources.ShapePoint{Utilization: 0, Score: 0}, noderesources.ShapePoint{Utilization: 100, Score: 10})},
		{"Weights", []ProfileConfig{{Plugins: &Plugins{
			MultiPoint: PluginSet{Enabled: []PluginRef{{Name: "PodTopologySpread", Weight: 5}, {Name: "NodeResourcesFit", Weight: 3}}},
			Score:      PluginSet{Disabled: []string{"NodeResourcesBalancedAllocation", "ImageLocality"}},
		}}}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchTopologySpreadingWith(b, Config{Profiles: c.profiles}) })
	}
}
