package podtopologyspread

import (
	"podlab.dev/podlab/engine/scheduler/framework"
)

// CloneFor implements framework.CloneableIndex: a cloned snapshot (the
// engine's Clone, for checkpoints) keeps the counts instead of rescanning
// every pod on its first scheduling cycle. The counts are per node
// position and the clone has the same nodes in the same order; the
// domain sums are caches and are recomputed.
func (m *matchIndex) CloneFor(s *framework.Snapshot) framework.PodIndex {
	c := &matchIndex{namespace: m.namespace, selector: m.selector, stale: m.stale, eventsSinceUse: m.eventsSinceUse}
	if m.stale {
		return c
	}
	if len(m.nodes) != len(s.Nodes()) {
		c.stale = true
		return c
	}
	c.perNode = append([]int32(nil), m.perNode...)
	c.counted = m.counted.clone()
	c.nodes = s.Nodes()
	return c
}

// PodInfoReplaced implements framework.PodInfoReplacer: the pod counted
// under old is now known by pi.
func (m *matchIndex) PodInfoReplaced(node *framework.NodeInfo, old, pi *framework.PodInfo) {
	if m.stale {
		return
	}
	if _, ok := m.counted.lookup(node.Index, old); ok {
		m.counted.remove(node.Index, old)
		m.counted.add(node.Index, pi)
	}
}
