package controllers

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine/api"
)

// syncScale is DeploymentController.sync: scale (proportionally during a
// rollout), clean up a paused deployment, update status.
func (m *Manager) syncScale(d *Deployment, rsList []*ReplicaSet) {
	newRS, old := m.replicaSetsAndSyncRevision(d, rsList, false)
	m.scaleDeployment(d, newRS, old)
	if d.Spec.Paused {
		m.cleanupDeployment(d, old)
	}
	m.syncDeploymentStatus(d, append(old, newRS), newRS)
}

// scaleDeployment is DeploymentController.scale: proportional scaling.
func (m *Manager) scaleDeployment(d *Deployment, newRS *ReplicaSet, old []*ReplicaSet) {
	if rs := findActiveOrLatest(newRS, old); rs != nil {
		if *rs.Spec.Replicas != *d.Spec.Replicas {
			m.scaleReplicaSet(rs, *d.Spec.Replicas, d, false)
		}
		return
	}
	if isSaturated(d, newRS) {
		for _, rs := range filterActive(old) {
			m.scaleReplicaSet(rs, 0, d, false)
		}
		return
	}
	if !isRollingUpdate(d) {
		return
	}
	all := filterActive(append(append([]*ReplicaSet(nil), old...), newRS))
	allReplicas := replicaCount(all)
	var allowed int32
	if *d.Spec.Replicas > 0 {
		allowed = *d.Spec.Replicas + maxSurge(d)
	}
	toAdd := allowed - allReplicas
	switch {
	case toAdd > 0:
		sortBySizeNewer(all)
	case toAdd < 0:
		sortBySizeOlder(all)
	}
	var added int32
	sizes := make([]int32, len(all))
	for i, rs := range all {
		if toAdd != 0 {
			p := replicaSetProportion(rs, d, toAdd, added)
			sizes[i] = *rs.Spec.Replicas + p
			added += p
		} else {
			sizes[i] = *rs.Spec.Replicas
		}
	}
	for i, rs := range all {
		if i == 0 && toAdd != 0 {
			sizes[i] = max(sizes[i]+toAdd-added, 0)
		}
		m.scaleReplicaSet(rs, sizes[i], d, true)
	}
}

// rolloutRolling is DeploymentController.rolloutRolling.
func (m *Manager) rolloutRolling(d *Deployment, rsList []*ReplicaSet) {
	newRS, old := m.replicaSetsAndSyncRevision(d, rsList, true)
	if newRS == nil {
		return // collision: retried on the next pass
	}
	all := append(append([]*ReplicaSet(nil), old...), newRS)
	if m.reconcileNewReplicaSet(all, newRS, d) {
		m.syncRolloutStatus(d, all, newRS)
		return
	}
	if m.reconcileOldReplicaSets(all, filterActive(old), newRS, d) {
		m.syncRolloutStatus(d, all, newRS)
		return
	}
	if deploymentComplete(d, &d.Status) {
		m.cleanupDeployment(d, old)
	}
	m.syncRolloutStatus(d, all, newRS)
}

func (m *Manager) reconcileNewReplicaSet(all []*ReplicaSet, newRS *ReplicaSet, d *Deployment) bool {
	if *newRS.Spec.Replicas == *d.Spec.Replicas {
		return false
	}
	if *newRS.Spec.Replicas > *d.Spec.Replicas {
		return m.scaleReplicaSet(newRS, *d.Spec.Replicas, d, false)
	}
	return m.scaleReplicaSet(newRS, newRSNewReplicas(d, all, newRS), d, false)
}

// reconcileOldReplicaSets is DeploymentController.reconcileOldReplicaSets:
// maxScaledDown = allPods - minAvailable - newRSUnavailable; unhealthy old
// replicas go first, then old ReplicaSets (oldest first) down to what
// availability allows.
func (m *Manager) reconcileOldReplicaSets(all, old []*ReplicaSet, newRS *ReplicaSet, d *Deployment) bool {
	if replicaCount(old) == 0 {
		return false
	}
	allPods := replicaCount(all)
	minAvailable := *d.Spec.Replicas - maxUnavailable(d)
	newUnavailable := *newRS.Spec.Replicas - newRS.Status.AvailableReplicas
	maxScaledDown := allPods - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return false
	}
	cleaned := m.cleanupUnhealthyReplicas(old, d, maxScaledDown)
	scaled := m.scaleDownOldForRollingUpdate(append(append([]*ReplicaSet(nil), old...), newRS), old, d)
	return cleaned+scaled > 0
}

func (m *Manager) cleanupUnhealthyReplicas(old []*ReplicaSet, d *Deployment, maxCleanup int32) int32 {
	sortByCreation(old)
	var total int32
	for _, rs := range old {
		if total >= maxCleanup {
			break
		}
		if *rs.Spec.Replicas == 0 || *rs.Spec.Replicas == rs.Status.AvailableReplicas {
			continue
		}
		n := min(maxCleanup-total, *rs.Spec.Replicas-rs.Status.AvailableReplicas)
		m.scaleReplicaSet(rs, *rs.Spec.Replicas-n, d, false)
		total += n
	}
	return total
}

