// Package nodetraits keeps, per snapshot node, the few facts filters ask
// about every node on every cycle — cordoned, has NoSchedule/NoExecute
// taints, has PreferNoSchedule taints — in one dense array, so a filter
// can pass the common node (no taints, not cordoned) without reading the
// Node object. It imports engine/api and engine/scheduler/framework only.
package nodetraits

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Traits is a set of node facts.
type Traits uint8

// The facts.
const (
	// Unschedulable: spec.unschedulable.
	Unschedulable Traits = 1 << iota
	// HardTaints: some NoSchedule or NoExecute taint.
	HardTaints
	// PreferTaints: some PreferNoSchedule taint.
	PreferTaints
)

const indexKey = "nodetraits"

// Index holds the traits of every snapshot node; it depends on nodes only
// and is rebuilt when they change (framework.PodIndex).
type Index struct {
	nodes  []*framework.NodeInfo
	traits []Traits
}

// Of returns the snapshot's index, building it on first use.
func Of(snap *framework.Snapshot) *Index {
	return snap.Index(indexKey, func(s *framework.Snapshot) framework.PodIndex {
		idx := &Index{}
		idx.NodesChanged(s)
		return idx
	}).(*Index)
}

// Compute returns a node's traits.
func Compute(n *api.Node) Traits {
	var t Traits
	if n.Spec.Unschedulable {
		t |= Unschedulable
	}
	for i := range n.Spec.Taints {
		switch n.Spec.Taints[i].Effect {
		case api.TaintEffectNoSchedule, api.TaintEffectNoExecute:
			t |= HardTaints
		case api.TaintEffectPreferNoSchedule:
			t |= PreferTaints
		}
	}
	return t
}

// Get returns the traits of a snapshot NodeInfo; ok is false for a
// NodeInfo that is not the snapshot's own (a copy), or a nil index.
func (idx *Index) Get(ni *framework.NodeInfo) (Traits, bool) {
	if idx == nil {
		return 0, false
	}
	if i := ni.Index; i >= 0 && i < len(idx.nodes) && idx.nodes[i] == ni {
		return idx.traits[i], true
	}
	return 0, false
}

// PodAdded implements framework.PodIndex: pods do not matter.
func (*Index) PodAdded(*framework.NodeInfo, *framework.PodInfo) {}

// PodRemoved implements framework.PodIndex: pods do not matter.
func (*Index) PodRemoved(*framework.NodeInfo, *framework.PodInfo) {}

// NodesChanged implements framework.PodIndex: rebuild.
func (idx *Index) NodesChanged(s *framework.Snapshot) {
	idx.nodes = append(idx.nodes[:0], s.Nodes()...)
	idx.traits = idx.traits[:0]
	for _, ni := range s.Nodes() {
		idx.traits = append(idx.traits, Compute(ni.Node))
	}
}

// At returns the traits of nodes[k] when nodes is the snapshot's node list
// (k is then the node's index, known without reading the NodeInfo), else
// as Get (k is only a hint: a negative or wrong one costs the slower lookup).
func (idx *Index) At(k int32, ni *framework.NodeInfo) (Traits, bool) {
	if idx == nil {
		return 0, false
	}
	if k >= 0 && int(k) < len(idx.nodes) && idx.nodes[k] == ni {
		return idx.traits[k], true
	}
	return idx.Get(ni)
}
