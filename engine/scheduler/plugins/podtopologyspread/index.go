package podtopologyspread

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// matchIndex counts, per node, the assigned pods of one namespace that
// match one selector, excluding terminating pods (countPodsMatchSelector
// bypasses pods with a deletionTimestamp, upstream #87621). The Snapshot
// keeps it up to date (framework.PodIndex), so PreFilter and PreScore read
// counts instead of scanning pods.
type matchIndex struct {
	namespace string
	selector  api.Selector
	// perNode[NodeInfo.Index] is the number of matching pods on the node.
	perNode []int32
	// nodes is the snapshot's node list the counts were built for: when a
	// change leaves it as it was (a node relabelled or tainted), the counts
	// stay valid and only the domain sums are dropped. It is the
	// snapshot's own slice, which the snapshot never changes in place
	// (Snapshot.sync builds a new one), shared by every index and
	// not written here.
	nodes []*framework.NodeInfo
	// counted remembers which pods were counted, so a removal undoes
	// exactly what the addition did even if the pod object changed since
	// (shared with clones copy-on-write: counted.go).
	counted countedSet
	// sums caches per-domain totals over a node set (nil: every node) for
	// topologies asked for, updated incrementally; a node change drops them.
	sums map[sumsKey][]int32
	// stale is set when nodes changed, or when the index went unused for
	// dormantAfter pod events (a selector of an old revision: its counts
	// are dropped and no longer maintained); the next use rebuilds.
	stale bool
	// eventsSinceUse counts pod events since the index was last read.
	eventsSinceUse int
}

// dormantAfter bounds what indexes of selectors nobody schedules with any
// more (e.g. an old pod-template-hash) cost: after this many pod events
// without a read they stop counting.
var dormantAfter = 200_000

func (m *matchIndex) touch() bool {
	if m.stale {
		return false
	}
	m.eventsSinceUse++
	if m.eventsSinceUse > dormantAfter {
		m.stale = true
		m.perNode, m.counted, m.sums, m.nodes = nil, countedSet{}, nil, nil
		return false
	}
	return true
}

type sumsKey struct {
	topo *framework.Topology
	set  *nodeSet
}

func indexKey(namespace string, sel api.Selector) string {
	return Name + "/" + namespace + "/" + sel.String()
}

// index returns the (up to date) index for a namespace and a counting
// selector, registering it with the snapshot on first use.
func index(snap *framework.Snapshot, namespace string, sel api.Selector) *matchIndex {
	idx := snap.Index(indexKey(namespace, sel), func(s *framework.Snapshot) framework.PodIndex {
		m := &matchIndex{namespace: namespace, selector: sel}
		m.rebuild(s)
		return m
	}).(*matchIndex)
	if idx.stale {
		idx.rebuild(snap)
	}
	idx.eventsSinceUse = 0
	return idx
}

func (m *matchIndex) matches(p *api.Pod) bool {
	return p.DeletionTimestamp == nil && p.Namespace == m.namespace && m.selector.Matches(p.Labels)
}

func (m *matchIndex) rebuild(s *framework.Snapshot) {
	m.perNode = make([]int32, len(s.Nodes()))
	m.nodes = s.Nodes() // never changed in place: sync builds a new list
	m.counted = newCountedSet(len(s.Nodes()))
	m.sums = nil
	m.stale = false
	for _, ni := range s.Nodes() {
		for _, pi := range ni.Pods {
			if m.matches(pi.Pod) {
				m.perNode[ni.Index]++
				m.counted.add(ni.Index, pi)
			}
		}
	}
}

// PodAdded implements framework.PodIndex.
func (m *matchIndex) PodAdded(node *framework.NodeInfo, pi *framework.PodInfo) {
	if !m.touch() || !m.matches(pi.Pod) || node.Index >= len(m.perNode) {
		return
	}
	m.perNode[node.Index]++
	m.counted.add(node.Index, pi)
	for k, sums := range m.sums {
		if k.set != nil && !k.set.mask[node.Index] {
			continue
		}
		if d := k.topo.DomainOf[node.Index]; d >= 0 {
			sums[d]++
		}
	}
}

// PodRemoved implements framework.PodIndex.
func (m *matchIndex) PodRemoved(node *framework.NodeInfo, pi *framework.PodInfo) {
	if !m.touch() {
		return
	}
	i, ok := m.counted.lookup(node.Index, pi)
	if !ok {
		return
	}
	m.counted.remove(node.Index, pi)
	m.perNode[i]--
	for k, sums := range m.sums {
		if k.set != nil && !k.set.mask[i] {
			continue
		}
		if d := k.topo.DomainOf[i]; d >= 0 {
			sums[d]--
		}
	}
}

// NodesChanged implements framework.PodIndex: domains (and maybe node
// positions) changed. The domain sums are dropped; the per-node counts
// survive when the node list is the same, else they are rebuilt on next
// use.
func (m *matchIndex) NodesChanged(s *framework.Snapshot) {
	m.sums = nil
	if m.stale || len(m.nodes) != len(s.Nodes()) {
		m.stale = true
		return
	}
	for i, ni := range s.Nodes() {
		if m.nodes[i] != ni {
			m.stale = true
			return
		}
	}
}

// domainSums returns the matching pods per domain of t over the nodes of
// set (nil: every node with the key); the slice is shared and must not be
// modified.
func (m *matchIndex) domainSums(t *framework.Topology, set *nodeSet) []int32 {
	k := sumsKey{topo: t, set: set}
	if s, ok := m.sums[k]; ok {
		return s
	}
	s := make([]int32, len(t.Domains))
	for i, n := range m.perNode {
		if set != nil && !set.mask[i] {
			continue
		}
		if d := t.DomainOf[i]; d >= 0 {
			s[d] += n
		}
	}
	if set == nil || set.cached {
		if m.sums == nil {
			m.sums = map[sumsKey][]int32{}
		}
		m.sums[k] = s
	}
	return s
}
