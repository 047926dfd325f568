package manifest

import (
	"fmt"
	"reflect"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// validateSchedulerConfig is pkg/scheduler/apis/config/validation
// ValidateKubeSchedulerConfiguration for the fields the lab reads, with
// upstream's paths and messages. NodeResourcesFit's args are validated
// here too (upstream validates them when the plugin is built, NewFit,
// with the same messages).
func validateSchedulerConfig(cfg *SchedulerConfiguration) []fieldError {
	var errs []fieldError
	seen := map[string]int{}
	for i := range cfg.Profiles {
		prof := &cfg.Profiles[i]
		path := index("profiles", i)
		// validation.go:141 validateKubeSchedulerProfile
		if prof.SchedulerName == "" {
			errs = append(errs, required(path+".schedulerName", ""))
		}
		errs = append(errs, validatePercentageOfNodesToScore(path+".percentageOfNodesToScore", prof.PercentageOfNodesToScore)...)
		errs = append(errs, validatePluginConfig(path, prof)...)
		if j, ok := seen[prof.SchedulerName]; ok && prof.SchedulerName != "" {
			errs = append(errs, fieldError{path: path + ".schedulerName", msg: "Duplicate value: " + index("profiles", j) + ".schedulerName"})
		}
		seen[prof.SchedulerName] = i
		for _, point := range SchedulerExtensionPoints {
			set := prof.Plugins[point]
			if set == nil {
				continue
			}
			for j, pl := range set.Enabled {
				if pl.Weight < 0 {
					// the framework refuses it too (no negative weights)
					errs = append(errs, invalid(index(path+".plugins."+point+".enabled", j)+".weight", pl.Weight, "must be greater than or equal to 0"))
				}
				if pl.Name == "" {
					errs = append(errs, required(index(path+".plugins."+point+".enabled", j)+".name", ""))
				} else if !inTreePlugins[pl.Name] {
					// the framework's message when it builds the profile
					// (framework.go:774 updatePluginList)
					e := fieldError{path: index(path+".plugins."+point+".enabled", j) + ".name", msg: fmt.Sprintf("%s %q does not exist", pluginInterface(point), pl.Name)}
					if near := nearestName(pl.Name, inTreePluginNames); near != "" {
						e.hint = fmt.Sprintf("did you mean %s?", near)
					}
					errs = append(errs, e)
				} else if point != "multiPoint" && !pluginPoints[pl.Name][point] && pluginPoints[pl.Name] != nil {
					// framework.go:777 updatePluginList
					errs = append(errs, fieldError{path: index(path+".plugins."+point+".enabled", j) + ".name",
						msg:  fmt.Sprintf("plugin %q does not extend %s plugin", pl.Name, pluginInterface(point)),
						hint: "enable it under multiPoint, or at a point it implements"})
				}
			}
		}
	}
	if len(cfg.Profiles) > 1 {
		// validation.go:219 validateCommonQueueSort
		canon := prof0QueueSort(&cfg.Profiles[0])
		for i := 1; i < len(cfg.Profiles); i++ {
			if !reflect.DeepEqual(canon, prof0QueueSort(&cfg.Profiles[i])) {
				errs = append(errs, fieldError{path: index("profiles", i) + ".plugins.queueSort", msg: "Invalid value: queueSort: must be the same for all profiles"})
			}
		}
	}
	errs = append(errs, validatePercentageOfNodesToScore("percentageOfNodesToScore", cfg.PercentageOfNodesToScore)...)
	return errs
}

// inTreePluginNames is kube-scheduler v1.36's in-tree registry
// (pkg/scheduler/framework/plugins/names/names.go).
var inTreePluginNames = []string{
	"PrioritySort", "DefaultBinder", "DefaultPreemption", "DynamicResources", "GangScheduling",
	"ImageLocality", "InterPodAffinity", "NodeAffinity", "NodeDeclaredFeatures", "NodeName",
	"NodePorts", "NodeResourcesBalancedAllocation", "NodeResourcesFit", "NodeUnschedulable",
	"NodeVolumeLimits", "PodTopologySpread", "SchedulingGates", "TaintToleration", "VolumeBinding",
	"VolumeRestrictions", "VolumeZone", "TopologyPlacementGenerator", "PodGroupPodsCount",
}

// pluginPoints are the extension points each in-tree plugin implements
// (the fwk.*Plugin assertions of pkg/scheduler/framework/plugins, v1.36;
// the placement points are not listed: the lab has no workloads API).
var pluginPoints = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for name, points := range map[string]string{
		"SchedulingGates":                 "preEnqueue",
		"PrioritySort":                    "queueSort",
		"NodeUnschedulable":               "filter",
		"NodeName":                        "filter",
		"TaintToleration":                 "filter preScore score",
		"NodeAffinity":                    "preFilter filter preScore score",
		"NodePorts":                       "preFilter filter",
		"NodeResourcesFit":                "preFilter filter preScore score",
		"VolumeRestrictions":              "preFilter filter",
		"NodeVolumeLimits":                "preFilter filter",
		"VolumeBinding":                   "preFilter filter reserve preBind preScore score",
		"VolumeZone":                      "preFilter filter",
		"PodTopologySpread":               "preFilter filter preScore score",
		"InterPodAffinity":                "preFilter filter preScore score",
		"DynamicResources":                "preEnqueue preFilter filter postFilter reserve preBind score",
		"DefaultPreemption":               "preEnqueue postFilter",
		"NodeResourcesBalancedAllocation": "preScore score",
		"ImageLocality":                   "score",
		"DefaultBinder":                   "bind",
		"NodeDeclaredFeatures":            "preFilter filter",
		"GangScheduling":                  "preEnqueue permit",
	} {
		m[name] = map[string]bool{}
		for _, p := range strings.Fields(points) {
			m[name][p] = true
		}
	}
	return m
}()