func (m *Manager) scaleDownOldForRollingUpdate(all, old []*ReplicaSet, d *Deployment) int32 {
	minAvailable := *d.Spec.Replicas - maxUnavailable(d)
	available := availableCount(all)
	if available <= minAvailable {
		return 0
	}
	sortByCreation(old)
	var total int32
	want := available - minAvailable
	for _, rs := range old {
		if total >= want {
			break
		}
		if *rs.Spec.Replicas == 0 {
			continue
		}
		n := min(*rs.Spec.Replicas, want-total)
		m.scaleReplicaSet(rs, *rs.Spec.Replicas-n, d, false)
		total += n
	}
	return total
}

// rolloutRecreate is DeploymentController.rolloutRecreate: scale every old
// ReplicaSet to 0, wait until none of their pods is left running
// (terminating pods included), then create/scale the new one.
func (m *Manager) rolloutRecreate(d *Deployment, rsList []*ReplicaSet) {
	newRS, old := m.replicaSetsAndSyncRevision(d, rsList, false)
	all := append(append([]*ReplicaSet(nil), old...), newRS)
	scaled := false
	for _, rs := range filterActive(old) {
		if m.scaleReplicaSet(rs, 0, d, false) {
			scaled = true
		}
	}
	if scaled || m.oldPodsRunning(d, newRS, old) {
		m.syncRolloutStatus(d, all, newRS)
		return
	}
	if newRS == nil {
		newRS, old = m.replicaSetsAndSyncRevision(d, rsList, true)
		if newRS == nil {
			return
		}
		all = append(append([]*ReplicaSet(nil), old...), newRS)
	}
	m.scaleReplicaSet(newRS, *d.Spec.Replicas, d, false)
	if deploymentComplete(d, &d.Status) {
		m.cleanupDeployment(d, old)
	}
	m.syncRolloutStatus(d, all, newRS)
}

// oldPodsRunning is recreate.go oldPodsRunning over getPodMapForDeployment.
func (m *Manager) oldPodsRunning(d *Deployment, newRS *ReplicaSet, old []*ReplicaSet) bool {
	if r, _, _, _ := actualReplicaCount(old); r > 0 {
		return true
	}
	oldUIDs := map[string]bool{}
	for _, rs := range old {
		oldUIDs[rs.UID] = true
	}
	for _, p := range m.pods(d.Namespace) {
		ref := p.ControllerRef()
		if ref == nil || !oldUIDs[ref.UID] || !d.selector.Matches(p.Labels) {
			continue
		}
		if p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodSucceeded {
			return true
		}
	}
	return false
}

