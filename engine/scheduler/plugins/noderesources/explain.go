package noderesources

import "podlab.dev/podlab/engine/scheduler/framework"

// ResourceShare is one resource's numbers behind a score.
type ResourceShare struct {
	Resource    string
	Allocatable int64 // milli-cpu or bytes
	Allocated   int64 // requested by the node's pods
	Requested   int64 // Allocated plus the incoming pod
}

// FitExplanation shows LeastAllocated's arithmetic on one node.
type FitExplanation struct {
	Resources []ResourceShare
	// PerResource is each resource's (allocatable − requested)·100/allocatable.
	PerResource []int64
	Score       int64
}

// BalancedExplanation shows BalancedAllocation's arithmetic on one node.
type BalancedExplanation struct {
	Resources []ResourceShare
	// Skipped: the pod requests neither cpu nor memory.
	Skipped                       bool
	ScoreWithPod, ScoreWithoutPod int64
	Score                         int64
}

func shares(a *allocation) []ResourceShare {
	names := [numResources]string{"cpu", "memory"}
	var out []ResourceShare
	for i := 0; i < numResources; i++ {
		if a.allocatable[i] == 0 {
			continue
		}
		out = append(out, ResourceShare{Resource: names[i], Allocatable: a.allocatable[i], Allocated: a.allocated[i], Requested: a.requested[i]})
	}
	return out
}

// ExplainNode implements framework.Explainer.
func (f *Fit) ExplainNode(_ *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) any {
	a := nodeAllocation(node, pod.ScoreRequests.MilliCPU, pod.ScoreRequests.Memory, false)
	e := FitExplanation{Resources: shares(&a), Score: leastAllocatedScore(&a)}
	for i := 0; i < numResources; i++ {
		if a.allocatable[i] != 0 {
			e.PerResource = append(e.PerResource, leastRequestedScore(a.requested[i], a.allocatable[i]))
		}
	}
	return e
}

// ExplainNode implements framework.Explainer.
func (b *BalancedAllocation) ExplainNode(_ *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) any {
	cpu, mem := pod.Requests.MilliCPU, pod.Requests.Memory
	a := nodeAllocation(node, cpu, mem, true)
	e := BalancedExplanation{Resources: shares(&a), Skipped: cpu == 0 && mem == 0}
	if !e.Skipped {
		e.ScoreWithPod = balancedResourceScore(&a.requested, &a.allocatable)
		e.ScoreWithoutPod = balancedResourceScore(&a.allocated, &a.allocatable)
		e.Score = balancedResourceScorer(&a)
	}
	return e
}
