package controllers

import (
	"maps"

	"podlab.dev/podlab/engine/internal/cowmap"
)

// cloneWorkQueues gives a clone (Manager.Clone) the work queues of the
// manager it copies, without rebuilding them from its cluster's pods: the
// clone's cluster holds the same pod objects (the engine shares them
// between clones), so the indexes are the original's with the changes
// reported but not yet applied still pending. Both managers share the
// index lists, and neither edits a shared one in place (each forgets the
// lists it owned, mine, and builds a new one on the next change:
// queue_batch.go), so each replaces its own. Rebuilding
// instead costs a sorted insertion per pod — a quarter of a second at
// 30,000 pods, the most of a checkpoint.
//
// What the clone starts with is what UseWorkQueues(true) would give it —
// a new epoch (every skipped sync runs again once), every controller of
// an indexed pod and every namespace with orphans queued — but for two
// things that are the original's: the versions (only their moves are
// read, against memos, which a clone drops), and the garbage collector's
// record (the live owners at its last pass and the pods changed since),
// so its first pass judges only those pods unless an owner went away,
// as the original's next pass would, instead of all of them (a pod that
// did not change and whose owners all live is not garbage).
func (m *Manager) cloneWorkQueues(from *workQueues) {
	lookup, ok := m.cluster.(PodLookup)
	if from == nil || !ok {
		m.UseWorkQueues(from != nil)
		return
	}
	m.SkipUnchangedSyncs(true)
	from.own = &cowmap.Owner{}
	// both now hold every list: neither may edit one in place
	// (queue_batch.go), each builds its own on the next change
	from.mine = nil
	m.q = &workQueues{
		m: m, lookup: lookup,
		byKey:     from.byKey, // shared: both write through new tokens
		own:       &cowmap.Owner{},
		byOwner:   maps.Clone(from.byOwner),
		orphans:   maps.Clone(from.orphans),
		ownerVer:  maps.Clone(from.ownerVer),
		orphanVer: maps.Clone(from.orphanVer),
		rsVer:     maps.Clone(from.rsVer),
		seq:       from.seq,
		pending:   make(map[string]struct{}, len(from.pending)),
		gcPending: make(map[string]struct{}, len(from.gcPending)),
		gcLive:    maps.Clone(from.gcLive),
		gcEpoch:   from.gcEpoch,
		sorted:    from.sorted,
		byLabel:   maps.Clone(from.byLabel),
	}
	// not maps.Clone: that keeps the capacity, and pending once held
	// every pod
	for k := range from.pending {
		m.q.pending[k] = struct{}{}
	}
	for k := range from.gcPending {
		m.q.gcPending[k] = struct{}{}
	}
	for _, list := range m.q.byOwner {
		if len(list) > 0 {
			// one pod of the list names the controller
			p := list[0]
			m.enqueueOwner(p.Namespace, p.ControllerRef())
		}
	}
	for ns := range m.q.orphans {
		m.enqueueNamespace(ns)
	}
	m.invalidate()
}
