package noderesources

import "podlab.dev/podlab/engine/scheduler/framework"

const allocIndexKey = "noderesources/allocation"

// allocEntry is one node's cpu and memory numbers, densely packed so a
// Score pass over thousands of nodes reads one array sequentially instead
// of three scattered parts of every NodeInfo. It is 128 bytes, the memos
// and reciprocals in the first 64 and the node's numbers in the second,
// so that a memo hit touches one cache line (the entries array, being
// large, starts on a page boundary).
type allocEntry struct {
	// fitMemo and balancedMemo remember the last score the batch paths
	// computed on this node and for which pod requests. Replicas of one
	// workload request the same, and a node's entry is rebuilt (memos
	// cleared) whenever a pod binds to or leaves it or the node changes,
	// so most nodes answer the next identical pod from the memo. Only the
	// batch paths use them (one goroutine per node range); the per-node
	// Score stays the reference.
	fitMemo, balancedMemo scoreMemo
	// invCPU, invMem are 1/allocatable (0 when allocatable is 0), for the
	// exact division-free fast paths of fastscore.go.
	invCPU, invMem float64

	allocCPU, allocMem int64 // allocatable
	reqCPU, reqMem     int64 // Requested (BalancedAllocation)
	nzCPU, nzMem       int64 // NonZeroRequested (Fit)
	// balanceWithout is balancedResourceScore before the incoming pod,
	// which depends on the node only.
	balanceWithout int64
	_              int64 // pad to 128 bytes
}

// scoreMemo is one remembered score (0..100): the pod's cpu and memory
// requests it was computed for, the score, and whether it is set.
type scoreMemo struct {
	cpu, mem int64
	score    int32
	ok       bool
}

// get returns the remembered score for these requests.
func (m *scoreMemo) get(cpu, mem int64) (int64, bool) {
	if m.ok && m.cpu == cpu && m.mem == mem {
		return int64(m.score), true
	}
	return 0, false
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
	if e.allocCPU != 0 {
		e.invCPU = 1 / float64(e.allocCPU)
	}
	if e.allocMem != 0 {
		e.invMem = 1 / float64(e.allocMem)
	}
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

// entryAt is entry for a node whose snapshot position is probably k (the
// runtime's NodeScore.Index): checked by comparing pointers in the
// index's own node list, so the NodeInfo itself is not read.
func (idx *allocIndex) entryAt(k int, ni *framework.NodeInfo) *allocEntry {
	if idx == nil {
		return nil
	}
	if k >= 0 && k < len(idx.nodes) && idx.nodes[k] == ni {
		return &idx.entries[k]
	}
	return idx.entry(ni)
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
