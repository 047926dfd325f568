package framework

import (
	"maps"

	"podlab.dev/podlab/engine/internal/cowmap"
)

// PodInfoReplacer is a PodIndex that remembers PodInfos by identity: it is
// told when Snapshot.ReplacePodInfo swaps one for another.
type PodInfoReplacer interface {
	PodInfoReplaced(node *NodeInfo, old, pi *PodInfo)
}

// CloneableIndex is a PodIndex that can be copied for a cloned snapshot
// (one that is expensive to rebuild). Indexes that are not are dropped by
// Clone and rebuilt on first use.
type CloneableIndex interface {
	CloneFor(s *Snapshot) PodIndex
}

// Clone returns an independent copy of the snapshot (the engine's Clone):
// the same nodes in the same order, each NodeInfo copied with its pod lists
// in the same order (NodeInfo.Clone), the pod → node map shared
// copy-on-write (cowmap).
// Node objects and PodInfos are shared: neither is modified once in a
// snapshot (a PodInfo that changes is replaced, see ReplacePodInfo).
// Indexes implementing CloneableIndex are copied; the others are rebuilt
// when next asked for.
func (s *Snapshot) Clone() *Snapshot {
	s.sync()
	s.own = &cowmap.Owner{}
	c := &Snapshot{
		nodes:           make([]*NodeInfo, len(s.nodes)),
		byName:          make(map[string]*NodeInfo, len(s.byName)),
		podNode:         s.podNode, // shared: both write through new tokens
		own:             &cowmap.Owner{},
		NamespaceLabels: maps.Clone(s.NamespaceLabels),
		indexes:         make(map[string]PodIndex, len(s.indexes)),
		topologies:      maps.Clone(s.topologies),
		generation:      s.generation,
	}
	for i, ni := range s.nodes {
		cp := ni.Clone()
		c.nodes[i] = cp
		c.byName[cp.Node.Name] = cp
	}
	for k, idx := range s.indexes {
		if ci, ok := idx.(CloneableIndex); ok {
			c.indexes[k] = ci.CloneFor(c)
		}
	}
	return c
}

// ReplacePodInfo puts pi, a PodInfo of the same assigned pod whose change
// does not matter to the snapshot's sums and indexes (a status change), in
// the place of old on the pod's node: same position in the node's lists,
// no index churn. It reports whether old was found.
func (s *Snapshot) ReplacePodInfo(old, pi *PodInfo) bool {
	key := old.Pod.Key()
	ni := s.NodeOfPod(key)
	if ni == nil || !replaceIn(ni.Pods, old, pi) {
		return false
	}
	if slot := s.podNode.Get(key); slot.pi == old {
		s.podNode.Set(s.own, key, podSlot{node: slot.node, pi: pi})
	}
	replaceIn(ni.PodsWithAffinity, old, pi)
	replaceIn(ni.PodsWithRequiredAntiAffinity, old, pi)
	for _, idx := range s.indexes {
		if r, ok := idx.(PodInfoReplacer); ok {
			r.PodInfoReplaced(ni, old, pi)
		}
	}
	return true
}

func replaceIn(list []*PodInfo, old, pi *PodInfo) bool {
	for i, x := range list {
		if x == old {
			list[i] = pi
			return true
		}
	}
	return false
}

// PodCount returns how many pods are assigned to the snapshot's nodes.
func (s *Snapshot) PodCount() int { return s.podNode.Len() }
