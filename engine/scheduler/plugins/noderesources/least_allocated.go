package noderesources

import "podlab.dev/podlab/engine/scheduler/framework"

// Score implements framework.ScorePlugin with the LeastAllocated strategy
// (least_allocated.go): per resource (capacity − requested) × 100 /
// capacity in integer math, 0 when over capacity; the weighted mean over
// resources the node has. Requests are the non-zero ones (a container
// without requests counts 100m cpu and 200Mi memory) on the node and for
// the pod. Upstream's PreScore only caches the pod's requests and never
// skips; framework.PodInfo already holds them, so there is no PreScore.
func (f *Fit) Score(_ *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) (int64, *framework.Status) {
	a := nodeAllocation(node, pod.NonZeroRequests.MilliCPU, pod.NonZeroRequests.Memory, false)
	return leastAllocatedScore(&a), nil
}

// ScoreExtensions implements framework.ScorePlugin: none (scores are
// already in [0, 100]).
func (*Fit) ScoreExtensions() framework.ScoreExtensions { return nil }

func leastAllocatedScore(a *allocation) int64 {
	var nodeScore, weightSum int64
	for i := 0; i < numResources; i++ {
		if a.allocatable[i] == 0 {
			continue
		}
		const weight = 1
		nodeScore += leastRequestedScore(a.requested[i], a.allocatable[i]) * weight
		weightSum += weight
	}
	if weightSum == 0 {
		return 0
	}
	return nodeScore / weightSum
}

// leastRequestedScore is upstream's: the unused share of capacity on a
// 0..100 scale.
func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return (capacity - requested) * framework.MaxNodeScore / capacity
}
