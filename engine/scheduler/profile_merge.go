package scheduler

import (
	"errors"
	"fmt"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// point is an extension point bit; pointInfo names it as the framework's
// plugin interface does in its error messages.
type point uint16

const (
	ptPreEnqueue point = 1 << iota
	ptQueueSort
	ptPreFilter
	ptFilter
	ptPostFilter
	ptPreScore
	ptScore
	ptReserve
	ptPermit
	ptPreBind
	ptBind
	ptPostBind
)

// framePoints are the extension points in frameworkImpl.getExtensionPoints
// order (pkg/scheduler/framework/runtime/framework.go:125), which is the
// order errors are found in; field is the v1 Plugins field.
var framePoints = []struct {
	bit   point
	field string
	iface string
}{
	{ptPreFilter, "preFilter", "PreFilterPlugin"},
	{ptFilter, "filter", "FilterPlugin"},
	{ptPostFilter, "postFilter", "PostFilterPlugin"},
	{ptReserve, "reserve", "ReservePlugin"},
	{ptPreScore, "preScore", "PreScorePlugin"},
	{ptScore, "score", "ScorePlugin"},
	{ptPreBind, "preBind", "PreBindPlugin"},
	{ptBind, "bind", "BindPlugin"},
	{ptPostBind, "postBind", "PostBindPlugin"},
	{ptPermit, "permit", "PermitPlugin"},
	{ptPreEnqueue, "preEnqueue", "PreEnqueuePlugin"},
	{ptQueueSort, "queueSort", "QueueSortPlugin"},
}

// Plugin names of the in-tree registry that the lab does not model
// (pkg/scheduler/framework/plugins/names/names.go).
const (
	SchedulingGatesName      = "SchedulingGates"
	PrioritySortName         = "PrioritySort"
	VolumeRestrictionsName   = "VolumeRestrictions"
	NodeVolumeLimitsName     = "NodeVolumeLimits"
	VolumeZoneName           = "VolumeZone"
	DefaultPreemptionName    = "DefaultPreemption"
	DefaultBinderName        = "DefaultBinder"
	NodeDeclaredFeaturesName = "NodeDeclaredFeatures"
	GangSchedulingName       = "GangScheduling"
)

// registry maps every in-tree plugin to the extension points it
// implements (the fwk.*Plugin assertions of each plugin package, v1.36).
// Plugins the lab models run at those points; the others pass every node
// and, for score plugins, score 0.
var registry = map[string]point{
	SchedulingGatesName:               ptPreEnqueue,
	PrioritySortName:                  ptQueueSort,
	"NodeUnschedulable":               ptFilter,
	"NodeName":                        ptFilter,
	"TaintToleration":                 ptFilter | ptPreScore | ptScore,
	"NodeAffinity":                    ptPreFilter | ptFilter | ptPreScore | ptScore,
	"NodePorts":                       ptPreFilter | ptFilter,
	"NodeResourcesFit":                ptPreFilter | ptFilter | ptPreScore | ptScore,
	VolumeRestrictionsName:            ptPreFilter | ptFilter,
	NodeVolumeLimitsName:              ptPreFilter | ptFilter,
	VolumeBindingName:                 ptPreFilter | ptFilter | ptReserve | ptPreBind | ptPreScore | ptScore,
	VolumeZoneName:                    ptPreFilter | ptFilter,
	"PodTopologySpread":               ptPreFilter | ptFilter | ptPreScore | ptScore,
	"InterPodAffinity":                ptPreFilter | ptFilter | ptPreScore | ptScore,
	DynamicResourcesName:              ptPreEnqueue | ptPreFilter | ptFilter | ptPostFilter | ptReserve | ptPreBind | ptScore,
	DefaultPreemptionName:             ptPreEnqueue | ptPostFilter,
	"NodeResourcesBalancedAllocation": ptPreScore | ptScore,
	"ImageLocality":                   ptScore,
	DefaultBinderName:                 ptBind,
	NodeDeclaredFeaturesName:          ptPreFilter | ptFilter,
	GangSchedulingName:                ptPreEnqueue | ptPermit,
	"TopologyPlacementGenerator":      0,
	"PodGroupPodsCount":               0,
}

// RegisteredPlugins lists the in-tree plugin names (for completion and
// messages), in the default profile's order, then the ones not in it.
func RegisteredPlugins() []string {
	out := make([]string, 0, len(registry))
	seen := map[string]bool{}
	for _, p := range defaultMultiPoint() {
		out = append(out, p.Name)
		seen[p.Name] = true
	}
	for _, n := range []string{GangSchedulingName, "TopologyPlacementGenerator", "PodGroupPodsCount"} {
		if !seen[n] {
			out = append(out, n)
		}
	}
	return out
}

// IsScorePlugin reports whether the in-tree plugin name has a Score point.
func IsScorePlugin(name string) bool { return registry[name]&ptScore != 0 }

// defaultMultiPoint is getDefaultPlugins' MultiPoint list with the v1.36
// default feature gates applied (pkg/scheduler/apis/config/v1/
// default_plugins.go:30: NodeDeclaredFeatures appended, DynamicResources
// inserted before DefaultPreemption).
func defaultMultiPoint() []PluginRef {
	return []PluginRef{
		{Name: SchedulingGatesName},
		{Name: PrioritySortName},
		{Name: "NodeUnschedulable"},
		{Name: "NodeName"},
		{Name: "TaintToleration", Weight: 3},
		{Name: "NodeAffinity", Weight: 2},
		{Name: "NodePorts"},
		{Name: "NodeResourcesFit", Weight: 1},
		{Name: VolumeRestrictionsName},
		{Name: NodeVolumeLimitsName},
		{Name: VolumeBindingName},
		{Name: VolumeZoneName},
		{Name: "PodTopologySpread", Weight: 2},
		{Name: "InterPodAffinity", Weight: 2},
		{Name: DynamicResourcesName, Weight: 2},
		{Name: DefaultPreemptionName},
		{Name: "NodeResourcesBalancedAllocation", Weight: 1},
		{Name: "ImageLocality", Weight: 1},
		{Name: DefaultBinderName},
		{Name: NodeDeclaredFeaturesName},
	}
}

// mergePlugins is v1 default_plugins.go mergePlugins: each extension
// point's custom set merged into the default one (only MultiPoint has
// defaults).
func mergePlugins(custom *Plugins) *Plugins {
	merged := &Plugins{MultiPoint: PluginSet{Enabled: defaultMultiPoint()}}
	if custom == nil {
		return merged
	}
	for _, name := range ExtensionPoints {
		*merged.Set(name) = mergePluginSet(*merged.Set(name), *custom.Set(name))
	}
	return merged
}

// mergePluginSet is default_plugins.go mergePluginSet: disabled plugins
// (all with "*") drop out of the defaults, a custom entry naming a
// default plugin replaces it in place (keeping the default order), the
// other custom entries are appended in their order.
func mergePluginSet(def, custom PluginSet) PluginSet {
	disabled := map[string]bool{}
	var outDisabled []string
	for _, d := range custom.Disabled {
		outDisabled = append(outDisabled, d)
		disabled[d] = true
	}
	for _, d := range def.Disabled {
		outDisabled = append(outDisabled, d)
		disabled[d] = true
	}
	customIndex := map[string]int{}
	for i, p := range custom.Enabled {
		customIndex[p.Name] = i
	}
	replaced := map[int]bool{}
	var enabled []PluginRef
	if !disabled["*"] {
		for _, p := range def.Enabled {
			if disabled[p.Name] {
				continue
			}
			if i, ok := customIndex[p.Name]; ok {
				p = custom.Enabled[i]
				replaced[i] = true
			}
			enabled = append(enabled, p)
		}
	}
	for i, p := range custom.Enabled {
		if !replaced[i] {
			enabled = append(enabled, p)
		}
	}
	return PluginSet{Enabled: enabled, Disabled: outDisabled}
}

// expandedProfile is a profile's plugins per extension point after the
// framework's construction: names in run order and the score weights.
type expandedProfile struct {
	points  map[point][]string
	weights map[string]int64
}

// MaxTotalScore bounds the sum of weight × MaxNodeScore
// (fwk.MaxTotalScore = math.MaxInt64).
const maxTotalScore = int64(^uint64(0) >> 1)

// expandProfile builds the per-point plugin lists of a merged profile as
// NewFramework does: updatePluginList for each point's own set
// (framework.go:767), then expandMultiPointPlugins (framework.go:638), then
// getValidScoreWeights (framework.go:577). Errors carry upstream's text.
func expandProfile(merged *Plugins, schedulerName string) (*expandedProfile, error) {
	ep := &expandedProfile{points: map[point][]string{}}
	for _, fp := range framePoints {
		set := merged.Set(fp.field)
		var list []string
		seen := map[string]bool{}
		for _, p := range set.Enabled {
			impl, ok := registry[p.Name]
			if !ok {
				return nil, fmt.Errorf("%s %q does not exist", fp.iface, p.Name)
			}
			if impl&fp.bit == 0 {
				return nil, fmt.Errorf("plugin %q does not extend %s plugin", p.Name, fp.iface)
			}
			if seen[p.Name] {
				return nil, fmt.Errorf("plugin %q already registered as %q", p.Name, fp.iface)
			}
			seen[p.Name] = true
			list = append(list, p.Name)
		}
		ep.points[fp.bit] = list
	}
	if len(merged.MultiPoint.Enabled) > 0 {
		for _, fp := range framePoints {
			if err := ep.expandMultiPoint(merged, fp.bit, fp.field, fp.iface); err != nil {
				return nil, err
			}
		}
	}
	if n := len(ep.points[ptQueueSort]); n != 1 {
		return nil, fmt.Errorf("only one queue sort plugin required for profile with scheduler name %q, but got %d", schedulerName, n)
	}
	if len(ep.points[ptBind]) == 0 {
		return nil, fmt.Errorf("at least one bind plugin is needed for profile with scheduler name %q", schedulerName)
	}
	weights := map[string]int64{}
	var total int64
	for _, p := range append(append([]PluginRef(nil), merged.Score.Enabled...), merged.MultiPoint.Enabled...) {
		if registry[p.Name]&ptScore == 0 {
			continue
		}
		if _, ok := weights[p.Name]; ok {
			continue
		}
		w := int64(p.Weight)
		if w == 0 {
			w = 1
		}
		if w*framework.MaxNodeScore > maxTotalScore-total {
			return nil, errors.New("score plugins: total score of Score plugins could overflow")
		}
		weights[p.Name] = w
		total += w * framework.MaxNodeScore
	}
	ep.weights = map[string]int64{}
	for _, name := range ep.points[ptScore] {
		ep.weights[name] = weights[name]
	}
	return ep, nil
}

// expandMultiPoint is expandMultiPointPlugins for one extension point:
// plugins enabled at the point itself and also in MultiPoint keep the
// point's order first (overrides), then the MultiPoint ones, then the rest
// of the point's own.
func (ep *expandedProfile) expandMultiPoint(merged *Plugins, bit point, field, iface string) error {
	set := merged.Set(field)
	disabled := map[string]bool{}
	for _, d := range set.Disabled {
		disabled[d] = true
	}
	if disabled["*"] {
		return nil
	}
	own := ep.points[bit]
	ownSet := map[string]bool{}
	for _, n := range own {
		ownSet[n] = true
	}
	overrides := map[string]bool{}
	var multi []string
	multiSet := map[string]bool{}
	for _, p := range merged.MultiPoint.Enabled {
		impl, ok := registry[p.Name]
		if !ok {
			return fmt.Errorf("%s %q does not exist", iface, p.Name)
		}
		if impl&bit == 0 || disabled[p.Name] {
			continue
		}
		if ownSet[p.Name] {
			overrides[p.Name] = true
			continue
		}
		if multiSet[p.Name] {
			return fmt.Errorf("plugin %q already registered as %q", p.Name, iface)
		}
		multiSet[p.Name] = true
		multi = append(multi, p.Name)
	}
	out := make([]string, 0, len(own)+len(multi))
	for _, n := range own {
		if overrides[n] {
			out = append(out, n)
		}
	}
	out = append(out, multi...)
	for _, n := range own {
		if !overrides[n] {
			out = append(out, n)
		}
	}
	ep.points[bit] = out
	return nil
}

// DefaultProfilePlugins lists the default profile's plugins (MultiPoint).
func DefaultProfilePlugins() []string {
	var out []string
	for _, p := range defaultMultiPoint() {
		out = append(out, p.Name)
	}
	return out
}
