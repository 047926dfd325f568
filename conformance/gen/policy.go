package gen

import (
	"math/rand/v2"
)

// Random scheduler policies: a KubeSchedulerConfiguration document added
// to a scenario (Config.Policy). It draws from its own generator, so a
// scenario with a policy has exactly the objects of the one without.
// Every policy is valid: the scoring strategies with random resource
// weights (cpu, memory, ephemeral-storage and the example.com/gpu extended
// resource) and RequestedToCapacityRatio shapes, ignored extended
// resources, BalancedAllocation resources, InterPodAffinity and
// PodTopologySpread args, score weights through multiPoint and score,
// score plugins disabled (one by one or "*" with some re-enabled) and
// filter plugins disabled.

// scorePluginNames are the default profile's modelled score plugins.
var scorePluginNames = []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread",
	"InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"}

// filterPluginNames are filter plugins a policy may switch off.
var filterPluginNames = []string{"TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit",
	"PodTopologySpread", "InterPodAffinity", "NodeUnschedulable"}

func (g *gen) policy(seed uint64, i int) obj {
	pg := &gen{r: rand.New(rand.NewPCG(seed^0x5bd1e995, uint64(i)*0x9e3779b97f4a7c15+7))}
	profiles := []any{pg.profile("default-scheduler")}
	if pg.chance(0.3) {
		// a second profile: about half the pending pods ask for it
		profiles = append(profiles, pg.profile("batch"))
		for _, d := range g.docs {
			spec, _ := d["spec"].(obj)
			if d["kind"] != "Pod" || spec == nil || spec["nodeName"] != nil {
				continue
			}
			if pg.chance(0.5) {
				spec["schedulerName"] = "batch"
			}
		}
	}
	return obj{
		"apiVersion": "kubescheduler.config.k8s.io/v1",
		"kind":       "KubeSchedulerConfiguration",
		"profiles":   profiles,
	}
}

// profile draws one profile.
func (pg *gen) profile(name string) obj {
	profile := obj{"schedulerName": name}
	var pluginConfig []any
	if pg.chance(0.8) {
		pluginConfig = append(pluginConfig, obj{"name": "NodeResourcesFit", "args": pg.fitArgs()})
	}
	if pg.chance(0.3) {
		res := []any{obj{"name": "cpu", "weight": 1}, obj{"name": "memory", "weight": 1}}
		if pg.chance(0.5) {
			res = append(res, obj{"name": "ephemeral-storage", "weight": 1})
		}
		if pg.chance(0.5) {
			res = append(res, obj{"name": "example.com/gpu", "weight": 1})
		}
		if pg.chance(0.3) {
			res = res[1:]
		}
		pluginConfig = append(pluginConfig, obj{"name": "NodeResourcesBalancedAllocation", "args": obj{"resources": res}})
	}
	if pg.chance(0.35) {
		pluginConfig = append(pluginConfig, obj{"name": "InterPodAffinity", "args": obj{
			"hardPodAffinityWeight":              pick(pg, []int{0, 1, 2, 10, 100}),
			"ignorePreferredTermsOfExistingPods": pg.chance(0.5),
		}})
	}
	if pg.chance(0.3) {
		pluginConfig = append(pluginConfig, obj{"name": "PodTopologySpread", "args": pg.spreadArgs()})
	}
	if pg.chance(0.15) {
		pluginConfig = append(pluginConfig, obj{"name": "NodeAffinity", "args": pg.addedAffinity()})
	}
	if len(pluginConfig) > 0 {
		profile["pluginConfig"] = pluginConfig
	}
	plugins := obj{}
	if pg.chance(0.5) {
		var enabled []any
		for _, name := range scorePluginNames {
			if pg.chance(0.4) {
				enabled = append(enabled, obj{"name": name, "weight": pg.between(1, 10)})
			}
		}
		if len(enabled) > 0 {
			plugins["multiPoint"] = obj{"enabled": enabled}
		}
	}
	switch {
	case pg.chance(0.1):
		var enabled []any
		for _, name := range scorePluginNames {
			if pg.chance(0.4) {
				enabled = append(enabled, obj{"name": name, "weight": pg.between(1, 5)})
			}
		}
		score := obj{"disabled": []any{obj{"name": "*"}}}
		if len(enabled) > 0 {
			score["enabled"] = enabled
		}
		plugins["score"] = score
	case pg.chance(0.35):
		var disabled []any
		for _, name := range scorePluginNames {
			if pg.chance(0.25) {
				disabled = append(disabled, obj{"name": name})
			}
		}
		if len(disabled) > 0 {
			plugins["score"] = obj{"disabled": disabled}
		}
	}
	if pg.chance(0.15) {
		plugins["filter"] = obj{"disabled": []any{obj{"name": pick(pg, filterPluginNames)}}}
	}
	if len(plugins) > 0 {
		profile["plugins"] = plugins
	}
	return profile
}

