package scheduler

import (
	"sort"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// Nominator tracks pods nominated to run on a node (status.nominatedNodeName
// set by preemption) so that other pods' filters treat them as already
// there (backend/queue/nominator.go). The engine adds a nomination when a
// preemption nominates a node and deletes it when the pod is bound,
// deleted, or nominated elsewhere.
type Nominator struct {
	byNode map[string][]*framework.PodInfo
	nodeOf map[string]string
	count  int
}

// NewNominator returns an empty nominator.
func NewNominator() *Nominator {
	return &Nominator{byNode: map[string][]*framework.PodInfo{}, nodeOf: map[string]string{}}
}

// AddNominatedPod records that pi is nominated to node (replacing any
// earlier nomination of the same pod). An empty node deletes it.
func (n *Nominator) AddNominatedPod(pi *framework.PodInfo, node string) {
	key := pi.Pod.Key()
	n.DeleteNominatedPod(key)
	if node == "" {
		return
	}
	n.byNode[node] = append(n.byNode[node], pi)
	n.nodeOf[key] = node
	n.count++
}

// DeleteNominatedPod forgets a pod's nomination (namespace/name key).
func (n *Nominator) DeleteNominatedPod(key string) {
	node, ok := n.nodeOf[key]
	if !ok {
		return
	}
	delete(n.nodeOf, key)
	list := n.byNode[node]
	for i, pi := range list {
		if pi.Pod.HasKey(key) {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(n.byNode, node)
	} else {
		n.byNode[node] = list
	}
	n.count--
}

// NominatedPodsForNode returns the pods nominated to a node, in
// nomination order. The slice must not be modified.
func (n *Nominator) NominatedPodsForNode(node string) []*framework.PodInfo {
	return n.byNode[node]
}

// NominatedNodeOf returns the node a pod is nominated to ("" if none).
func (n *Nominator) NominatedNodeOf(key string) string { return n.nodeOf[key] }

// Len returns the number of nominated pods.
func (n *Nominator) Len() int { return n.count }

// nodes returns the names of nodes with nominated pods, sorted.
func (n *Nominator) nodes() []string {
	out := make([]string, 0, len(n.byNode))
	for name := range n.byNode {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Keys returns the keys of the nominated pods, sorted.
func (n *Nominator) Keys() []string {
	out := make([]string, 0, len(n.nodeOf))
	for key := range n.nodeOf {
		out = append(out, key)
	}
	sort.Strings(out)
	return out
}
