package controllers

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// Deletion propagation policies (metav1.DeletionPropagation).
const (
	PropagationBackground = "Background"
	PropagationForeground = "Foreground"
	PropagationOrphan     = "Orphan"
)

// managedKinds are the owner kinds the garbage collector judges; owners
// of other kinds (nodes for mirror pods, unknown kinds) are assumed to
// exist.
var managedKinds = map[string]bool{KindDeployment: true, KindReplicaSet: true, KindReplicationController: true, KindStatefulSet: true,
	KindDaemonSet: true, KindJob: true, KindCronJob: true}

// liveUIDs returns the UIDs of every workload object (the garbage
// collector's graph looks owners up by UID).
func (m *Manager) liveUIDs() map[string]bool {
	if m.q != nil {
		// the set changes only with the epoch; the collector deletes from
		// it only along with a workload removal, which moves the epoch
		if m.q.live == nil || m.q.liveEpoch != m.epoch {
			m.q.live, m.q.liveEpoch = m.buildLiveUIDs(), m.epoch
		}
		return m.q.live
	}
	return m.buildLiveUIDs()
}

func (m *Manager) buildLiveUIDs() map[string]bool {
	live := make(map[string]bool, len(m.deployments)+len(m.replicaSets)+len(m.statefulSets)+len(m.daemonSets)+len(m.jobs)+len(m.cronJobs))
	for _, o := range m.deployments {
		live[o.UID] = true
	}
	for _, o := range m.replicaSets {
		live[o.UID] = true
	}
	for _, o := range m.replicationControllers {
		live[o.UID] = true
	}
	for _, o := range m.statefulSets {
		live[o.UID] = true
	}
	for _, o := range m.daemonSets {
		live[o.UID] = true
	}
	for _, o := range m.jobs {
		live[o.UID] = true
	}
	for _, o := range m.cronJobs {
		live[o.UID] = true
	}
	return live
}

// orphaned reports an object whose owner references all point at objects
// that are gone: the garbage collector deletes it (background cascading
// deletion). An object without owners is never collected.
//
// Deliberate difference: upstream's collector looks every owner up in the
// API server. The lab holds only what a scenario imported, often a partial
// dump (`kubectl get pods -A -o yaml` without the ReplicaSets), so an owner
// the lab never knew exists outside it: only owners the manager has known
// (known, by UID) and that are no longer live are judged gone.
func orphaned(meta *api.ObjectMeta, live, known map[string]bool) bool {
	if len(meta.OwnerReferences) == 0 {
		return false
	}
	for _, r := range meta.OwnerReferences {
		if !managedKinds[r.Kind] || !known[r.UID] || live[r.UID] {
			return false
		}
	}
	return true
}

// collectGarbage is the garbage collector's attemptToDeleteItem for the
// dependents the lab has: ReplicaSets and Jobs whose owners are gone are
// removed, pods whose owners are gone are deleted gracefully; an owner
// deleted in the foreground is removed once it has no dependents left.
func (m *Manager) collectGarbage() {
	live := m.liveUIDs()
	if m.q != nil && m.q.gcEpoch == m.epoch && m.q.gcLive != nil {
		// the owners, their UIDs and the ReplicaSets' and Jobs' owner
		// references change only with the epoch: only pods can have
		// become garbage
		m.collectPods(live)
		m.finishForegroundDeletions()
		return
	}
	for _, k := range keysOf(m, m.replicaSets) {
		if rs := m.replicaSets[k]; orphaned(&rs.ObjectMeta, live, m.known) {
			m.removeReplicaSet(rs)
			delete(live, rs.UID)
		}
	}
	for _, k := range keysOf(m, m.jobs) {
		if j := m.jobs[k]; orphaned(&j.ObjectMeta, live, m.known) {
			m.removeJob(j)
			delete(live, j.UID)
		}
	}
	m.collectPods(live)
	m.finishForegroundDeletions()
}