var inTreePlugins = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range inTreePluginNames {
		m[n] = true
	}
	return m
}()

// pluginInterface names an extension point's plugin interface as the
// framework's errors do ("FilterPlugin"); multiPoint reports as the first
// point expanded, PreFilterPlugin.
func pluginInterface(point string) string {
	if point == "multiPoint" {
		point = "preFilter"
	}
	return strings.ToUpper(point[:1]) + point[1:] + "Plugin"
}

func prof0QueueSort(p *SchedulerProfile) SchedulerPluginSet {
	if s := p.Plugins["queueSort"]; s != nil {
		return *s
	}
	return SchedulerPluginSet{}
}

// validatePercentageOfNodesToScore is validation.go:86.
func validatePercentageOfNodesToScore(path string, p *int32) []fieldError {
	if p != nil && (*p < 0 || *p > 100) {
		return []fieldError{invalid(path, *p, "not in valid range [0-100]")}
	}
	return nil
}

// validatePluginConfig is validation.go:151: duplicates, then each
// plugin's args validation.
func validatePluginConfig(path string, prof *SchedulerProfile) []fieldError {
	var errs []fieldError
	seen := map[string]bool{}
	for i, pc := range prof.PluginConfig {
		p := index(path+".pluginConfig", i)
		if seen[pc.Name] {
			errs = append(errs, duplicate(p, pc.Name))
		}
		seen[pc.Name] = true
		args := p + ".args"
		switch {
		case pc.NodeResourcesFit != nil:
			errs = append(errs, validateFitArgs(args, pc.NodeResourcesFit)...)
		case pc.NodeResourcesBalancedAllocation != nil:
			errs = append(errs, validateBalancedArgs(args, pc.NodeResourcesBalancedAllocation)...)
		case pc.PodTopologySpread != nil:
			errs = append(errs, validateSpreadArgs(args, pc.PodTopologySpread)...)
		case pc.InterPodAffinity != nil:
			// validation_pluginargs.go:86 validateHardPodAffinityWeight
			if w := pc.InterPodAffinity.HardPodAffinityWeight; w < 0 || w > 100 {
				errs = append(errs, invalid(args+".hardPodAffinityWeight", w, "not in valid range [0, 100]"))
			}
		case pc.NodeAffinity != nil:
			errs = append(errs, validateNodeAffinityArgs(args, pc.NodeAffinity)...)
		case pc.DefaultPreemption != nil:
			errs = append(errs, validatePreemptionArgs(args, pc.DefaultPreemption)...)
		}
	}
	return errs
}

