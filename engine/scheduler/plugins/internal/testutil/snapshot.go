package testutil

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// NewSnapshot builds a snapshot holding the nodes (defaulted with
// api.DefaultNode) and the pods (defaulted, assigned to spec.nodeName).
func NewSnapshot(nodes []*api.Node, pods []*api.Pod) *framework.Snapshot {
	s := framework.NewSnapshot()
	for _, n := range nodes {
		api.DefaultNode(n)
		s.AddNode(n)
	}
	for _, p := range pods {
		api.DefaultPod(p)
		s.AddPod(framework.NewPodInfo(p))
	}
	return s
}

// NodeInfo builds a standalone NodeInfo for a node with the given pods
// (for tests of one plugin on one node).
func NodeInfo(node *api.Node, pods ...*api.Pod) *framework.NodeInfo {
	for _, p := range pods {
		p.Spec.NodeName = node.Name
	}
	return NewSnapshot([]*api.Node{node}, pods).Get(node.Name)
}
