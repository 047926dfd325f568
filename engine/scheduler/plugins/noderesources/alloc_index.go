package noderesources

import "podlab.dev/podlab/engine/scheduler/framework"

const allocIndexKey = "noderesources/allocation"

// allocEntry is one node's cpu and memory numbers, densely packed so a
// Score pass over thousands of nodes reads one array sequentially instead
// of three scattered parts of every NodeInfo.
type allocEntry struct {
	allocCPU, allocMem int64 // allocatable
	reqCPU, reqMem     int64 // Requested (BalancedAllocation)
	nzCPU, nzMem       int64 // NonZeroRequested (Fit)
	// balanceWithout is balancedResourceScore before the incoming pod,
	// which depends on the node only.
	balanceWithout int64
}

// allocIndex keeps an allocEntry per snapshot node, updated by the
// Snapshot as pods come and go (framework.PodIndex). Entries are valid for
// the snapshot's own NodeInfos only (checked by pointer): the copies
// preemption dry runs and nominated pods use are read directly.
type allocIndex struct {
	nodes   []*framework.NodeInfo
	entries []allocEntry
	free    []freeEntry
}

// freeEntry is what Fit's Filter compares with on every node: the room
// left for pods, cpu, memory and ephemeral storage (allocatable minus
// requested, possibly negative on an overcommitted node).
type freeEntry struct {
	pods, cpu, mem, ephemeral int64
}

func freeOf(ni *framework.NodeInfo) freeEntry {
	return freeEntry{
		pods:      ni.Allocatable.AllowedPods - int64(len(ni.Pods)),
		cpu:       ni.Allocatable.MilliCPU - ni.Requested.MilliCPU,
		mem:       ni.Allocatable.Memory - ni.Requested.Memory,
		ephemeral: ni.Allocatable.EphemeralStorage - ni.Requested.EphemeralStorage,
	}
}

func allocIndexOf(snap *framework.Snapshot) *allocIndex {
	return snap.Index(allocIndexKey, func(s *framework.Snapshot) framework.PodIndex {
		idx := &allocIndex{}
		idx.NodesChanged(s)
		return idx
	}).(*allocIndex)
}

func entryOf(ni *framework.NodeInfo) allocEntry {
	e := allocEntry{
		allocCPU: ni.Allocatable.MilliCPU, allocMem: ni.Allocatable.Memory,
		reqCPU: ni.Requested.MilliCPU, reqMem: ni.Requested.Memory,
		nzCPU: ni.NonZeroRequested.MilliCPU, nzMem: ni.NonZeroRequested.Memory,
	}
	a := nodeAllocation(ni, 0, 0, true)
	e.balanceWithout = balancedResourceScore(&a.allocated, &a.allocatable)
	return e
}

func (idx *allocIndex) refresh(ni *framework.NodeInfo) {
	if i := ni.Index; i >= 0 && i < len(idx.nodes) && idx.nodes[i] == ni {
		idx.entries[i] = entryOf(ni)
		idx.free[i] = freeOf(ni)
	}
}

// PodAdded implements framework.PodIndex.
func (idx *allocIndex) PodAdded(ni *framework.NodeInfo, _ *framework.PodInfo) { idx.refresh(ni) }

// PodRemoved implements framework.PodIndex.
func (idx *allocIndex) PodRemoved(ni *framework.NodeInfo, _ *framework.PodInfo) { idx.refresh(ni) }

// NodesChanged implements framework.PodIndex: rebuild every entry.
func (idx *allocIndex) NodesChanged(s *framework.Snapshot) {
	idx.nodes = append(idx.nodes[:0], s.Nodes...)
	idx.entries = idx.entries[:0]
	idx.free = idx.free[:0]
	for _, ni := range s.Nodes {
		idx.entries = append(idx.entries, entryOf(ni))
		idx.free = append(idx.free, freeOf(ni))
	}
}

// entry returns the node's entry when ni is the snapshot's own NodeInfo.
func (idx *allocIndex) entry(ni *framework.NodeInfo) *allocEntry {
	if idx == nil {
		return nil
	}
	if i := ni.Index; i >= 0 && i < len(idx.nodes) && idx.nodes[i] == ni {
		return &idx.entries[i]
	}
	return nil
}

// freeEntry returns the node's free room when ni is the snapshot's own
// NodeInfo.
func (idx *allocIndex) freeEntry(ni *framework.NodeInfo) *freeEntry {
	if idx == nil {
		return nil
	}
	if i := ni.Index; i >= 0 && i < len(idx.nodes) && idx.nodes[i] == ni {
		return &idx.free[i]
	}
	return nil
}
