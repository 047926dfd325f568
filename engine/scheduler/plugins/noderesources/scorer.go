package noderesources

import (
	"math"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// resourceScorer is upstream's resourceAllocationScorer for a configured
// resource list (resource_allocation.go): the per-resource requested /
// allocated / allocatable vectors and a strategy over them. The default
// cpu+memory LeastAllocated and BalancedAllocation scorers keep their
// allocation-index fast paths; this one serves every other configuration.
// It has no function values, so the per-node vectors stay on the stack.
type resourceScorer struct {
	resources []ResourceSpec
	// kinds are the resources resolved once (kindCPU, …).
	kinds []resourceKind
	// useRequested: the node's plain requests (BalancedAllocation) rather
	// than the non-zero ones (Fit).
	useRequested bool
	strategy     scorerStrategy
	// shapeUtil / shapeScore are RequestedToCapacityRatio's points, scores
	// already scaled to 0..100.
	shapeUtil, shapeScore []int64
	// cpuMemOnly: every resource is cpu or memory, so the allocation
	// index's dense entries hold all a node's numbers (entryScore).
	cpuMemOnly bool
}

type resourceKind uint8

const (
	kindCPU resourceKind = iota
	kindMemory
	kindEphemeral
	kindScalar // extended resources, hugepages, …: skipped unless requested
	kindOther  // a native name without a slash the scorer looks up as is
)

type scorerStrategy uint8

const (
	strategyLeast scorerStrategy = iota
	strategyMost
	strategyRatio
	strategyBalanced
)

func newResourceScorer(resources []ResourceSpec, useRequested bool, strategy scorerStrategy) *resourceScorer {
	r := &resourceScorer{resources: resources, useRequested: useRequested, strategy: strategy, kinds: make([]resourceKind, len(resources))}
	for i, res := range resources {
		switch {
		case res.Name == api.ResourceCPU:
			r.kinds[i] = kindCPU
		case res.Name == api.ResourceMemory:
			r.kinds[i] = kindMemory
		case res.Name == api.ResourceEphemeralStorage:
			r.kinds[i] = kindEphemeral
		case isScalarResourceName(res.Name):
			r.kinds[i] = kindScalar
		default:
			r.kinds[i] = kindOther
		}
	}
	r.cpuMemOnly = len(resources) <= maxStackResources
	for _, k := range r.kinds {
		r.cpuMemOnly = r.cpuMemOnly && (k == kindCPU || k == kindMemory)
	}
	return r
}

// entryScore is nodeScore from the node's allocation-index entry (only
// when cpuMemOnly): the same numbers, read from one dense array.
func (r *resourceScorer) entryScore(podReq []int64, e *allocEntry) int64 {
	var requested, allocated, allocatable [maxStackResources]int64
	for i, k := range r.kinds {
		alloc, inUse := e.allocCPU, e.nzCPU
		if r.useRequested {
			inUse = e.reqCPU
		}
		if k == kindMemory {
			alloc, inUse = e.allocMem, e.nzMem
			if r.useRequested {
				inUse = e.reqMem
			}
		}
		if alloc == 0 {
			continue
		}
		allocatable[i], allocated[i], requested[i] = alloc, inUse, inUse+podReq[i]
	}
	n := len(r.kinds)
	return r.apply(requested[:n], allocated[:n], allocatable[:n])
}

// maxStackResources bounds the vectors kept on the stack per node.
const maxStackResources = 8

// podRequests is calculatePodResourceRequestList: per configured resource
// the pod's request — for Fit the non-zero cpu/memory (100m/200Mi for
// containers without requests), for BalancedAllocation the plain ones.
func (r *resourceScorer) podRequests(pod *framework.PodInfo) []int64 {
	out := make([]int64, len(r.resources))
	for i, res := range r.resources {
		out[i] = podRequest(pod, res.Name, r.useRequested)
	}
	return out
}

func podRequest(pod *framework.PodInfo, name string, useRequested bool) int64 {
	switch name {
	case api.ResourceCPU:
		if useRequested {
			return pod.Requests.MilliCPU
		}
		return pod.ScoreRequests.MilliCPU
	case api.ResourceMemory:
		if useRequested {
			return pod.Requests.Memory
		}
		return pod.ScoreRequests.Memory
	case api.ResourceEphemeralStorage:
		return pod.Requests.EphemeralStorage
	}
	return pod.Requests.Scalar[name]
}

// nodeScore is resourceAllocationScorer.score for one node.
func (r *resourceScorer) nodeScore(podReq []int64, node *framework.NodeInfo) int64 {
	n := len(r.resources)
	if n > maxStackResources {
		return r.score(make([]int64, n), make([]int64, n), make([]int64, n), podReq, node)
	}
	var requested, allocated, allocatable [maxStackResources]int64
	return r.score(requested[:n], allocated[:n], allocatable[:n], podReq, node)
}

// score fills the vectors (calculateNodeAllocatableRequest) and applies
// the strategy.
func (r *resourceScorer) score(requested, allocated, allocatable, podReq []int64, node *framework.NodeInfo) int64 {
	used := &node.NonZeroRequested
	if r.useRequested {
		used = &node.Requested
	}
	for i, k := range r.kinds {
		var alloc, inUse int64
		switch k {
		case kindCPU:
			alloc, inUse = node.Allocatable.MilliCPU, used.MilliCPU
		case kindMemory:
			alloc, inUse = node.Allocatable.Memory, used.Memory
		case kindEphemeral:
			alloc, inUse = node.Allocatable.EphemeralStorage, node.Requested.EphemeralStorage
		default:
			// an extended resource the pod does not request is left out
			if podReq[i] == 0 && k == kindScalar {
				continue
			}
			name := r.resources[i].Name
			alloc, inUse = node.Allocatable.Scalar[name], node.Requested.Scalar[name]
		}
		if alloc == 0 {
			continue
		}
		allocatable[i], allocated[i], requested[i] = alloc, inUse, inUse+podReq[i]
	}
	return r.apply(requested, allocated, allocatable)
}

// apply runs the strategy over filled vectors.
func (r *resourceScorer) apply(requested, allocated, allocatable []int64) int64 {
	switch r.strategy {
	case strategyMost:
		return r.weighted(requested, allocatable, mostRequestedScore)
	case strategyRatio:
		return r.ratio(requested, allocatable)
	case strategyBalanced:
		return improvementScore(balancedVectorScore(requested, allocatable), balancedVectorScore(allocated, allocatable))
	}
	return r.weighted(requested, allocatable, leastRequestedScore)
}

// newFitScorer is nodeResourceStrategyTypeMap for the strategy.
func newFitScorer(s ScoringStrategy) *resourceScorer {
	switch s.Type {
	case MostAllocated:
		return newResourceScorer(s.Resources, false, strategyMost)
	case RequestedToCapacityRatio:
		r := newResourceScorer(s.Resources, false, strategyRatio)
		for _, pt := range s.Shape {
			r.shapeUtil = append(r.shapeUtil, int64(pt.Utilization))
			r.shapeScore = append(r.shapeScore, int64(pt.Score)*(framework.MaxNodeScore/MaxCustomPriorityScore))
		}
		return r
	}
	return newResourceScorer(s.Resources, false, strategyLeast)
}

// weighted is leastResourceScorer / mostResourceScorer: the weighted mean
// (integer division) of per-resource scores over the resources the node
// has.
func (r *resourceScorer) weighted(requested, allocatable []int64, per func(requested, capacity int64) int64) int64 {
	var nodeScore, weightSum int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		w := r.resources[i].Weight
		nodeScore += per(requested[i], allocatable[i]) * w
		weightSum += w
	}
	if weightSum == 0 {
		return 0
	}
	return nodeScore / weightSum
}

