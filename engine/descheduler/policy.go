package descheduler

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"podlab.dev/podlab/engine/api"
)

// Plugin names (pkg/framework/plugins/*/…go PluginName).
const (
	DefaultEvictorName       = "DefaultEvictor"
	TopologySpreadName       = "RemovePodsViolatingTopologySpreadConstraint"
	DuplicatesName           = "RemoveDuplicates"
	LowNodeUtilizationName   = "LowNodeUtilization"
	HighNodeUtilizationName  = "HighNodeUtilization"
	NodeTaintsName           = "RemovePodsViolatingNodeTaints"
	NodeAffinityName         = "RemovePodsViolatingNodeAffinity"
	InterPodAntiAffinityName = "RemovePodsViolatingInterPodAntiAffinity"
	TooManyRestartsName      = "RemovePodsHavingTooManyRestarts"
	PodLifeTimeName          = "PodLifeTime"
	FailedPodsName           = "RemoveFailedPods"
)

// BalancePlugins and DeschedulePlugins are the plugins each extension
// point accepts (their register.go: which interface each implements).
var (
	BalancePlugins    = []string{DuplicatesName, TopologySpreadName, LowNodeUtilizationName, HighNodeUtilizationName}
	DeschedulePlugins = []string{NodeTaintsName, NodeAffinityName, InterPodAntiAffinityName, TooManyRestartsName, PodLifeTimeName, FailedPodsName}
)

// Policy is descheduler/v1alpha2 DeschedulerPolicy (pkg/api/v1alpha2/types.go).
type Policy struct {
	Profiles []Profile
	// NodeSelector limits the nodes a pass works on (a label selector in
	// its string form, as the --node-selector flag / policy field).
	NodeSelector *api.Selector
	// Eviction limits over a whole pass (nil ⇒ unlimited).
	MaxNoOfPodsToEvictPerNode      *uint
	MaxNoOfPodsToEvictPerNamespace *uint
	MaxNoOfPodsToEvictTotal        *uint
	// EvictionFailureEventNotification records an EvictionFailed event
	// when an eviction is refused.
	EvictionFailureEventNotification bool
	// GracePeriodSeconds overrides the pods' grace period (nil ⇒ theirs).
	GracePeriodSeconds *int64
}

// Profile is one DeschedulerProfile: its plugins per extension point and
// their args (pluginConfig). A plugin enabled without pluginConfig uses
// its defaults (Defaults*).
type Profile struct {
	Name       string
	Deschedule []string
	Balance    []string
	Evictor    EvictorArgs
	Args       PluginArgs
}

// PluginArgs holds each plugin's args (pluginConfig[].args).
type PluginArgs struct {
	TopologySpread       TopologySpreadArgs
	Duplicates           DuplicatesArgs
	LowNodeUtilization   LowNodeUtilizationArgs
	HighNodeUtilization  HighNodeUtilizationArgs
	NodeTaints           NodeTaintsArgs
	NodeAffinity         NodeAffinityArgs
	InterPodAntiAffinity InterPodAntiAffinityArgs
	TooManyRestarts      TooManyRestartsArgs
	PodLifeTime          PodLifeTimeArgs
	FailedPods           FailedPodsArgs
}

// Namespaces is api.Namespaces: include or exclude (not both).
type Namespaces struct {
	Include []string
	Exclude []string
}

// allows reports whether a namespace passes the include/exclude lists
// (podutil.Options WithNamespaces / WithoutNamespaces).
func (n *Namespaces) allows(ns string) bool {
	if n == nil {
		return true
	}
	if len(n.Include) > 0 {
		return slices.Contains(n.Include, ns)
	}
	return !slices.Contains(n.Exclude, ns)
}

// PriorityThreshold is api.PriorityThreshold: a value or a class name.
type PriorityThreshold struct {
	Value *int32
	Name  string
}

// EvictorArgs is DefaultEvictorArgs (defaultevictor/types.go). The
// deprecated booleans are the fields podlab documents (they map onto
// podProtections exactly as legacyGetPodProtections does).
type EvictorArgs struct {
	NodeSelector            *api.Selector
	LabelSelector           *api.Selector
	PriorityThreshold       *PriorityThreshold
	NodeFit                 bool
	MinReplicas             uint
	MinPodAge               *time.Duration
	NoEvictionPolicy        string // "", "Preferred" or "Mandatory"
	EvictLocalStoragePods   bool
	EvictDaemonSetPods      bool
	EvictSystemCriticalPods bool
	IgnorePvcPods           bool
	IgnorePodsWithoutPDB    bool
	EvictFailedBarePods     bool
	// PodProtections (defaultDisabled / extraEnabled) override the
	// booleans when either list is non-empty.
	DefaultDisabled []string
	ExtraEnabled    []string
}