// validatePreemptionArgs is validation_pluginargs.go:44.
func validatePreemptionArgs(path string, a *DefaultPreemptionArgs) []fieldError {
	var errs []fieldError
	pct, abs := path+".minCandidateNodesPercentage", path+".minCandidateNodesAbsolute"
	if a.MinCandidateNodesPercentage < 0 || a.MinCandidateNodesPercentage > 100 {
		errs = append(errs, invalid(pct, a.MinCandidateNodesPercentage, "not in valid range [0, 100]"))
	}
	if a.MinCandidateNodesAbsolute < 0 {
		errs = append(errs, invalid(abs, a.MinCandidateNodesAbsolute, "not in valid range [0, inf)"))
	}
	if a.MinCandidateNodesPercentage == 0 && a.MinCandidateNodesAbsolute == 0 {
		errs = append(errs,
			invalid(pct, a.MinCandidateNodesPercentage, "cannot be zero at the same time as minCandidateNodesAbsolute"),
			invalid(abs, a.MinCandidateNodesAbsolute, "cannot be zero at the same time as minCandidateNodesPercentage"))
	}
	return errs
}

// validateSpreadArgs is validation_pluginargs.go:102.
func validateSpreadArgs(path string, a *PodTopologySpreadArgs) []fieldError {
	var errs []fieldError
	switch a.DefaultingType {
	case "System":
		if len(a.DefaultConstraints) > 0 {
			errs = append(errs, invalid(path+".defaultingType", a.DefaultingType, "when .defaultConstraints are not empty"))
		}
	case "List":
	default:
		errs = append(errs, notSupported(path+".defaultingType", a.DefaultingType, "System", "List"))
	}
	dcPath := path + ".defaultConstraints"
	for i, c := range a.DefaultConstraints {
		p := index(dcPath, i)
		if c.MaxSkew <= 0 {
			errs = append(errs, invalid(p+".maxSkew", c.MaxSkew, "not in valid range (0, inf)"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, required(p+".topologyKey", "can not be empty"))
		} else {
			errs = append(errs, validateLabelName(p+".topologyKey", c.TopologyKey)...)
		}
		switch c.WhenUnsatisfiable {
		case "":
			errs = append(errs, required(p+".whenUnsatisfiable", "can not be empty"))
		case api.DoNotSchedule, api.ScheduleAnyway:
		default:
			errs = append(errs, notSupported(p+".whenUnsatisfiable", c.WhenUnsatisfiable, api.DoNotSchedule, api.ScheduleAnyway))
		}
		if c.LabelSelector != nil {
			errs = append(errs, forbidden(p+".labelSelector", "constraint must not define a selector, as they deduced for each pod"))
		}
		for j := 0; j < i; j++ {
			o := a.DefaultConstraints[j]
			if o.TopologyKey == c.TopologyKey && o.WhenUnsatisfiable == c.WhenUnsatisfiable {
				errs = append(errs, duplicate(p, fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
				break
			}
		}
	}
	return errs
}

// validateBalancedArgs is validation_pluginargs.go:225.
func validateBalancedArgs(path string, a *BalancedAllocationArgs) []fieldError {
	var errs []fieldError
	seen := map[string]bool{}
	for i, r := range a.Resources {
		p := index(path+".resources", i)
		if seen[r.Name] {
			errs = append(errs, duplicate(p+".name", r.Name))
		}
		seen[r.Name] = true
		if r.Weight != 1 {
			errs = append(errs, invalid(p+".weight", r.Weight, "must be 1"))
		}
	}
	return errs
}

// Scoring strategy types (validation_pluginargs.go:37, sorted as
// sets.List prints them).
var scoringStrategyTypes = []string{"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"}

// validateFitArgs is validation_pluginargs.go:295 ValidateNodeResourcesFitArgs.
func validateFitArgs(path string, a *NodeResourcesFitArgs) []fieldError {
	var errs []fieldError
	for i, r := range a.IgnoredResources {
		errs = append(errs, validateLabelName(index(path+".ignoredResources", i), r)...)
	}
	for i, g := range a.IgnoredResourceGroups {
		p := index(path+".ignoredResourceGroups", i)
		if strings.Contains(g, "/") {
			errs = append(errs, invalid(p, g, "resource group name can't contain '/'"))
		}
		errs = append(errs, validateLabelName(p, g)...)
	}
	s := &a.ScoringStrategy
	sp := path + ".scoringStrategy"
	known := false
	for _, t := range scoringStrategyTypes {
		known = known || t == s.Type
	}
	if !known {
		errs = append(errs, notSupported(sp+".type", s.Type, scoringStrategyTypes...))
	}
	for i, r := range s.Resources {
		// validateResources (:213)
		if r.Weight <= 0 || r.Weight > 100 {
			errs = append(errs, invalid(index(sp+".resources", i)+".weight", r.Weight, fmt.Sprintf("resource weight of %v not in valid range (0, 100]", r.Name)))
		}
	}
	if s.Type == "RequestedToCapacityRatio" {
		if !s.HasRatio {
			errs = append(errs, required(sp+".requestedToCapacityRatio", "must be specified when type is RequestedToCapacityRatio"))
		} else {
			errs = append(errs, validateFunctionShape(sp+".requestedToCapacityRatio.shape", s.Shape)...)
		}
	} else if s.HasRatio {
		errs = append(errs, forbidden(sp+".requestedToCapacityRatio", "must be nil when type is not RequestedToCapacityRatio"))
	}
	return errs
}

// validateFunctionShape is validation_pluginargs.go:176.
func validateFunctionShape(path string, shape []UtilizationShapePoint) []fieldError {
	if len(shape) == 0 {
		return []fieldError{required(path, "at least one point must be specified")}
	}
	var errs []fieldError
	for i := 1; i < len(shape); i++ {
		if shape[i-1].Utilization >= shape[i].Utilization {
			errs = append(errs, invalid(index(path, i)+".utilization", shape[i].Utilization, "values must be sorted in increasing order"))
			break
		}
	}
	for i, pt := range shape {
		if pt.Utilization < 0 || pt.Utilization > 100 {
			errs = append(errs, invalid(index(path, i)+".utilization", pt.Utilization, "not in valid range [0, 100]"))
		}
		if pt.Score < 0 || pt.Score > 10 {
			errs = append(errs, invalid(index(path, i)+".score", pt.Score, "not in valid range [0, 10]"))
		}
	}
	return errs
}

// validateNodeAffinityArgs is validation_pluginargs.go:242: the added
// affinity's selectors must compile (nodeaffinity.NewNodeSelector).
func validateNodeAffinityArgs(path string, a *NodeAffinityArgs) []fieldError {
	if a.AddedAffinity == nil {
		return nil
	}
	var errs []fieldError
	if ns := a.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
		for i, t := range ns.NodeSelectorTerms {
			errs = append(errs, validateNodeSelectorTerm(t, index(path+".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", i), false)...)
		}
	}
	for i, t := range a.AddedAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
		errs = append(errs, validateNodeSelectorTerm(t.Preference, index(path+".addedAffinity.preferredDuringSchedulingIgnoredDuringExecution", i)+".preference", false)...)
	}
	return errs
}

// InTreePluginNames lists the plugin names validation accepts (a test in
// lab checks it against the scheduler's registry).
func InTreePluginNames() []string { return append([]string(nil), inTreePluginNames...) }
