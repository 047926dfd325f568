package controllers

import (
	"encoding/json"
	"maps"
)

// deepCopy copies plain api data through its JSON encoding.
func deepCopy[T any](in T) T {
	var out T
	b, err := json.Marshal(in)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		return in
	}
	return out
}

// Clone returns an independent Manager over another cluster (the engine's
// Clone, for undo): every workload and its status is copied, and the
// name/UID generator continues from the same state, so the clone makes
// the same decisions the original would.
func (m *Manager) Clone(c Cluster) *Manager {
	out := New(c, 0)
	out.names = m.names.clone()
	out.now, out.started = m.now, m.started
	out.memoSyncs = m.memoSyncs
	out.epoch = m.epoch
	if m.q != nil {
		// copied (the clone's cluster shares the pods); every skipped sync
		// runs again once (a sync with unchanged inputs changes nothing,
		// so this is invisible)
		defer out.cloneWorkQueues(m.q)
	}
	out.wake, out.hasWake = m.wake, m.hasWake
	out.known = maps.Clone(m.known)
	for k, r := range m.createRetry {
		c := *r
		out.createRetry[k] = &c
	}
	for k, d := range m.deployments {
		cp := *d
		cp.Deployment = deepCopy(d.Deployment)
		cp.Status = deepCopy(d.Status)
		cp.memo = nil
		out.deployments[k] = &cp
	}
	for k, rs := range m.replicaSets {
		cp := *rs
		cp.ReplicaSet = deepCopy(rs.ReplicaSet)
		cp.memo = nil
		cp.tmplMatch = templateMatch{}
		cp.factsCache = rs.factsCache.sharedWith(rs, &cp)
		out.replicaSets[k] = &cp
	}
	for k, rc := range m.replicationControllers {
		cp := *rc
		cp.ReplicaSet = deepCopy(rc.ReplicaSet)
		cp.memo = nil
		out.replicationControllers[k] = &cp
	}
	for k, s := range m.statefulSets {
		cp := *s
		cp.StatefulSet = deepCopy(s.StatefulSet)
		cp.revisions = deepCopy(s.revisions)
		cp.memo = nil
		out.statefulSets[k] = &cp
	}
	for k, ds := range m.daemonSets {
		cp := *ds
		cp.DaemonSet = deepCopy(ds.DaemonSet)
		cp.failedBackoff = map[string]*backoffEntry{}
		cp.memo = nil
		for k, e := range ds.failedBackoff {
			c := *e
			cp.failedBackoff[k] = &c
		}
		out.daemonSets[k] = &cp
	}
	for k, j := range m.jobs {
		cp := *j
		cp.Job = deepCopy(j.Job)
		cp.Status = deepCopy(j.Status)
		cp.counted = maps.Clone(j.counted)
		cp.completedIndexes = maps.Clone(j.completedIndexes)
		cp.runningSince = maps.Clone(j.runningSince)
		cp.memo = nil
		out.jobs[k] = &cp
	}
	m.cloneHPAState(out)
	for k, cj := range m.cronJobs {
		cp := *cj
		cp.CronJob = deepCopy(cj.CronJob)
		if cj.skipped != nil {
			t := *cj.skipped
			cp.skipped = &t
		}
		cp.Status = deepCopy(cj.Status)
		cp.memo = nil
		out.cronJobs[k] = &cp
	}
	return out
}

// specEqual compares two specs through their JSON encoding.
func specEqual[T any](a, b T) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}