// TopologySpreadArgs is RemovePodsViolatingTopologySpreadConstraintArgs.
type TopologySpreadArgs struct {
	Namespaces    *Namespaces
	LabelSelector *api.Selector
	// Constraints lists the whenUnsatisfiable values to balance; default
	// [DoNotSchedule] (defaults.go).
	Constraints []string
	// TopologyBalanceNodeFit (default true) skips pods that fit no node
	// of a domain below the ideal average.
	TopologyBalanceNodeFit *bool
}

// DuplicatesArgs is RemoveDuplicatesArgs.
type DuplicatesArgs struct {
	Namespaces        *Namespaces
	ExcludeOwnerKinds []string
}

// Thresholds are resource percentages (api.ResourceThresholds): cpu,
// memory, pods and extended resources.
type Thresholds map[string]float64

// LowNodeUtilizationArgs is LowNodeUtilizationArgs (nodeutilization/types.go).
type LowNodeUtilizationArgs struct {
	UseDeviationThresholds bool
	Thresholds             Thresholds
	TargetThresholds       Thresholds
	NumberOfNodes          int
	EvictableNamespaces    *Namespaces
	// EvictionLimitsNode is evictionLimits.node: evictions per node per pass.
	EvictionLimitsNode *uint
}

// HighNodeUtilizationArgs is HighNodeUtilizationArgs.
type HighNodeUtilizationArgs struct {
	Thresholds          Thresholds
	NumberOfNodes       int
	EvictableNamespaces *Namespaces
}

// NodeTaintsArgs is RemovePodsViolatingNodeTaintsArgs.
type NodeTaintsArgs struct {
	Namespaces              *Namespaces
	LabelSelector           *api.Selector
	IncludePreferNoSchedule bool
	ExcludedTaints          []string // "key" or "key=value"
	IncludedTaints          []string
}

// NodeAffinityArgs is RemovePodsViolatingNodeAffinityArgs.
type NodeAffinityArgs struct {
	Namespaces       *Namespaces
	LabelSelector    *api.Selector
	NodeAffinityType []string // requiredDuringSchedulingIgnoredDuringExecution, preferredDuringSchedulingIgnoredDuringExecution
}

// InterPodAntiAffinityArgs is RemovePodsViolatingInterPodAntiAffinityArgs.
type InterPodAntiAffinityArgs struct {
	Namespaces    *Namespaces
	LabelSelector *api.Selector
}

// TooManyRestartsArgs is RemovePodsHavingTooManyRestartsArgs.
type TooManyRestartsArgs struct {
	Namespaces              *Namespaces
	LabelSelector           *api.Selector
	PodRestartThreshold     int32
	IncludingInitContainers bool
	States                  []string
}

// PodLifeTimeArgs is PodLifeTimeArgs.
type PodLifeTimeArgs struct {
	Namespaces            *Namespaces
	LabelSelector         *api.Selector
	MaxPodLifeTimeSeconds *uint
	States                []string
	// IncludingInitContainers matches states and exitCodes against init
	// containers too.
	IncludingInitContainers bool
	// OwnerKinds keeps pods with an owner of an included kind, or drops
	// those with one of an excluded kind (Include wins when both are set).
	OwnerKinds *OwnerKinds
	// Conditions keeps pods with a condition matching any filter.
	Conditions []PodConditionFilter
	// ExitCodes keeps pods with a terminated container exiting with one.
	ExitCodes []int32
}

// OwnerKinds is podlifetime.OwnerKinds.
type OwnerKinds struct {
	Include []string
	Exclude []string
}

// PodConditionFilter is podlifetime.PodConditionFilter: unset fields are
// not checked.
type PodConditionFilter struct {
	Type, Status, Reason              string
	MinTimeSinceLastTransitionSeconds *uint
}

// FailedPodsArgs is RemoveFailedPodsArgs.
type FailedPodsArgs struct {
	Namespaces              *Namespaces
	LabelSelector           *api.Selector
	ExcludeOwnerKinds       []string
	MinPodLifetimeSeconds   *uint
	Reasons                 []string
	ExitCodes               []int32
	IncludingInitContainers bool
}