// collectPods deletes the pods whose owners are all gone.
func (m *Manager) collectPods(live map[string]bool) {
	pods := m.pods
	if m.q != nil {
		// only the pods that changed, unless an owner went away
		pods = func(string) []*api.Pod { return m.q.gcCandidates(live, m.epoch) }
	}
	for _, p := range pods("") {
		if p.DeletionTimestamp == nil && orphaned(&p.ObjectMeta, live, m.known) {
			if err := m.cluster.DeletePod(p.Namespace, p.Name); err == nil {
				m.acted()
			}
		}
	}
}

func (m *Manager) removeReplicaSet(rs *ReplicaSet) {
	delete(m.replicaSets, rs.Key())
	m.workloadsChanged()
}

func (m *Manager) removeJob(j *Job) {
	delete(m.jobs, j.Key())
	m.workloadsChanged()
}

// hasDependents reports whether any object still names uid as an owner.
func (m *Manager) hasDependents(uid string) bool {
	for _, rs := range m.replicaSets {
		if hasOwner(&rs.ObjectMeta, uid) {
			return true
		}
	}
	for _, j := range m.jobs {
		if hasOwner(&j.ObjectMeta, uid) {
			return true
		}
	}
	for _, p := range m.pods("") {
		if hasOwner(&p.ObjectMeta, uid) {
			return true
		}
	}
	return false
}

func hasOwner(meta *api.ObjectMeta, uid string) bool {
	for _, r := range meta.OwnerReferences {
		if r.UID == uid {
			return true
		}
	}
	return false
}

// finishForegroundDeletions removes owners deleted with propagation
// Foreground once their dependents are gone (pods fully terminated).
func (m *Manager) finishForegroundDeletions() {
	if m.q != nil && m.q.fgEpoch == m.epoch && !m.q.fgDeleting {
		// deletion timestamps are set only with a new epoch
		return
	}
	// gone reports an owner deleted in the foreground whose dependents are
	// gone, and notes one still waiting for them
	deleting := false
	gone := func(o *api.ObjectMeta) bool {
		if o.DeletionTimestamp == nil {
			return false
		}
		if m.hasDependents(o.UID) {
			deleting = true
			return false
		}
		return true
	}
	defer func() {
		if m.q != nil {
			m.q.fgEpoch, m.q.fgDeleting = m.epoch, deleting
		}
	}()
	for _, k := range keysOf(m, m.deployments) {
		if d := m.deployments[k]; gone(&d.ObjectMeta) {
			delete(m.deployments, k)
			m.workloadsChanged()
		}
	}
	for _, k := range keysOf(m, m.replicaSets) {
		if rs := m.replicaSets[k]; gone(&rs.ObjectMeta) {
			delete(m.replicaSets, k)
			m.workloadsChanged()
		}
	}
	for _, k := range keysOf(m, m.replicationControllers) {
		if rc := m.replicationControllers[k]; gone(&rc.ObjectMeta) {
			delete(m.replicationControllers, k)
			m.workloadsChanged()
		}
	}
	for _, k := range keysOf(m, m.statefulSets) {
		if s := m.statefulSets[k]; gone(&s.ObjectMeta) {
			delete(m.statefulSets, k)
			m.workloadsChanged()
		}
	}
	for _, k := range keysOf(m, m.daemonSets) {
		if s := m.daemonSets[k]; gone(&s.ObjectMeta) {
			delete(m.daemonSets, k)
			m.workloadsChanged()
		}
	}
	for _, k := range keysOf(m, m.jobs) {
		if s := m.jobs[k]; gone(&s.ObjectMeta) {
			delete(m.jobs, k)
			m.workloadsChanged()
		}
	}
}

