package controllers

// A Deployment sync reads the Deployment, its ReplicaSets (their spec,
// annotations and status) and, for Recreate, their pods. In the
// work-queue mode (queue.go) a sync that changed nothing is skipped while
// what it read stays the same: the Deployment's generation, replicas,
// pause and deletion; the status of its ReplicaSets (rsVer, moved by
// every ReplicaSet status change, as upstream's updateReplicaSet enqueues
// the owner); the set and ownership of ReplicaSets and every user
// operation (the epoch). Its own status and annotations change only in
// its own syncs, which then run again on the next pass. Recreate
// Deployments read pods and are always synced.

// deploymentQueueKey is what a Deployment sync reads, by version.
type deploymentQueueKey struct {
	epoch    uint64
	uid      string
	gen      int64
	replicas int32
	paused   bool
	deleting bool
	rsVer    uint64
}

// syncDeploymentQueued is syncDeployment behind the work queue.
func (m *Manager) syncDeploymentQueued(d *Deployment) {
	if m.q == nil || !isRollingUpdate(d) {
		m.syncDeployment(d)
		return
	}
	key := deploymentQueueKey{epoch: m.epoch, uid: d.UID, gen: d.Generation, replicas: *d.Spec.Replicas,
		paused: d.Spec.Paused, deleting: d.DeletionTimestamp != nil, rsVer: m.q.rsVer[d.UID]}
	// the key is kept in d, typed (boxing it into the memo allocated)
	if d.memo != nil && d.queuedKey == key && d.memo.holds(nil, nil, m.now) {
		d.memo.replay(m)
		return
	}
	w := m.beginMemo()
	m.syncDeployment(d)
	d.memo, d.queuedKey = w.doneIn(&d.memoSpace, nil, nil), key
}

// workloadsChanged records a change to the set of workloads or their
// ownership: every skipped sync runs again.
func (m *Manager) workloadsChanged() {
	m.changed = true
	m.invalidate()
}

// replicaSetStatusChanged enqueues the ReplicaSet's controller.
func (m *Manager) replicaSetStatusChanged(rs *ReplicaSet) {
	if m.q == nil {
		return
	}
	if ref := rs.ControllerRef(); ref != nil {
		m.q.seq++
		m.q.rsVer[ref.UID] = m.q.seq
		if ref.Kind == KindDeployment {
			if d := m.deployments[key(rs.Namespace, ref.Name)]; d != nil {
				d.queue.queued = true
			}
		}
	}
}
