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
	// invCPU, invMem are 1/allocatable (0 when allocatable is 0), for the
	// exact division-free fast paths of fastscore.go.
	invCPU, invMem float64
}

// scoreMemo remembers the last scores the batch paths computed on one
// node: fit is valid when fitEpoch is the index's current fit epoch,
// balanced likewise. Replicas of one workload request the same, and a
// node's memo is cleared whenever a pod binds to or leaves it or the node
// changes, so most nodes answer the next identical pod from 12 bytes
// instead of the node's numbers. Only the batch paths use it (one
// goroutine per node range); the per-node Score stays the reference.
type scoreMemo struct {
	fitEpoch, balancedEpoch uint32
	fit, balanced           int8 // scores are 0..100
}

// memoKey is the pod requests the current epoch's memos were computed
// for; PreScore (single-threaded, before any Score) moves to a new epoch
// when the requests change.
type memoKey struct {
	cpu, mem int64
	epoch    uint32
}

// epochFor returns the epoch for these requests, starting a new one (and
// so invalidating every memo of that kind) when they differ from the
// last pod's.
func (idx *allocIndex) epochFor(k *memoKey, cpu, mem int64) uint32 {
	if k.epoch != 0 && k.cpu == cpu && k.mem == mem {
		return k.epoch
	}
	k.cpu, k.mem = cpu, mem
	k.epoch++
	if k.epoch == 0 { // wrapped: forget every memo
		clear(idx.memos)
		idx.fitKey.epoch, idx.balancedKey.epoch = 0, 0
		k.cpu, k.mem, k.epoch = cpu, mem, 1
	}
	return k.epoch
}

// allocIndex keeps an allocEntry per snapshot node, updated by the
// Snapshot as pods come and go (framework.PodIndex). Entries are valid for
// the snapshot's own NodeInfos only (checked by pointer): the copies
// preemption dry runs and nominated pods use are read directly.
type allocIndex struct {
	nodes   []*framework.NodeInfo
	entries []allocEntry
	free    []freeEntry
	// memos[i] is node i's scoreMemo; fitKey and balancedKey the
	// requests of the current epochs.
	memos               []scoreMemo
	fitKey, balancedKey memoKey
	// customFit / customBalanced memoise configured scorers (custom_memo.go).
	customFit, customBalanced customSlot
}

// freeEntry is what Fit's Filter compares with on every node: the room
// left for pods, cpu, memory and ephemeral storage (allocatable minus
// requested, possibly negative on an overcommitted node).
type freeEntry struct {
	pods, cpu, mem, ephemeral int64
	// the allocatable amounts, for the rejections a request larger than
	// the whole node makes unresolvable
	allocCPU, allocMem, allocEphemeral int64
}

func freeOf(ni *framework.NodeInfo) freeEntry {
	return freeEntry{
		pods:      ni.Allocatable.AllowedPods - int64(len(ni.Pods)),
		cpu:       ni.Allocatable.MilliCPU - ni.Requested.MilliCPU,
		mem:       ni.Allocatable.Memory - ni.Requested.Memory,
		ephemeral: ni.Allocatable.EphemeralStorage - ni.Requested.EphemeralStorage,
		allocCPU:  ni.Allocatable.MilliCPU, allocMem: ni.Allocatable.Memory,
		allocEphemeral: ni.Allocatable.EphemeralStorage,
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
		idx.memos[i] = scoreMemo{}
		idx.customFit.clearNode(i)
		idx.customBalanced.clearNode(i)
	}
}

// PodAdded implements framework.PodIndex.
func (idx *allocIndex) PodAdded(ni *framework.NodeInfo, _ *framework.PodInfo) { idx.refresh(ni) }

// PodRemoved implements framework.PodIndex.
func (idx *allocIndex) PodRemoved(ni *framework.NodeInfo, _ *framework.PodInfo) { idx.refresh(ni) }

// NodesChanged implements framework.PodIndex: rebuild every entry.
func (idx *allocIndex) NodesChanged(s *framework.Snapshot) {
	idx.nodes = append(idx.nodes[:0], s.Nodes()...)
	idx.entries = idx.entries[:0]
	idx.free = idx.free[:0]
	idx.memos = make([]scoreMemo, len(s.Nodes()))
	idx.customFit, idx.customBalanced = customSlot{}, customSlot{}
	for _, ni := range s.Nodes() {
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

// positionOf returns the node's position in the index when it is the
// snapshot's own NodeInfo, trying k first (the runtime's NodeScore.Index,
// checked by comparing pointers in the index's own node list, so the
// NodeInfo itself is not read); -1 otherwise.
func (idx *allocIndex) positionOf(k int, ni *framework.NodeInfo) int {
	if idx == nil {
		return -1
	}
	if k >= 0 && k < len(idx.nodes) && idx.nodes[k] == ni {
		return k
	}
	if i := ni.Index; i >= 0 && i < len(idx.nodes) && idx.nodes[i] == ni {
		return i
	}
	return -1
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
