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
type resourceScorer struct {
	resources []ResourceSpec
	// useRequested: the node's plain requests (BalancedAllocation) rather
	// than the non-zero ones (Fit).
	useRequested bool
	score        func(requested, allocated, allocatable []int64) int64
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
	var buf [3 * maxStackResources]int64
	var requested, allocated, allocatable []int64
	if n <= maxStackResources {
		requested, allocated, allocatable = buf[:n], buf[maxStackResources:maxStackResources+n], buf[2*maxStackResources:2*maxStackResources+n]
	} else {
		requested, allocated, allocatable = make([]int64, n), make([]int64, n), make([]int64, n)
	}
	used := &node.NonZeroRequested
	if r.useRequested {
		used = &node.Requested
	}
	for i, res := range r.resources {
		// calculateNodeAllocatableRequest: an extended resource the pod
		// does not request is left out
		if podReq[i] == 0 && isScalarResourceName(res.Name) {
			continue
		}
		var alloc, inUse int64
		switch res.Name {
		case api.ResourceCPU:
			alloc, inUse = node.Allocatable.MilliCPU, used.MilliCPU
		case api.ResourceMemory:
			alloc, inUse = node.Allocatable.Memory, used.Memory
		case api.ResourceEphemeralStorage:
			alloc, inUse = node.Allocatable.EphemeralStorage, node.Requested.EphemeralStorage
		default:
			alloc, inUse = node.Allocatable.Scalar[res.Name], node.Requested.Scalar[res.Name]
		}
		if alloc == 0 {
			continue
		}
		allocatable[i], allocated[i], requested[i] = alloc, inUse, inUse+podReq[i]
	}
	return r.score(requested, allocated, allocatable)
}

// newFitScorer is nodeResourceStrategyTypeMap for the strategy.
func newFitScorer(s ScoringStrategy) *resourceScorer {
	r := &resourceScorer{resources: s.Resources}
	switch s.Type {
	case MostAllocated:
		r.score = weighted(s.Resources, mostRequestedScore)
	case RequestedToCapacityRatio:
		r.score = requestedToCapacityRatioScorer(s.Resources, s.Shape)
	default:
		r.score = weighted(s.Resources, leastRequestedScore)
	}
	return r
}

// weighted is leastResourceScorer / mostResourceScorer: the weighted mean
// (integer division) of per-resource scores over the resources the node
// has.
func weighted(resources []ResourceSpec, per func(requested, capacity int64) int64) func(requested, _, allocatable []int64) int64 {
	return func(requested, _, allocatable []int64) int64 {
		var nodeScore, weightSum int64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			w := resources[i].Weight
			nodeScore += per(requested[i], allocatable[i]) * w
			weightSum += w
		}
		if weightSum == 0 {
			return 0
		}
		return nodeScore / weightSum
	}
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

// brokenLinear is helper.BuildBrokenLinearFunction over scaled points.
func brokenLinear(shape []ShapePoint) func(p int64) int64 {
	util := make([]int64, len(shape))
	score := make([]int64, len(shape))
	for i, pt := range shape {
		util[i] = int64(pt.Utilization)
		score[i] = int64(pt.Score) * (framework.MaxNodeScore / MaxCustomPriorityScore)
	}
	return func(p int64) int64 {
		for i := range util {
			if p <= util[i] {
				if i == 0 {
					return score[0]
				}
				return score[i-1] + (score[i]-score[i-1])*(p-util[i-1])/(util[i]-util[i-1])
			}
		}
		return score[len(score)-1]
	}
}

// requestedToCapacityRatioScorer is requested_to_capacity_ratio.go's:
// per resource the shape at utilization requested×100/capacity (100 when
// over capacity); resources scoring 0 are left out of the weighted mean,
// which is rounded.
func requestedToCapacityRatioScorer(resources []ResourceSpec, shape []ShapePoint) func(requested, _, allocatable []int64) int64 {
	const maxUtilization = 100
	raw := brokenLinear(shape)
	per := func(requested, capacity int64) int64 {
		if capacity == 0 || requested > capacity {
			return raw(maxUtilization)
		}
		return raw(requested * maxUtilization / capacity)
	}
	return func(requested, _, allocatable []int64) int64 {
		var nodeScore, weightSum int64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			w := resources[i].Weight
			if s := per(requested[i], allocatable[i]); s > 0 {
				nodeScore += s * w
				weightSum += w
			}
		}
		if weightSum == 0 {
			return 0
		}
		return int64(math.Round(float64(nodeScore) / float64(weightSum)))
	}
}

// newBalancedScorer is BalancedAllocation's scorer over resources.
func newBalancedScorer(resources []ResourceSpec) *resourceScorer {
	return &resourceScorer{resources: resources, useRequested: true, score: balancedVectorScorer}
}

// balancedVectorScorer is balanced_allocation.go balancedResourceScorer
// for any number of resources.
func balancedVectorScorer(requested, allocated, allocatable []int64) int64 {
	return improvementScore(balancedVectorScore(requested, allocatable), balancedVectorScore(allocated, allocatable))
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
