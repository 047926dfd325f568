package noderesources

import "podlab.dev/podlab/engine/scheduler/framework"

// Both scorers look at cpu and memory, weight 1 each (the default
// NodeResourcesFitArgs / NodeResourcesBalancedAllocationArgs resources).
const (
	cpuIdx = iota
	memIdx
	numResources
)

// allocation is what resourceAllocationScorer.calculateNodeAllocatableRequest
// returns for cpu and memory: allocatable, what assigned pods request
// (allocated), and that plus the incoming pod (requested). An entry whose
// allocatable is 0 is left all zero and skipped by the scorers.
type allocation struct {
	requested, allocated, allocatable [numResources]int64
}

// nodeAllocation fills the allocation for a node. useRequested picks the
// node's plain requests (BalancedAllocation) rather than the non-zero ones
// that count 100m/200Mi for containers without requests (Fit).
func nodeAllocation(node *framework.NodeInfo, podCPU, podMem int64, useRequested bool) allocation {
	var a allocation
	used := &node.NonZeroRequested
	if useRequested {
		used = &node.Requested
	}
	if alloc := node.Allocatable.MilliCPU; alloc != 0 {
		a.allocatable[cpuIdx], a.allocated[cpuIdx] = alloc, used.MilliCPU
		a.requested[cpuIdx] = used.MilliCPU + podCPU
	}
	if alloc := node.Allocatable.Memory; alloc != 0 {
		a.allocatable[memIdx], a.allocated[memIdx] = alloc, used.Memory
		a.requested[memIdx] = used.Memory + podMem
	}
	return a
}
