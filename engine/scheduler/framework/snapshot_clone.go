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
		frozen:          s.frozen,
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

// Freeze drops the pod → node index (the engine's Freeze: a snapshot
// kept only to be restored later); Thaw rebuilds it from the nodes' pod
// lists. A frozen snapshot must not be used until Thaw.
func (s *Snapshot) Freeze() {
	s.sync()
	s.podNode, s.frozen = cowmap.Map[podSlot]{}, true
}

// PodCount returns how many pods are assigned to the snapshot's nodes.
func (s *Snapshot) PodCount() int { return s.podNode.Len() }

// ThawFrom is Thaw from what the caller kept: the keys of the assigned
// pods (and of others, at node -1) with the position in Nodes of the node
// each is on, and each pod's PodInfo as the caller holds it. The index
// holds the PodInfo of the node's list (RemovePod relies on it), so a
// kept PodInfo that is not the one on its node — or a mismatch of any
// kind — falls back to Thaw. It does nothing when not frozen.
func (s *Snapshot) ThawFrom(keys []string, node []int32, infos []*PodInfo) {
	if !s.frozen {
		return
	}
	if len(keys) != len(node) || len(keys) != len(infos) {
		s.Thaw()
		return
	}
	var idx cowmap.Map[podSlot]
	on := make(map[*PodInfo]int32, len(keys)) // pointers: no key strings built
	for i, k := range keys {
		if n := node[i]; n >= 0 {
			if int(n) >= len(s.nodes) || infos[i] == nil {
				s.Thaw()
				return
			}
			idx.Set(s.own, k, podSlot{node: s.nodes[n].Node.Name, pi: infos[i]})
			on[infos[i]] = n
		}
	}
	// every node's list must hold exactly the PodInfos kept for it
	total := 0
	for n, ni := range s.nodes {
		total += len(ni.Pods)
		for _, pi := range ni.Pods {
			if at, ok := on[pi]; !ok || int(at) != n {
				s.Thaw()
				return
			}
		}
	}
	if total != idx.Len() || total != len(on) {
		s.Thaw()
		return
	}
	s.podNode, s.frozen = idx, false
}

// Thaw rebuilds what Freeze dropped; it does nothing otherwise.
func (s *Snapshot) Thaw() {
	if !s.frozen {
		return
	}
	n := 0
	for _, ni := range s.nodes {
		n += len(ni.Pods)
	}
	s.podNode, s.frozen = cowmap.Map[podSlot]{}, false
	for _, ni := range s.nodes {
		for _, pi := range ni.Pods {
			s.podNode.Set(s.own, pi.Pod.Key(), podSlot{node: ni.Node.Name, pi: pi})
		}
	}
}