// Validate checks the policy as upstream's validateDeschedulerConfiguration
// and the plugins' validation.go do, returning every problem with the
// path of the field at fault.
func (p *Policy) Validate() []FieldError {
	var errs []FieldError
	names := map[string]bool{}
	for i := range p.Profiles {
		pr := &p.Profiles[i]
		at := fmt.Sprintf("profiles[%d]", i)
		if pr.Name == "" {
			errs = append(errs, FieldError{at + ".name", "a profile needs a name"})
		} else if names[pr.Name] {
			errs = append(errs, FieldError{at + ".name", fmt.Sprintf("profile %q is defined twice", pr.Name)})
		}
		names[pr.Name] = true
		for j, n := range pr.Deschedule {
			if !slices.Contains(DeschedulePlugins, n) {
				errs = append(errs, FieldError{fmt.Sprintf("%s.plugins.deschedule.enabled[%d]", at, j), fmt.Sprintf("%q is not a deschedule plugin (they are %v)", n, DeschedulePlugins)})
			}
		}
		for j, n := range pr.Balance {
			if !slices.Contains(BalancePlugins, n) {
				errs = append(errs, FieldError{fmt.Sprintf("%s.plugins.balance.enabled[%d]", at, j), fmt.Sprintf("%q is not a balance plugin (they are %v)", n, BalancePlugins)})
			}
		}
		errs = append(errs, pr.Args.validate(at+".pluginConfig")...)
		errs = append(errs, pr.Args.PodLifeTime.validate(at+".pluginConfig", slices.Contains(pr.Deschedule, PodLifeTimeName))...)
		errs = append(errs, pr.Args.enabledValidate(at+".pluginConfig", pr.Deschedule)...)
		for _, msg := range pr.Evictor.validate() {
			errs = append(errs, FieldError{at + ".pluginConfig." + DefaultEvictorName, msg})
		}
		errs = append(errs, pr.Args.LowNodeUtilization.validate(at+".pluginConfig."+LowNodeUtilizationName, slices.Contains(pr.Balance, LowNodeUtilizationName))...)
		errs = append(errs, pr.Args.HighNodeUtilization.validate(at+".pluginConfig."+HighNodeUtilizationName, slices.Contains(pr.Balance, HighNodeUtilizationName))...)
	}
	return errs
}

// FieldError is a validation error at a field path.
type FieldError struct {
	Path    string
	Message string
}

func (e FieldError) Error() string { return e.Path + ": " + e.Message }

func (a *PluginArgs) validate(at string) []FieldError {
	var errs []FieldError
	ns := func(name string, n *Namespaces) {
		if n != nil && len(n.Include) > 0 && len(n.Exclude) > 0 {
			errs = append(errs, FieldError{at + "." + name + ".namespaces", "only one of Include/Exclude namespaces can be set"})
		}
	}
	ns(TopologySpreadName, a.TopologySpread.Namespaces)
	ns(DuplicatesName, a.Duplicates.Namespaces)
	ns(NodeTaintsName, a.NodeTaints.Namespaces)
	ns(NodeAffinityName, a.NodeAffinity.Namespaces)
	ns(InterPodAntiAffinityName, a.InterPodAntiAffinity.Namespaces)
	ns(TooManyRestartsName, a.TooManyRestarts.Namespaces)
	ns(PodLifeTimeName, a.PodLifeTime.Namespaces)
	ns(FailedPodsName, a.FailedPods.Namespaces)
	for _, c := range a.TopologySpread.Constraints {
		if c != api.DoNotSchedule && c != api.ScheduleAnyway {
			errs = append(errs, FieldError{at + "." + TopologySpreadName + ".constraints", fmt.Sprintf("constraint %q is not one of %v", c, []string{api.DoNotSchedule, api.ScheduleAnyway})})
		}
	}
	if len(a.NodeTaints.IncludedTaints) > 0 && len(a.NodeTaints.ExcludedTaints) > 0 {
		errs = append(errs, FieldError{at + "." + NodeTaintsName, "either includedTaints or excludedTaints can be set, but not both"})
	}
	for _, t := range a.NodeAffinity.NodeAffinityType {
		if t != requiredAffinity && t != preferredAffinity {
			errs = append(errs, FieldError{at + "." + NodeAffinityName + ".nodeAffinityType", fmt.Sprintf("nodeAffinityType %q is not supported", t)})
		}
	}
	return errs
}

// enabledValidate holds the checks upstream's validation.go makes on
// arguments whose zero value is invalid; podlab cannot tell zero from
// unset, so they apply only to enabled plugins.
func (a *PluginArgs) enabledValidate(at string, deschedule []string) []FieldError {
	var errs []FieldError
	if slices.Contains(deschedule, TooManyRestartsName) {
		// removepodshavingtoomanyrestarts/validation.go
		if a.TooManyRestarts.PodRestartThreshold < 1 {
			errs = append(errs, FieldError{at + "." + TooManyRestartsName + ".podRestartThreshold", "invalid PodsHavingTooManyRestarts threshold"})
		}
		for _, s := range a.TooManyRestarts.States {
			if s != api.PodRunning && s != "CrashLoopBackOff" {
				errs = append(errs, FieldError{at + "." + TooManyRestartsName + ".states", "states must be one of [CrashLoopBackOff Running]"})
				break
			}
		}
	}
	if slices.Contains(deschedule, NodeAffinityName) && len(a.NodeAffinity.NodeAffinityType) == 0 {
		// removepodsviolatingnodeaffinity/validation.go
		errs = append(errs, FieldError{at + "." + NodeAffinityName + ".nodeAffinityType", "nodeAffinityType needs to be set"})
	}
	return errs
}