// mostRequestedScore is most_allocated.go's: the used share of capacity on
// 0..100, requests beyond capacity counting as full.
func mostRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 {
		return 0
	}
	if requested > capacity {
		requested = capacity
	}
	return requested * framework.MaxNodeScore / capacity
}

// brokenLinear is helper.BuildBrokenLinearFunction over the scaled
// shape points.
func (r *resourceScorer) brokenLinear(p int64) int64 {
	for i, u := range r.shapeUtil {
		if p <= u {
			if i == 0 {
				return r.shapeScore[0]
			}
			return r.shapeScore[i-1] + (r.shapeScore[i]-r.shapeScore[i-1])*(p-r.shapeUtil[i-1])/(u-r.shapeUtil[i-1])
		}
	}
	return r.shapeScore[len(r.shapeScore)-1]
}

// ratio is requested_to_capacity_ratio.go's scorer: per resource the
// shape at utilization requested×100/capacity (100 when over capacity);
// resources scoring 0 are left out of the weighted mean, which is
// rounded.
func (r *resourceScorer) ratio(requested, allocatable []int64) int64 {
	const maxUtilization = 100
	var nodeScore, weightSum int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		var s int64
		if requested[i] > allocatable[i] {
			s = r.brokenLinear(maxUtilization)
		} else {
			s = r.brokenLinear(requested[i] * maxUtilization / allocatable[i])
		}
		if s > 0 {
			w := r.resources[i].Weight
			nodeScore += s * w
			weightSum += w
		}
	}
	if weightSum == 0 {
		return 0
	}
	return int64(math.Round(float64(nodeScore) / float64(weightSum)))
}

// newBalancedScorer is BalancedAllocation's scorer over resources.
func newBalancedScorer(resources []ResourceSpec) *resourceScorer {
	return newResourceScorer(resources, true, strategyBalanced)
}

// balancedVectorScore is balancedResourceScore: (1 − std) × 100 of the
// requested fractions (capped at 1); for two resources |f1 − f2| / 2,
// for more the population standard deviation.
func balancedVectorScore(requested, allocatable []int64) int64 {
	var fractions [maxStackResources]float64
	var total float64
	n := 0
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		f := float64(requested[i]) / float64(allocatable[i])
		if f > 1 {
			f = 1
		}
		total += f
		if n < maxStackResources {
			fractions[n] = f
		}
		n++
	}
	std := 0.0
	switch {
	case n == 2:
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	case n > 2 && n <= maxStackResources:
		mean := total / float64(n)
		var sum float64
		for _, f := range fractions[:n] {
			sum = sum + (f-mean)*(f-mean)
		}
		std = math.Sqrt(sum / float64(n))
	case n > maxStackResources:
		// more resources than the stack buffer: recompute into a slice
		fs := make([]float64, 0, n)
		for i := range requested {
			if allocatable[i] != 0 {
				fs = append(fs, math.Min(float64(requested[i])/float64(allocatable[i]), 1))
			}
		}
		mean := total / float64(n)
		var sum float64
		for _, f := range fs {
			sum = sum + (f-mean)*(f-mean)
		}
		std = math.Sqrt(sum / float64(n))
	}
	return int64((1 - std) * float64(framework.MaxNodeScore))
}
