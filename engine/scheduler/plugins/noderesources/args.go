package noderesources

import (
	"strings"

	"podlab.dev/podlab/engine/api"
)

// Scoring strategies of NodeResourcesFitArgs.scoringStrategy.type
// (pkg/scheduler/apis/config/types_pluginargs.go).
const (
	LeastAllocated           = "LeastAllocated"
	MostAllocated            = "MostAllocated"
	RequestedToCapacityRatio = "RequestedToCapacityRatio"
)

// MaxCustomPriorityScore is the top of a RequestedToCapacityRatio shape's
// score scale (config.MaxCustomPriorityScore); shape scores are
// multiplied by MaxNodeScore / MaxCustomPriorityScore.
const MaxCustomPriorityScore = 10

// ResourceSpec is a resource a scorer looks at, with its weight.
type ResourceSpec struct {
	Name   string
	Weight int64
}

// ShapePoint is one point of RequestedToCapacityRatio's broken-linear
// function: utilization 0..100 → score 0..10.
type ShapePoint struct {
	Utilization int32
	Score       int32
}

// ScoringStrategy is NodeResourcesFitArgs.scoringStrategy after defaulting.
type ScoringStrategy struct {
	Type      string
	Resources []ResourceSpec
	// Shape is requestedToCapacityRatio.shape (RequestedToCapacityRatio only).
	Shape []ShapePoint
}

// FitArgs are NodeResourcesFitArgs after defaulting (defaults.go
// SetDefaults_NodeResourcesFitArgs: LeastAllocated over cpu and memory,
// weight 1 each; a resource weight of 0 becomes 1).
type FitArgs struct {
	IgnoredResources      []string
	IgnoredResourceGroups []string
	ScoringStrategy       ScoringStrategy
}

// DefaultResources are defaults.go defaultResourceSpec.
func DefaultResources() []ResourceSpec {
	return []ResourceSpec{{Name: api.ResourceCPU, Weight: 1}, {Name: api.ResourceMemory, Weight: 1}}
}

// DefaultFitArgs are the defaulted NodeResourcesFitArgs.
func DefaultFitArgs() FitArgs {
	return FitArgs{ScoringStrategy: ScoringStrategy{Type: LeastAllocated, Resources: DefaultResources()}}
}

// BalancedAllocationArgs are NodeResourcesBalancedAllocationArgs after
// defaulting (cpu and memory; every weight must be 1).
type BalancedAllocationArgs struct {
	Resources []ResourceSpec
}

// isDefaultResources reports whether rs is exactly cpu and memory with
// weight 1, the case the allocation index's fast paths compute.
func isDefaultResources(rs []ResourceSpec) bool {
	return len(rs) == 2 && rs[0] == ResourceSpec{Name: api.ResourceCPU, Weight: 1} &&
		rs[1] == ResourceSpec{Name: api.ResourceMemory, Weight: 1}
}

// isDefault reports whether the args are the defaults (the fast paths).
func (a *FitArgs) isDefault() bool {
	return len(a.IgnoredResources) == 0 && len(a.IgnoredResourceGroups) == 0 &&
		a.ScoringStrategy.Type == LeastAllocated && isDefaultResources(a.ScoringStrategy.Resources)
}

// isExtendedResourceName is v1helper.IsExtendedResourceName for the names
// a pod can request: a domain-prefixed name outside kubernetes.io (and
// not a quota "requests." name).
func isExtendedResourceName(name string) bool {
	if !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/") {
		return false
	}
	return !strings.HasPrefix(name, "requests.")
}

// isScalarResourceName is schedutil.IsScalarResourceName: extended
// resources, hugepages, prefixed native resources and attachable volumes.
func isScalarResourceName(name string) bool {
	return isExtendedResourceName(name) || strings.HasPrefix(name, "hugepages-") ||
		strings.Contains(name, "kubernetes.io/") || strings.HasPrefix(name, "attachable-volumes-")
}

// ignored reports whether Filter skips the extended resource name (fit.go
// fitsRequest: ignoredResources by name, ignoredResourceGroups by the
// part before the slash).
func (a *FitArgs) ignored(name string) bool {
	if !isExtendedResourceName(name) {
		return false
	}
	for _, r := range a.IgnoredResources {
		if r == name {
			return true
		}
	}
	if len(a.IgnoredResourceGroups) > 0 {
		prefix, _, _ := strings.Cut(name, "/")
		for _, g := range a.IgnoredResourceGroups {
			if g == prefix {
				return true
			}
		}
	}
	return false
}