// validate is ValidatePodLifeTimeArgs (podlifetime/validation.go): known
// states, not both include and exclude owner kinds, no empty condition
// filter, and, when the plugin is enabled, at least one criterion.
func (a *PodLifeTimeArgs) validate(at string, enabled bool) []FieldError {
	var errs []FieldError
	at += "." + PodLifeTimeName
	for _, s := range a.States {
		if !slices.Contains(podLifeTimeStates, s) {
			errs = append(errs, FieldError{at + ".states", fmt.Sprintf("states must be one of %v", podLifeTimeStates)})
			break
		}
	}
	if k := a.OwnerKinds; k != nil && len(k.Include) > 0 && len(k.Exclude) > 0 {
		errs = append(errs, FieldError{at + ".ownerKinds", "only one of Include/Exclude ownerKinds can be set"})
	}
	for i, c := range a.Conditions {
		if c.Type == "" && c.Status == "" && c.Reason == "" && c.MinTimeSinceLastTransitionSeconds == nil {
			errs = append(errs, FieldError{fmt.Sprintf("%s.conditions[%d]", at, i), "at least one of type, status, reason, or minTimeSinceLastTransitionSeconds must be set"})
		}
	}
	if enabled && a.MaxPodLifeTimeSeconds == nil && len(a.States) == 0 && len(a.Conditions) == 0 && len(a.ExitCodes) == 0 {
		errs = append(errs, FieldError{at, "at least one filtering criterion must be specified (maxPodLifeTimeSeconds, states, conditions, or exitCodes)"})
	}
	return errs
}

// validate is ValidateLowNodeUtilizationArgs (nodeutilization/
// validation.go): only excluded evictable namespaces, valid thresholds
// and targets naming the same resources, each threshold at most its
// target unless useDeviationThresholds. The first problem is reported,
// as upstream. Unset thresholds are an error only when the plugin is
// enabled (podlab cannot tell unset from empty).
func (a *LowNodeUtilizationArgs) validate(at string, enabled bool) []FieldError {
	if !enabled && a.Thresholds == nil && a.TargetThresholds == nil && a.EvictableNamespaces == nil {
		return nil
	}
	fail := func(path, msg string) []FieldError { return []FieldError{{path, msg}} }
	if n := a.EvictableNamespaces; n != nil && len(n.Include) > 0 {
		return fail(at+".evictableNamespaces", "only Exclude namespaces can be set, inclusion is not supported")
	}
	if msg := thresholdsProblem(a.Thresholds); msg != "" {
		return fail(at+".thresholds", "thresholds config is not valid: "+msg)
	}
	if msg := thresholdsProblem(a.TargetThresholds); msg != "" {
		return fail(at+".targetThresholds", "targetThresholds config is not valid: "+msg)
	}
	if len(a.Thresholds) != len(a.TargetThresholds) {
		return fail(at, "thresholds and targetThresholds configured different resources")
	}
	for _, name := range sortedKeys(a.Thresholds) {
		t, ok := a.TargetThresholds[name]
		if !ok {
			return fail(at, "thresholds and targetThresholds configured different resources")
		}
		if a.Thresholds[name] > t && !a.UseDeviationThresholds {
			return fail(at+".thresholds."+name, fmt.Sprintf("thresholds' %v percentage is greater than targetThresholds'", name))
		}
	}
	return nil
}

// validate is ValidateHighNodeUtilizationArgs (evictionModes aside).
func (a *HighNodeUtilizationArgs) validate(at string, enabled bool) []FieldError {
	if !enabled && a.Thresholds == nil && a.EvictableNamespaces == nil {
		return nil
	}
	if n := a.EvictableNamespaces; n != nil && len(n.Include) > 0 {
		return []FieldError{{at + ".evictableNamespaces", "only Exclude namespaces can be set, inclusion is not supported"}}
	}
	if msg := thresholdsProblem(a.Thresholds); msg != "" {
		return []FieldError{{at + ".thresholds", msg}}
	}
	return nil
}

// thresholdsProblem is validateThresholds: some resource, each within
// [0, 100] (checked in name order, for a deterministic message).
func thresholdsProblem(t Thresholds) string {
	if len(t) == 0 {
		return "no resource threshold is configured"
	}
	for _, name := range sortedKeys(t) {
		if v := t[name]; v < 0 || v > 100 {
			return fmt.Sprintf("%v threshold not in [0, 100] range", name)
		}
	}
	return ""
}

func sortedKeys(t Thresholds) []string {
	names := make([]string, 0, len(t))
	for k := range t {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