func (g *gen) fitArgs() obj {
	strategy := pick(g, []string{"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"})
	s := obj{"type": strategy}
	if g.chance(0.6) {
		var res []any
		for _, name := range []string{"cpu", "memory", "ephemeral-storage", "example.com/gpu"} {
			if g.chance(0.6) {
				res = append(res, obj{"name": name, "weight": g.between(1, 5)})
			}
		}
		if len(res) > 0 {
			s["resources"] = res
		}
	}
	if strategy == "RequestedToCapacityRatio" {
		var shape []any
		u := 0
		for n := g.between(1, 4); n > 0 && u <= 100; n-- {
			shape = append(shape, obj{"utilization": u, "score": g.between(0, 10)})
			u += g.between(1, 60)
		}
		s["requestedToCapacityRatio"] = obj{"shape": shape}
	}
	args := obj{"scoringStrategy": s}
	switch {
	case g.chance(0.1):
		args["ignoredResources"] = []any{"example.com/gpu"}
	case g.chance(0.1):
		args["ignoredResourceGroups"] = []any{"example.com"}
	}
	return args
}

func (g *gen) spreadArgs() obj {
	if g.chance(0.3) {
		return obj{"defaultingType": "System"}
	}
	var cs []any
	keys := []string{keyZone, keyHostname, keyRack}
	used := map[string]bool{}
	for n := g.between(0, 2); n > 0; n-- {
		key, when := pick(g, keys), pick(g, []string{"DoNotSchedule", "ScheduleAnyway"})
		if used[key+when] {
			continue
		}
		used[key+when] = true
		cs = append(cs, obj{"maxSkew": g.between(1, 3), "topologyKey": key, "whenUnsatisfiable": when})
	}
	args := obj{"defaultingType": "List"}
	if len(cs) > 0 {
		args["defaultConstraints"] = cs
	}
	return args
}

// addedAffinity draws NodeAffinityArgs.addedAffinity: a required zone or
// rack term (In / NotIn / Exists) and/or weighted preferences.
func (g *gen) addedAffinity() obj {
	expr := func() obj {
		key := pick(g, []string{keyZone, keyRack, keyDisk})
		switch op := pick(g, []string{"In", "NotIn", "Exists", "DoesNotExist"}); op {
		case "Exists", "DoesNotExist":
			return obj{"key": key, "operator": op}
		default:
			vals := map[string][]any{keyZone: {"zone-a", "zone-b"}, keyRack: {"r1", "r2"}, keyDisk: {"ssd", "hdd"}}[key]
			return obj{"key": key, "operator": op, "values": vals[:g.between(1, len(vals))]}
		}
	}
	aff := obj{}
	if g.chance(0.6) {
		aff["requiredDuringSchedulingIgnoredDuringExecution"] = obj{"nodeSelectorTerms": []any{
			obj{"matchExpressions": []any{expr()}}}}
	}
	if g.chance(0.6) || len(aff) == 0 {
		aff["preferredDuringSchedulingIgnoredDuringExecution"] = []any{
			obj{"weight": g.between(1, 100), "preference": obj{"matchExpressions": []any{expr()}}}}
	}
	return obj{"addedAffinity": aff}
}
