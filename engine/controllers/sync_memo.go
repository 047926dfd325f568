package controllers

import (
	"reflect"
	"unsafe"

	"podlab.dev/podlab/engine/api"
)

// The manager runs every controller after every cluster change (see
// Reconcile). Upstream's controllers sync only the objects a watch event
// enqueued; here a sync that changed nothing is remembered with its
// inputs, and while they stay the same the next sync is skipped — its
// outcome would be the same nothing. The inputs of a ReplicaSet sync are
// its own spec and status (replicaSetMemoKey), its claim candidates (the
// pods it controls and its namespace's orphans) and the clock, which it
// reads only through pod availability and create back-off, both of which
// ask for a wake at the instant their answer changes. Pods are never
// modified in place (the engine installs a new object on every change),
// so the same pod pointers in the same order mean the same pods.

// SkipUnchangedSyncs lets the manager skip a sync whose inputs are the
// same as those of the last sync of the object, which changed nothing.
// The cluster must never modify a pod object it returned from Pods in
// place: a changed pod must be a new object (the engine works this way).
func (m *Manager) SkipUnchangedSyncs(on bool) {
	m.memoSyncs = on
	if !on {
		m.q = nil
		m.prevList, m.prevSorted, m.prevByOwner, m.prevOrphans = nil, nil, nil, nil
		for _, rs := range m.replicaSets {
			rs.memo = nil
		}
		for _, rc := range m.replicationControllers {
			rc.memo = nil
		}
	}
}

// syncMemo is one sync that changed nothing.
type syncMemo struct {
	key  any
	pods []*api.Pod
	// wake is the earliest wake the sync asked for (none if !hasWake):
	// the memo holds until then and the skipped sync asks for it again.
	wake    api.Time
	hasWake bool
}

// holds reports whether a sync with these inputs at now would repeat the
// memoised one.
func (s *syncMemo) holds(key any, pods []*api.Pod, now api.Time) bool {
	if s == nil || s.key != key || len(s.pods) != len(pods) || (s.hasWake && now >= s.wake) {
		return false
	}
	for i, p := range pods {
		if s.pods[i] != p {
			return false
		}
	}
	return true
}

// replay has the skipped sync's one effect: its wake request.
func (s *syncMemo) replay(m *Manager) {
	if s.hasWake {
		m.requeueAt(s.wake)
	}
}

// beginMemo starts watching a sync; its done ends it and returns its
// memo, or nil when the sync changed something (created, deleted or
// relabelled a pod, raised an event, changed a status). A value, not a
// closure: one sync per object per pass, so a heap closure each showed
// in the allocation profile.
func (m *Manager) beginMemo() memoWatch {
	w := memoWatch{m: m, ops: m.ops, changed: m.changed}
	m.changed = false
	m.syncHasWake = false
	return w
}

// memoWatch is a sync being watched (beginMemo).
type memoWatch struct {
	m       *Manager
	ops     int
	changed bool
}

func (w memoWatch) done(key any, pods []*api.Pod) *syncMemo {
	m := w.m
	acted := m.changed || m.ops != w.ops
	m.changed = m.changed || w.changed
	if acted {
		return nil
	}
	return &syncMemo{key: key, pods: pods, wake: m.syncWake, hasWake: m.syncHasWake}
}

// doneIn is done with the memo written to space (the object's own, so
// that a memoised sync allocates nothing).
func (w memoWatch) doneIn(space *syncMemo, key any, pods []*api.Pod) *syncMemo {
	m := w.m
	acted := m.changed || m.ops != w.ops
	m.changed = m.changed || w.changed
	if acted {
		return nil
	}
	*space = syncMemo{key: key, pods: pods, wake: m.syncWake, hasWake: m.syncHasWake}
	return space
}

// rsMemoKey is what a ReplicaSet sync reads of the ReplicaSet itself.
type rsMemoKey struct {
	uid        string
	replicas   int32
	generation int64
	deleting   bool
	minReady   int32
	status     ReplicaSetStatus
	// the template's labels (FullyLabeledReplicas) and the selector, by
	// identity: both are replaced, never edited, when a spec changes
	labels    unsafe.Pointer
	nLabels   int
	selector  *api.LabelSelector
	ownerRefs int
}

func replicaSetMemoKey(rs *ReplicaSet) rsMemoKey {
	return rsMemoKey{
		uid: rs.UID, replicas: *rs.Spec.Replicas, generation: rs.Generation, deleting: rs.DeletionTimestamp != nil,
		minReady: rs.Spec.MinReadySeconds, status: rs.Status,
		labels: reflect.ValueOf(rs.Spec.Template.Labels).UnsafePointer(), nLabels: len(rs.Spec.Template.Labels),
		selector: rs.Spec.Selector, ownerRefs: len(rs.OwnerReferences),
	}
}

// queuedRSKey is what a ReplicaSet sync reads in the work-queue mode: the
// ReplicaSet, its claim candidates by version (queue.go) and the epoch.
type queuedRSKey struct {
	rs             rsMemoKey
	owned, orphans uint64
	epoch          uint64
}
