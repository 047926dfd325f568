// Package noderesources holds kube-scheduler's resource plugins
// (pkg/scheduler/framework/plugins/noderesources) with the default
// profile's arguments: NodeResourcesFit (Filter on requests vs allocatable;
// Score with the LeastAllocated strategy over cpu and memory, weight 1
// each) and NodeResourcesBalancedAllocation (cpu and memory, v1.36's
// "improvement of balance" score).
//
// Files follow upstream: fit.go (Fit's filter), least_allocated.go,
// balanced_allocation.go, resource_allocation.go (what both scorers read
// from a node).
package noderesources
