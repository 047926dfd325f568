package manifest

import (
	"errors"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// ValidateSchedulerConfiguration validates a configuration built or edited
// outside a file (the lab's `set scheduler`), with the messages a file
// gets ("profiles[0].pluginConfig[0].args.…: Invalid value: …").
func ValidateSchedulerConfiguration(c *SchedulerConfiguration) error {
	var msgs []string
	for _, fe := range validateSchedulerConfig(c) {
		if fe.warning {
			continue
		}
		msgs = append(msgs, fe.path+": "+fe.msg)
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}

// DefaultSchedulerConfiguration is what an empty configuration defaults to:
// one default-scheduler profile.
func DefaultSchedulerConfiguration() *SchedulerConfiguration {
	return &SchedulerConfiguration{Profiles: []SchedulerProfile{{SchedulerName: api.DefaultSchedulerName}}}
}

// Clone returns a deep copy (edits to it leave c alone).
func (c *SchedulerConfiguration) Clone() *SchedulerConfiguration {
	if c == nil {
		return nil
	}
	out := &SchedulerConfiguration{PercentageOfNodesToScore: clonePtr(c.PercentageOfNodesToScore)}
	for _, p := range c.Profiles {
		q := SchedulerProfile{SchedulerName: p.SchedulerName, PercentageOfNodesToScore: clonePtr(p.PercentageOfNodesToScore)}
		if p.Plugins != nil {
			q.Plugins = map[string]*SchedulerPluginSet{}
			for k, set := range p.Plugins {
				if set == nil {
					continue
				}
				q.Plugins[k] = &SchedulerPluginSet{Enabled: append([]SchedulerPlugin(nil), set.Enabled...), Disabled: append([]string(nil), set.Disabled...)}
			}
		}
		for _, pc := range p.PluginConfig {
			q.PluginConfig = append(q.PluginConfig, pc.clone())
		}
		out.Profiles = append(out.Profiles, q)
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func (pc PluginConfig) clone() PluginConfig {
	out := PluginConfig{Name: pc.Name}
	if a := pc.NodeResourcesFit; a != nil {
		b := *a
		b.IgnoredResources = append([]string(nil), a.IgnoredResources...)
		b.IgnoredResourceGroups = append([]string(nil), a.IgnoredResourceGroups...)
		b.ScoringStrategy.Resources = append([]ResourceSpec(nil), a.ScoringStrategy.Resources...)
		b.ScoringStrategy.Shape = append([]UtilizationShapePoint(nil), a.ScoringStrategy.Shape...)
		out.NodeResourcesFit = &b
	}
	if a := pc.NodeResourcesBalancedAllocation; a != nil {
		out.NodeResourcesBalancedAllocation = &BalancedAllocationArgs{Resources: append([]ResourceSpec(nil), a.Resources...)}
	}
	if a := pc.PodTopologySpread; a != nil {
		out.PodTopologySpread = &PodTopologySpreadArgs{DefaultingType: a.DefaultingType, DefaultConstraints: append([]api.TopologySpreadConstraint(nil), a.DefaultConstraints...)}
	}
	out.InterPodAffinity = clonePtr(pc.InterPodAffinity)
	out.DefaultPreemption = clonePtr(pc.DefaultPreemption)
	out.NodeAffinity = clonePtr(pc.NodeAffinity)
	return out
}

// Args returns the profile's pluginConfig entry for a plugin, adding a
// defaulted one when there is none (the lab's `set scheduler`).
func (p *SchedulerProfile) Args(plugin string) *PluginConfig {
	for i := range p.PluginConfig {
		if p.PluginConfig[i].Name == plugin {
			return &p.PluginConfig[i]
		}
	}
	pc := PluginConfig{Name: plugin}
	switch plugin {
	case "NodeResourcesFit":
		pc.NodeResourcesFit = &NodeResourcesFitArgs{ScoringStrategy: ScoringStrategy{Type: "LeastAllocated", Resources: defaultResourceSpecs()}}
	case "InterPodAffinity":
		pc.InterPodAffinity = &InterPodAffinityArgs{HardPodAffinityWeight: 1}
	}
	p.PluginConfig = append(p.PluginConfig, pc)
	return &p.PluginConfig[len(p.PluginConfig)-1]
}

// Set returns the profile's plugin set of an extension point, adding an
// empty one when there is none.
func (p *SchedulerProfile) Set(point string) *SchedulerPluginSet {
	if p.Plugins == nil {
		p.Plugins = map[string]*SchedulerPluginSet{}
	}
	if p.Plugins[point] == nil {
		p.Plugins[point] = &SchedulerPluginSet{}
	}
	return p.Plugins[point]
}
