package engine

import "podlab.dev/podlab/engine/api"

// NodeRequests is the cpu (millicores) and memory (bytes) requested on a
// node, as NodeRequested reports them.
type NodeRequests struct {
	MilliCPU, Memory int64
}

// NodesRequested returns the nodes sorted by name (as Nodes) with each
// node's requests (as NodeRequested), read in one pass over the
// scheduler's snapshot instead of a map lookup per node: the cluster
// autoscaler reads every node's utilisation every 10 s. The results are
// appended to nodes[:0] and reqs[:0] (a caller's buffers, or nil).
func (e *Engine) NodesRequested(nodes []*api.Node, reqs []NodeRequests) ([]*api.Node, []NodeRequests) {
	nodes, reqs = nodes[:0], reqs[:0]
	sn := e.snap.Nodes()
	if len(sn) != len(e.nodes) {
		// never expected (the snapshot holds every node): the lookups
		for _, name := range e.sortedNodeNames() {
			n := e.nodes[name].node
			nodes = append(nodes, n)
			r, _ := e.NodeRequested(n.Name)
			reqs = append(reqs, NodeRequests{r.MilliCPU, r.Memory})
		}
		return nodes, reqs
	}
	for _, ni := range sn {
		nodes = append(nodes, ni.Node)
		reqs = append(reqs, NodeRequests{ni.Requested.MilliCPU, ni.Requested.Memory})
	}
	return nodes, reqs
}
