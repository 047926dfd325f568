package lab

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"

	"podlab.dev/podlab/lab/manifest"
)

// renderSchedulerConfig writes a configuration back as a
// KubeSchedulerConfiguration document (save embeds the policy that came
// from scheduler.configFile or --scheduler-config, so the saved scenario
// stands alone).
func renderSchedulerConfig(c *manifest.SchedulerConfiguration) ([]byte, error) {
	doc := map[string]any{"apiVersion": manifest.SchedulerConfigAPIVersion, "kind": manifest.SchedulerConfigKind}
	if c.PercentageOfNodesToScore != nil {
		doc["percentageOfNodesToScore"] = *c.PercentageOfNodesToScore
	}
	var profiles []map[string]any
	for _, p := range c.Profiles {
		m := map[string]any{"schedulerName": p.SchedulerName}
		if p.PercentageOfNodesToScore != nil {
			m["percentageOfNodesToScore"] = *p.PercentageOfNodesToScore
		}
		if len(p.Plugins) > 0 {
			plugins := map[string]any{}
			for _, point := range manifest.SchedulerExtensionPoints {
				set := p.Plugins[point]
				if set == nil || (len(set.Enabled) == 0 && len(set.Disabled) == 0) {
					continue
				}
				sm := map[string]any{}
				var en, dis []map[string]any
				for _, e := range set.Enabled {
					em := map[string]any{"name": e.Name}
					if e.Weight != 0 {
						em["weight"] = e.Weight
					}
					en = append(en, em)
				}
				for _, d := range set.Disabled {
					dis = append(dis, map[string]any{"name": d})
				}
				if en != nil {
					sm["enabled"] = en
				}
				if dis != nil {
					sm["disabled"] = dis
				}
				plugins[point] = sm
			}
			m["plugins"] = plugins
		}
		var pcs []map[string]any
		for _, pc := range p.PluginConfig {
			if args := argsYAML(&pc); args != nil {
				pcs = append(pcs, map[string]any{"name": pc.Name, "args": args})
			}
		}
		if pcs != nil {
			m["pluginConfig"] = pcs
		}
		profiles = append(profiles, m)
	}
	doc["profiles"] = profiles
	return yaml.Marshal(doc)
}

// argsYAML is one plugin's args in the v1 form (nil for args the lab
// does not read).
func argsYAML(pc *manifest.PluginConfig) map[string]any {
	resources := func(rs []manifest.ResourceSpec) []map[string]any {
		var out []map[string]any
		for _, r := range rs {
			out = append(out, map[string]any{"name": r.Name, "weight": r.Weight})
		}
		return out
	}
	switch {
	case pc.NodeResourcesFit != nil:
		a := pc.NodeResourcesFit
		s := map[string]any{"type": a.ScoringStrategy.Type, "resources": resources(a.ScoringStrategy.Resources)}
		if a.ScoringStrategy.HasRatio {
			var shape []map[string]any
			for _, pt := range a.ScoringStrategy.Shape {
				shape = append(shape, map[string]any{"utilization": pt.Utilization, "score": pt.Score})
			}
			s["requestedToCapacityRatio"] = map[string]any{"shape": shape}
		}
		m := map[string]any{"scoringStrategy": s}
		if len(a.IgnoredResources) > 0 {
			m["ignoredResources"] = a.IgnoredResources
		}
		if len(a.IgnoredResourceGroups) > 0 {
			m["ignoredResourceGroups"] = a.IgnoredResourceGroups
		}
		return m
	case pc.NodeResourcesBalancedAllocation != nil:
		return map[string]any{"resources": resources(pc.NodeResourcesBalancedAllocation.Resources)}
	case pc.PodTopologySpread != nil:
		a := pc.PodTopologySpread
		m := map[string]any{"defaultingType": a.DefaultingType}
		var dcs []map[string]any
		for _, c := range a.DefaultConstraints {
			dcs = append(dcs, map[string]any{"maxSkew": c.MaxSkew, "topologyKey": c.TopologyKey, "whenUnsatisfiable": c.WhenUnsatisfiable})
		}
		if dcs != nil {
			m["defaultConstraints"] = dcs
		}
		return m
	case pc.InterPodAffinity != nil:
		return map[string]any{"hardPodAffinityWeight": pc.InterPodAffinity.HardPodAffinityWeight,
			"ignorePreferredTermsOfExistingPods": pc.InterPodAffinity.IgnorePreferredTermsOfExistingPods}
	case pc.NodeAffinity != nil:
		m := map[string]any{}
		if na := pc.NodeAffinity.AddedAffinity; na != nil {
			m["addedAffinity"] = nodeAffinityYAML(na)
		}
		return m
	case pc.DefaultPreemption != nil:
		return map[string]any{"minCandidateNodesPercentage": pc.DefaultPreemption.MinCandidateNodesPercentage,
			"minCandidateNodesAbsolute": pc.DefaultPreemption.MinCandidateNodesAbsolute}
	}
	return nil
}

// nodeAffinityYAML is a v1.NodeAffinity in its YAML form.
func nodeAffinityYAML(na *api.NodeAffinity) map[string]any {
	reqs := func(rs []api.NodeSelectorRequirement) []map[string]any {
		var out []map[string]any
		for _, r := range rs {
			m := map[string]any{"key": r.Key, "operator": r.Operator}
			if len(r.Values) > 0 {
				m["values"] = r.Values
			}
			out = append(out, m)
		}
		return out
	}
	term := func(t api.NodeSelectorTerm) map[string]any {
		m := map[string]any{}
		if len(t.MatchExpressions) > 0 {
			m["matchExpressions"] = reqs(t.MatchExpressions)
		}
		if len(t.MatchFields) > 0 {
			m["matchFields"] = reqs(t.MatchFields)
		}
		return m
	}
	out := map[string]any{}
	if ns := na.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
		var terms []map[string]any
		for _, t := range ns.NodeSelectorTerms {
			terms = append(terms, term(t))
		}
		out["requiredDuringSchedulingIgnoredDuringExecution"] = map[string]any{"nodeSelectorTerms": terms}
	}
	var pref []map[string]any
	for _, p := range na.PreferredDuringSchedulingIgnoredDuringExecution {
		pref = append(pref, map[string]any{"weight": p.Weight, "preference": term(p.Preference)})
	}
	if pref != nil {
		out["preferredDuringSchedulingIgnoredDuringExecution"] = pref
	}
	return out
}