// Delete deletes a workload (kind as in ownerReferences) with the given
// propagation policy, as `kubectl delete --cascade=background|foreground|orphan`:
// Background removes the object at once and lets the garbage collector
// delete its ReplicaSets/Jobs and pods (gracefully); Foreground marks it
// deleting, deletes dependents first and removes it when none is left;
// Orphan removes it and strips its owner reference from dependents.
func (m *Manager) Delete(kind, namespace, name, propagation string) error {
	meta, remove := m.lookup(kind, namespace, name)
	if meta == nil {
		return fmt.Errorf("%s %q not found", kind, key(namespace, name))
	}
	switch propagation {
	case "", PropagationBackground:
		remove()
	case PropagationForeground:
		t := m.now
		meta.DeletionTimestamp = &t
		m.foregroundDeleteDependents(meta.UID)
	case PropagationOrphan:
		m.orphanDependents(meta.UID)
		remove()
	default:
		return fmt.Errorf("unknown propagation policy %q (use Background, Foreground or Orphan)", propagation)
	}
	m.workloadsChanged()
	return nil
}

// foregroundDeleteDependents marks dependent ReplicaSets/Jobs deleting in
// the foreground too and deletes dependent pods.
func (m *Manager) foregroundDeleteDependents(uid string) {
	t := m.now
	// in key order: map order would make the deletions (and their events)
	// differ from run to run
	for _, k := range sortedKeys(m.replicaSets) {
		if rs := m.replicaSets[k]; hasOwner(&rs.ObjectMeta, uid) && rs.DeletionTimestamp == nil {
			rs.DeletionTimestamp = &t
			m.foregroundDeleteDependents(rs.UID)
		}
	}
	for _, k := range sortedKeys(m.jobs) {
		if j := m.jobs[k]; hasOwner(&j.ObjectMeta, uid) && j.DeletionTimestamp == nil {
			j.DeletionTimestamp = &t
			m.foregroundDeleteDependents(j.UID)
		}
	}
	for _, p := range m.cluster.Pods("") {
		if hasOwner(&p.ObjectMeta, uid) && p.DeletionTimestamp == nil {
			if m.cluster.DeletePod(p.Namespace, p.Name) == nil {
				m.acted()
			}
		}
	}
}

// orphanDependents strips uid from every dependent's owner references.
func (m *Manager) orphanDependents(uid string) {
	for _, rs := range m.replicaSets {
		rs.OwnerReferences = removeOwner(rs.OwnerReferences, uid)
	}
	for _, j := range m.jobs {
		j.OwnerReferences = removeOwner(j.OwnerReferences, uid)
	}
	for _, p := range m.cluster.Pods("") {
		if hasOwner(&p.ObjectMeta, uid) {
			if m.cluster.SetPodOwnership(p.Namespace, p.Name, p.Labels, removeOwner(p.OwnerReferences, uid)) == nil {
				m.acted()
			}
		}
	}
}

// lookup finds a workload's metadata and a func removing it.
func (m *Manager) lookup(kind, namespace, name string) (*api.ObjectMeta, func()) {
	k := key(namespace, name)
	switch kind {
	case KindDeployment:
		if o := m.deployments[k]; o != nil {
			return &o.ObjectMeta, func() { delete(m.deployments, k) }
		}
	case KindReplicaSet:
		if o := m.replicaSets[k]; o != nil {
			return &o.ObjectMeta, func() { delete(m.replicaSets, k) }
		}
	case KindReplicationController:
		if o := m.replicationControllers[k]; o != nil {
			return &o.ObjectMeta, func() { delete(m.replicationControllers, k) }
		}
	case KindStatefulSet:
		if o := m.statefulSets[k]; o != nil {
			return &o.ObjectMeta, func() { delete(m.statefulSets, k) }
		}
	case KindDaemonSet:
		if o := m.daemonSets[k]; o != nil {
			return &o.ObjectMeta, func() { delete(m.daemonSets, k) }
		}
	case KindJob:
		if o := m.jobs[k]; o != nil {
			return &o.ObjectMeta, func() { delete(m.jobs, k) }
		}
	case KindCronJob:
		if o := m.cronJobs[k]; o != nil {
			return &o.ObjectMeta, func() { delete(m.cronJobs, k) }
		}
	}
	return nil, nil
}