// cleanupDeployment is DeploymentController.cleanupDeployment: keep
// revisionHistoryLimit old ReplicaSets, deleting the oldest empty ones.
func (m *Manager) cleanupDeployment(d *Deployment, old []*ReplicaSet) {
	if d.Spec.RevisionHistoryLimit == nil || *d.Spec.RevisionHistoryLimit == 1<<31-1 {
		return
	}
	var cleanable []*ReplicaSet
	for _, rs := range old {
		if rs != nil && rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := int32(len(cleanable)) - *d.Spec.RevisionHistoryLimit
	if diff <= 0 {
		return
	}
	sortByRevision(cleanable)
	for i := int32(0); i < diff; i++ {
		rs := cleanable[i]
		if rs.Status.Replicas != 0 || *rs.Spec.Replicas != 0 || rs.Generation > rs.Status.ObservedGeneration {
			continue
		}
		m.removeReplicaSet(rs)
	}
}

// calculateDeploymentStatus is deployment/sync.go calculateStatus.
func (m *Manager) calculateDeploymentStatus(all []*ReplicaSet, newRS *ReplicaSet, d *Deployment) DeploymentStatus {
	replicas, ready, available, terminating := actualReplicaCount(all)
	updated, _, _, _ := actualReplicaCount([]*ReplicaSet{newRS})
	unavailable := max(replicaCount(all)-available, 0)
	// The conditions are shared with d's, not copied: every edit of a
	// conditions slice (setConditionIn, removeConditionFrom) builds a new
	// one, so sharing is invisible, and the copy was allocated on every
	// sync (87 MB over BenchmarkDayHPA's day). An empty list becomes nil,
	// as the copy made it.
	conds := d.Status.Conditions
	if len(conds) == 0 {
		conds = nil
	}
	st := DeploymentStatus{ObservedGeneration: d.Generation, Replicas: replicas, UpdatedReplicas: updated,
		ReadyReplicas: ready, AvailableReplicas: available, UnavailableReplicas: unavailable,
		TerminatingReplicas: terminating, CollisionCount: d.Status.CollisionCount, Conditions: conds}
	if available >= *d.Spec.Replicas-maxUnavailable(d) {
		m.setCondition(&st, DeploymentAvailable, api.ConditionTrue, reasonMinimumAvailable, "Deployment has minimum availability.")
	} else {
		m.setCondition(&st, DeploymentAvailable, api.ConditionFalse, reasonMinimumUnavailable, "Deployment does not have minimum availability.")
	}
	return st
}

func (m *Manager) syncDeploymentStatus(d *Deployment, all []*ReplicaSet, newRS *ReplicaSet) {
	m.applyDeploymentStatus(d, m.calculateDeploymentStatus(all, newRS, d))
}

func (m *Manager) applyDeploymentStatus(d *Deployment, st DeploymentStatus) {
	if !deploymentStatusEqual(d.Status, st) {
		d.Status = st
		m.changed = true
	}
}

// deploymentComplete is deploymentutil.DeploymentComplete.
func deploymentComplete(d *Deployment, st *DeploymentStatus) bool {
	r := *d.Spec.Replicas
	return st.UpdatedReplicas == r && st.Replicas == r && st.AvailableReplicas == r && st.ObservedGeneration >= d.Generation
}

// deploymentProgressing is deploymentutil.DeploymentProgressing.
func deploymentProgressing(d *Deployment, st *DeploymentStatus) bool {
	old := d.Status
	return st.UpdatedReplicas > old.UpdatedReplicas ||
		st.Replicas-st.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		st.ReadyReplicas > old.ReadyReplicas || st.AvailableReplicas > old.AvailableReplicas
}

// syncRolloutStatus is progress.go syncRolloutStatus (the Progressing
// condition and progressDeadlineSeconds on the virtual clock).
func (m *Manager) syncRolloutStatus(d *Deployment, all []*ReplicaSet, newRS *ReplicaSet) {
	st := m.calculateDeploymentStatus(all, newRS, d)
	if !hasProgressDeadline(d) {
		st.Conditions = removeConditionFrom(st.Conditions, DeploymentProgressing)
	}
	cur := d.condition(DeploymentProgressing)
	complete := st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == reasonNewRSAvailable
	if hasProgressDeadline(d) && !complete {
		name := func(format, dflt string) string {
			if newRS != nil {
				return fmt.Sprintf(format, "ReplicaSet", newRS.Name)
			}
			return fmt.Sprintf(format, "Deployment", d.Name)
		}
		switch {
		case deploymentComplete(d, &st):
			m.setCondition(&st, DeploymentProgressing, api.ConditionTrue, reasonNewRSAvailable, name("%s %q has successfully progressed.", ""))
		case deploymentProgressing(d, &st):
			c := Condition{Type: DeploymentProgressing, Status: api.ConditionTrue, Reason: reasonRSUpdated,
				Message: name("%s %q is progressing.", ""), LastUpdateTime: m.now, LastTransitionTime: m.now}
			if cur != nil {
				if cur.Status == api.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				st.Conditions = removeConditionFrom(st.Conditions, DeploymentProgressing)
			}
			st.Conditions = setConditionIn(st.Conditions, c)
		case deploymentTimedOut(d, &st, m.now):
			m.setCondition(&st, DeploymentProgressing, api.ConditionFalse, reasonTimedOut, name("%s %q has timed out progressing.", ""))
		}
	}
	if deploymentStatusEqual(d.Status, st) {
		// requeueStuckDeployment: look again when the deadline passes.
		if c := d.condition(DeploymentProgressing); hasProgressDeadline(d) && c != nil && !deploymentComplete(d, &st) && c.Reason != reasonTimedOut {
			at := c.LastUpdateTime.Add(seconds(*d.Spec.ProgressDeadlineSeconds)) + 1
			// Upstream requeues rate-limited when the deadline is less than a
			// second away or gone. Once it is gone only a Progressing
			// condition can still time out; a NewReplicaSetAvailable one
			// (a finished rollout whose pods went away) never does, so
			// waking again would change nothing — and waking "now" forever
			// would stall the virtual clock.
			if at <= m.now.Add(time.Second) {
				if c.Reason == reasonNewRSAvailable {
					return
				}
				at = m.now.Add(time.Second)
			}
			m.requeueAt(at)
		}
		return
	}
	d.Status = st
	m.changed = true
}

// deploymentTimedOut is deploymentutil.DeploymentTimedOut.
func deploymentTimedOut(d *Deployment, st *DeploymentStatus, now api.Time) bool {
	if !hasProgressDeadline(d) {
		return false
	}
	c := findCondition(st.Conditions, DeploymentProgressing)
	if c == nil || c.Reason == reasonNewRSAvailable {
		return false
	}
	if c.Reason == reasonTimedOut {
		return true
	}
	return c.LastUpdateTime.Add(seconds(*d.Spec.ProgressDeadlineSeconds)) < now
}
