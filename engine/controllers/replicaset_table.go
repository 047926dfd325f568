package controllers

import "podlab.dev/podlab/engine/api"

// The ReplicaSet's sync over a per-pod table. In work-queue mode a
// ReplicaSet syncs whenever one of its pods changes — five or so times for
// every pod replaced — and each sync reads all of its pods (which are
// active, which are selected and controlled, which are ready since when).
// The table keeps those facts of each pod object aligned with the index's
// list of the ReplicaSet's pods: a pod object the last sync read too keeps
// its facts (objects are never edited once shared), so a sync reads the
// pods that changed and walks a compact table for the rest.
//
// The table covers the common case only: no orphans in the namespace
// (nothing to adopt), every pod in the ReplicaSet's namespace and every
// active pod selected (nothing to release). Otherwise the general sync
// runs, as before. TestWorkQueuesAreInvisible compares with the full path.

// table returns the facts of pods, in their order, reusing those of pod
// objects the last table sync had (both lists are in namespace/name
// order, so one walk finds them).
func (c *podFactsCache) table(rs *ReplicaSet, pods []*api.Pod) []podFacts {
	if len(pods) == len(c.pods) && replaceRowsInPlace(pods, c.pods, func(i int, p *api.Pod) {
		c.count.add(&c.aligned[i], -1)
		c.aligned[i] = c.read(rs, p)
		c.count.add(&c.aligned[i], 1)
		c.pods[i] = p
	}) {
		return c.aligned
	}
	oldFacts := c.aligned
	out := realignRows(c.spare, pods, c.pods, oldFacts, func(p *api.Pod) podFacts { return c.read(rs, p) })
	// a copy of the list: the fast path above edits it in place, and the
	// index's lists are read only (shared with clones)
	c.spare, c.aligned, c.pods = oldFacts, out, append(c.pods[:0], pods...)
	c.count = factsCount{}
	for i := range out {
		c.count.add(&out[i], 1)
	}
	return out
}

// factsCount sums table rows: what the sync needs from all of them when
// it has nothing to create or delete.
type factsCount struct {
	// unclaimable: rows that send the sync to the general path (another
	// namespace, or active and not selected: to release)
	unclaimable int
	// active, and among them fully labelled and Ready; terminating
	// (not active, being deleted, selected)
	active, fullyLabeled, ready, terminating int
}

// add adds (sign 1) or removes (-1) a row.
func (k *factsCount) add(f *podFacts, sign int) {
	if !f.sameNamespace || (f.active && !f.selected) {
		k.unclaimable += sign
	}
	switch {
	case f.active:
		k.active += sign
		if f.fullyLabeled {
			k.fullyLabeled += sign
		}
		if f.ready {
			k.ready += sign
		}
	case f.terminating && f.selected:
		k.terminating += sign
	}
}

// syncReplicaSetTable is syncReplicaSetOf over the table; it returns false,
// having done nothing, when the sync needs the general path.
func (m *Manager) syncReplicaSetTable(rs *ReplicaSet) bool {
	owned, orphans := m.q.ownedAndOrphans(rs.Namespace, rs.UID)
	if len(orphans) > 0 {
		return false
	}
	c := rs.podFactsFor()
	facts := c.table(rs, owned)
	// every owned pod is controlled by rs (the index is by controller
	// UID); claimPods keeps the active ones it selects
	if c.count.unclaimable > 0 {
		return false
	}
	nActive, nTerminating := c.count.active, c.count.terminating
	if (rs.DeletionTimestamp != nil || nActive == int(*rs.Spec.Replicas)) && rs.Spec.MinReadySeconds == 0 {
		// manageReplicas has nothing to do and availability is
		// readiness: the status is the table's sums
		m.setReplicaSetStatusCounts(rs, ReplicaSetStatus{ObservedGeneration: rs.Generation,
			Replicas: int32(nActive), FullyLabeledReplicas: int32(c.count.fullyLabeled),
			ReadyReplicas: int32(c.count.ready), AvailableReplicas: int32(c.count.ready),
			TerminatingReplicas: int32(nTerminating)})
		return true
	}
	if rs.DeletionTimestamp != nil || nActive == int(*rs.Spec.Replicas) {
		// manageReplicas has nothing to do: the status is read from the
		// table's active pods, in order
		m.setReplicaSetStatus(rs, nActive, nTerminating, func(yield func(podFacts) bool) {
			for i := range facts {
				if facts[i].active && !yield(facts[i]) {
					return
				}
			}
		})
		return true
	}
	// active is owned itself (read only) while every pod is active
	active := owned[:0:0]
	var terminating []*api.Pod
	all := true
	for i := range facts {
		f := &facts[i]
		if f.active {
			if !all {
				active = append(active, owned[i])
			}
			continue
		}
		if all {
			all = false
			// in the manager's scratch space: nothing keeps active
			// past this sync (a new slice per sync was 3 % of the
			// bytes BenchmarkDayHPA allocated)
			active = append(m.activeScratch[:0], owned[:i]...)
		}
		if f.terminating && f.selected {
			terminating = append(terminating, owned[i])
		}
	}
	if all {
		active = owned[:len(owned):len(owned)]
	}
	filtered := m.manageReplicas(rs, active)
	// filtered is active in order, less deleted pods, plus created ones
	// at the end (not in the table: read)
	j := 0
	m.replicaSetStatusOf(rs, filtered, terminating, func(p *api.Pod) podFacts {
		for j < len(owned) && owned[j] != p {
			j++
		}
		if j < len(owned) {
			return facts[j]
		}
		return c.read(rs, p)
	})
	if !all {
		// keep the space, not the pods
		clear(active[:cap(active)])
		m.activeScratch = active[:0]
	}
	return true
}
