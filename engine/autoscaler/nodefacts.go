package autoscaler

import (
	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// nodeFacts is what every loop reads of a node object: its group, its
// allocatable cpu and memory, readiness and the scale-down flags. The
// engine never changes a node object in place (UpdateNode, taints and
// conditions install a copy), so the facts are memoised per object: a
// loop over 450 nodes then does one pointer lookup per node instead of
// label, annotation, condition and quantity lookups.
type nodeFacts struct {
	// group is the index in Autoscaler.groups, -1 when not autoscaled.
	group              int
	allocCPU, allocMem int64
	ready              bool
	toBeDeleted        bool
	scaleDownDisabled  bool
}

func (a *Autoscaler) factsOf(n *api.Node) nodeFacts {
	if f, ok := a.facts[n]; ok && !a.reference {
		return f
	}
	f := nodeFacts{group: -1,
		allocCPU:          n.Status.Allocatable[api.ResourceCPU].MilliValue(),
		allocMem:          n.Status.Allocatable[api.ResourceMemory].Value(),
		ready:             nodeReady(n),
		toBeDeleted:       hasTaint(n, ToBeDeletedTaint),
		scaleDownDisabled: n.Annotations[ScaleDownDisabledAnnotation] == "true",
	}
	if i, ok := a.groupIndex[n.Labels[NodeGroupLabel]]; ok {
		f.group = i
	}
	if a.reference {
		return f
	}
	if a.facts == nil {
		a.facts = map[*api.Node]nodeFacts{}
	}
	a.facts[n] = f
	return f
}

// pruneFacts forgets replaced and removed node objects once they
// outnumber the live ones.
func (a *Autoscaler) pruneFacts(nodes []*api.Node) {
	if len(a.facts) <= 2*len(nodes)+16 {
		return
	}
	kept := make(map[*api.Node]nodeFacts, len(nodes))
	for _, n := range nodes {
		if f, ok := a.facts[n]; ok {
			kept[n] = f
		}
	}
	a.facts = kept
}

// ratioOf is max(cpu, memory) requested over the allocatable in the
// node's facts, with the resource (ratio reads the node object).
func ratioOf(milliCPU, memory int64, f nodeFacts) (float64, string) {
	cu, mu := 0.0, 0.0
	if f.allocCPU > 0 {
		cu = float64(milliCPU) / float64(f.allocCPU)
	}
	if f.allocMem > 0 {
		mu = float64(memory) / float64(f.allocMem)
	}
	if mu > cu {
		return mu, api.ResourceMemory
	}
	return cu, api.ResourceCPU
}

// loopNodes is what a loop reads of the nodes once: the node list, each
// node's requests (for utilisation without a simulation) and facts.
type loopNodes struct {
	nodes []*api.Node
	reqs  []engine.NodeRequests
	facts []nodeFacts
}

// factOf returns node i's facts when n is the loop's node i, else looks
// them up.
func (l *loopNodes) factOf(i int, n *api.Node, a *Autoscaler) nodeFacts {
	if i < len(l.facts) && l.nodes[i] == n {
		return l.facts[i]
	}
	return a.factsOf(n)
}
