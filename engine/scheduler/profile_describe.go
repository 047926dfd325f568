package scheduler

import (
	"fmt"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
)

// describeProfile lists, in a fixed order, what a profile does differently
// from the default profile: score weights, modelled plugins switched off
// at PreEnqueue, Filter, Score or PostFilter, and plugin args that are not the defaults. The
// explain views print it under the profile's name; empty for the default.
func describeProfile(p *profile, ep *expandedProfile, args PluginArgs) []string {
	var out []string
	for _, name := range defaultScoreOrder {
		if w, ok := p.weights[name]; ok && w != DefaultWeights[name] {
			out = append(out, fmt.Sprintf("weight %s %d (default %d)", name, w, DefaultWeights[name]))
		}
	}
	var extra []string
	for name, w := range p.weights {
		if _, ok := DefaultWeights[name]; !ok {
			extra = append(extra, fmt.Sprintf("weight %s %d", name, w))
		}
	}
	sort.Strings(extra)
	out = append(out, extra...)
	for _, pt := range []struct {
		bit  point
		what string
	}{{ptPreEnqueue, "preEnqueue"}, {ptFilter, "filter"}, {ptScore, "score"}, {ptPostFilter, "postFilter"}} {
		on := map[string]bool{}
		for _, n := range ep.points[pt.bit] {
			on[n] = true
		}
		var off []string
		for _, d := range defaultMultiPoint() {
			if registry[d.Name]&pt.bit != 0 && !on[d.Name] && modelledAt(d.Name, pt.bit) {
				off = append(off, d.Name)
			}
		}
		if len(off) > 0 {
			out = append(out, fmt.Sprintf("%s disabled: %s", pt.what, strings.Join(off, ", ")))
		}
	}
	if a := args.NodeResourcesFit; a != nil {
		def := noderesources.DefaultFitArgs()
		s := a.ScoringStrategy
		if s.Type != def.ScoringStrategy.Type || !sameResources(s.Resources, def.ScoringStrategy.Resources) || len(s.Shape) > 0 {
			d := "NodeResourcesFit scoringStrategy " + s.Type + " (" + resourceList(s.Resources) + ")"
			if len(s.Shape) > 0 {
				var pts []string
				for _, pt := range s.Shape {
					pts = append(pts, fmt.Sprintf("%d%%→%d", pt.Utilization, pt.Score))
				}
				d += " shape " + strings.Join(pts, ", ")
			}
			out = append(out, d)
		}
		if len(a.IgnoredResources) > 0 {
			out = append(out, "NodeResourcesFit ignoredResources "+strings.Join(a.IgnoredResources, ", "))
		}
		if len(a.IgnoredResourceGroups) > 0 {
			out = append(out, "NodeResourcesFit ignoredResourceGroups "+strings.Join(a.IgnoredResourceGroups, ", "))
		}
	}
	if a := args.NodeResourcesBalancedAllocation; a != nil && !sameResources(a.Resources, noderesources.DefaultResources()) {
		out = append(out, "NodeResourcesBalancedAllocation resources "+resourceList(a.Resources))
	}
	if a := args.InterPodAffinity; a != nil && *a != interpodaffinity.DefaultArgs() {
		out = append(out, fmt.Sprintf("InterPodAffinity hardPodAffinityWeight %d, ignorePreferredTermsOfExistingPods %t", a.HardPodAffinityWeight, a.IgnorePreferredTermsOfExistingPods))
	}
	if a := args.PodTopologySpread; a != nil && a.DefaultingType == "List" {
		var cs []string
		for _, c := range a.DefaultConstraints {
			cs = append(cs, fmt.Sprintf("%s maxSkew %d %s", c.TopologyKey, c.MaxSkew, c.WhenUnsatisfiable))
		}
		if len(cs) == 0 {
			cs = []string{"none"}
		}
		out = append(out, "PodTopologySpread defaultConstraints (List): "+strings.Join(cs, "; "))
	}
	if a := args.NodeAffinity; a != nil && a.AddedAffinity != nil {
		var parts []string
		if ns := a.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
			parts = append(parts, fmt.Sprintf("%d required term(s)", len(ns.NodeSelectorTerms)))
		}
		if n := len(a.AddedAffinity.PreferredDuringSchedulingIgnoredDuringExecution); n > 0 {
			parts = append(parts, fmt.Sprintf("%d preferred term(s)", n))
		}
		out = append(out, "NodeAffinity addedAffinity: "+strings.Join(parts, ", "))
	}
	if a := args.DefaultPreemption; a != nil && (a.MinCandidateNodesPercentage != 10 || a.MinCandidateNodesAbsolute != 100) {
		out = append(out, fmt.Sprintf("DefaultPreemption minCandidateNodesPercentage %d, minCandidateNodesAbsolute %d", a.MinCandidateNodesPercentage, a.MinCandidateNodesAbsolute))
	}
	return out
}

// modelledAt reports whether the lab runs the plugin at the extension
// point (the others pass every node and score 0, so switching them off
// changes nothing to show). At PreEnqueue only SchedulingGates is
// modelled: DefaultPreemption's and DynamicResources' PreEnqueue pass a
// pod without pending preemption or resource claims.
func modelledAt(name string, at point) bool {
	if at == ptPreEnqueue {
		return name == SchedulingGatesName
	}
	switch name {
	case VolumeRestrictionsName, NodeVolumeLimitsName, VolumeBindingName, VolumeZoneName, DynamicResourcesName,
		NodeDeclaredFeaturesName, SchedulingGatesName, PrioritySortName, DefaultBinderName:
		return false
	}
	return true
}

func sameResources(a, b []noderesources.ResourceSpec) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func resourceList(rs []noderesources.ResourceSpec) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s×%d", r.Name, r.Weight)
	}
	return strings.Join(parts, ", ")
}
