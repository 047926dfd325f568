package controllers

import (
	"fmt"
	"sort"
	"time"

	"podlab.dev/podlab/engine/api"
)

// maxPassesPerInstant bounds how often Reconcile re-runs the controllers at
// one virtual instant. Each pass lets every controller react to what the
// others did (a Deployment scaling a ReplicaSet, the ReplicaSet creating
// pods), like the real controllers reacting to watch events within
// milliseconds. A converging cluster needs a handful of passes.
const maxPassesPerInstant = 64

// Manager runs every workload controller over one cluster. It owns the
// workload objects and their status. It is not safe for concurrent use:
// the engine calls it from its single event loop.
type Manager struct {
	cluster Cluster
	names   *names
	now     api.Time
	started bool

	deployments map[string]*Deployment
	replicaSets map[string]*ReplicaSet
	// replicationControllers run as ReplicaSets (see AddReplicationController).
	replicationControllers map[string]*ReplicaSet
	statefulSets           map[string]*StatefulSet
	daemonSets             map[string]*DaemonSet
	jobs                   map[string]*Job
	cronJobs               map[string]*CronJob
	hpas                   map[string]*HorizontalPodAutoscaler
	// known holds the UID of every workload the manager has managed
	// (added, created or adopted), also after it was deleted: the garbage
	// collector judges only owner references to these (gc.go).
	known map[string]bool
	// loads and podCPU are the CPU use model the HPA reads (hpa_usage.go).
	loads  map[string]*workloadLoad
	podCPU map[string]int64
	// hpaDue and loadsDue are the earliest HPA sync and load step to
	// come (syncHPAs, resolveLoads); a clone starts without them.
	hpaDue, loadsDue dueCache

	// wake is the earliest future instant a controller asked to be run at
	// (minReadySeconds, Job run time, TTL, cron schedule); 0 when none.
	wake    api.Time
	hasWake bool

	// createRetry rate-limits a workload whose pod creations fail, as the
	// controllers' work queues do (see createAllowed).
	createRetry map[string]*retryState

	// changed records that a controller acted during the current pass.
	changed bool
	// podCache holds the pods of the current Reconcile; nil after a
	// controller changed pods.
	podCache []*api.Pod
	// byOwner indexes podCache by controller UID; orphans (no controller)
	// by namespace. Built lazily, dropped with podCache.
	byOwner map[string][]*api.Pod
	orphans map[string][]*api.Pod

	// ops counts pod changes and events (acted, record); syncWake is the
	// earliest wake asked for during the current memoised sync. Both let
	// a sync tell whether it changed anything (sync_memo.go).
	ops         int
	syncWake    api.Time
	syncHasWake bool
	// memoSyncs enables skipping syncs whose inputs did not change; the
	// cluster must replace pod objects rather than edit them
	// (SkipUnchangedSyncs).
	memoSyncs bool
	// activeScratch is syncReplicaSetTable's list of active pods, reused
	// (empty between syncs).
	activeScratch []*api.Pod
	// prevList is the cluster's last pod list, prevSorted the same in
	// key order, prevByOwner/prevOrphans its owner index (nil until
	// built): reused while the cluster returns the same pod objects.
	prevList, prevSorted     []*api.Pod
	prevByOwner, prevOrphans map[string][]*api.Pod
	// q is the incremental pod index of the work-queue mode (queue.go);
	// nil on the full path. epoch moves on any change that makes every
	// skipped sync run again.
	q     *workQueues
	epoch uint64
}

// New returns a Manager over the cluster; seed makes generated pod-name
// suffixes and UIDs reproducible.
func New(c Cluster, seed int64) *Manager {
	return &Manager{
		cluster:                c,
		names:                  newNames(seed),
		deployments:            map[string]*Deployment{},
		replicaSets:            map[string]*ReplicaSet{},
		replicationControllers: map[string]*ReplicaSet{},
		statefulSets:           map[string]*StatefulSet{},
		daemonSets:             map[string]*DaemonSet{},
		jobs:                   map[string]*Job{},
		cronJobs:               map[string]*CronJob{},
		createRetry:            map[string]*retryState{},
		known:                  map[string]bool{},
		hpas:                   map[string]*HorizontalPodAutoscaler{},
		loads:                  map[string]*workloadLoad{},
		podCPU:                 map[string]int64{},
	}
}

// Start lets the controllers act. The engine calls it once the whole
// scenario has been loaded, so a ReplicaSet sees every pre-existing pod (and
// adopts the orphans among them) before it creates or deletes any.
func (m *Manager) Start() { m.started = true }

// Started reports whether Start was called.
func (m *Manager) Started() bool { return m.started }

// NextWake returns the earliest future instant at which some controller
// wants to run again even if nothing changes in the cluster.
func (m *Manager) NextWake() (api.Time, bool) { return m.wake, m.hasWake }

// requeueAt asks for a Reconcile at t (AddAfter on upstream work queues).
func (m *Manager) requeueAt(t api.Time) {
	if t <= m.now {
		t = m.now + 1
	}
	if !m.hasWake || t < m.wake {
		m.wake, m.hasWake = t, true
	}
	if !m.syncHasWake || t < m.syncWake {
		m.syncWake, m.syncHasWake = t, true
	}
}

// Reconcile runs every controller at virtual time now until none of them
// acts any more (or maxPassesPerInstant is reached). It returns the number
// of passes that changed something.
func (m *Manager) Reconcile(now api.Time) int {
	if !m.started {
		return 0
	}
	m.now = now
	acted := 0
	m.podCache = nil // the cluster may have changed since the last call
	if m.changed {
		// a user operation (Scale, UpdateDeployment, Delete, ...) changed
		// workloads since the last Reconcile
		m.invalidate()
	}
	for pass := 0; pass < maxPassesPerInstant; pass++ {
		m.changed = false
		m.hasWake = false
		m.syncAll()
		if !m.changed {
			break
		}
		acted++
	}
	m.podCache = nil
	return acted
}

// syncAll runs each controller once, in a fixed order.
func (m *Manager) syncAll() {
	// The HPA first: a rescale is seen by the workload controllers in the
	// same pass.
	m.resolveLoads()
	m.syncHPAs()
	for _, k := range keysOf(m, m.cronJobs) {
		cj := m.cronJobs[k]
		if m.skipQueued(&cj.queue, cj.memo) {
			continue
		}
		cj.memo = m.memoised(func() { m.syncCronJob(cj) })
		m.synced(&cj.queue, cj.memo)
	}
	for _, k := range keysOf(m, m.jobs) {
		if j, ok := m.jobs[k]; ok {
			if m.skipQueued(&j.queue, j.memo) {
				continue
			}
			j.memo = m.memoised(func() { m.syncJob(j) })
			m.synced(&j.queue, j.memo)
			if j.memo == nil {
				m.enqueueCronJobOf(j)
			}
		}
	}
	for _, d := range valuesOf(m, m.deployments) {
		if isRollingUpdate(d) && m.skipQueued(&d.queue, d.memo) {
			continue
		}
		m.syncDeploymentQueued(d)
		m.synced(&d.queue, d.memo)
		if d.memo == nil {
			// it may have scaled or annotated its ReplicaSets
			m.enqueueReplicaSetsOf(d)
		}
	}
	// the objects cached with the keys (valuesOf) while the epoch stays:
	// a ReplicaSet removed during the loop moves it, and from then on
	// each key is looked up again
	rsKeys, rsVals, rsEpoch := keysOf(m, m.replicaSets), valuesOf(m, m.replicaSets), m.epoch
	for i, k := range rsKeys {
		rs := rsVals[i]
		if m.epoch != rsEpoch {
			var ok bool
			if rs, ok = m.replicaSets[k]; !ok {
				continue
			}
		}
		if m.skipQueued(&rs.queue, rs.memo) {
			continue
		}
		m.syncReplicaSet(rs)
		m.synced(&rs.queue, rs.memo)
	}
	for _, k := range keysOf(m, m.replicationControllers) {
		if rc, ok := m.replicationControllers[k]; ok {
			m.syncReplicaSet(rc)
		}
	}
	// StatefulSets and DaemonSets read pod availability under
	// minReadySeconds without asking for a wake: only those without
	// minReadySeconds can wait in the queue (queue.go)
	for _, k := range keysOf(m, m.statefulSets) {
		s := m.statefulSets[k]
		if s.Spec.MinReadySeconds == 0 && m.skipQueued(&s.queue, s.memo) {
			continue
		}
		s.memo = m.memoised(func() { m.syncStatefulSet(s) })
		m.synced(&s.queue, s.memo)
	}
	for _, k := range keysOf(m, m.daemonSets) {
		ds := m.daemonSets[k]
		if ds.Spec.MinReadySeconds == 0 && m.skipQueued(&ds.queue, ds.memo) {
			continue
		}
		ds.memo = m.memoised(func() { m.syncDaemonSet(ds) })
		m.synced(&ds.queue, ds.memo)
	}
	m.collectGarbage()
}

func sortedKeys[V any](mp map[string]V) []string {
	keys := make([]string, 0, len(mp))
	for k := range mp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// pods returns the cluster's pods of the namespace for the current pass.
func (m *Manager) pods(namespace string) []*api.Pod {
	if m.q != nil {
		m.podCache = m.q.all()
	} else if m.podCache == nil {
		list := m.cluster.Pods("")
		if m.memoSyncs && samePods(list, m.prevList) {
			// pods are never edited in place (SkipUnchangedSyncs): the same
			// objects give the same order and owner index as last time
			m.podCache, m.byOwner, m.orphans = m.prevSorted, m.prevByOwner, m.prevOrphans
		} else {
			m.podCache = list
			m.byOwner, m.orphans = nil, nil
			less := func(i, j int) bool { return podLess(m.podCache[i], m.podCache[j]) }
			if !sort.SliceIsSorted(m.podCache, less) {
				m.podCache = append([]*api.Pod(nil), list...)
				sort.Slice(m.podCache, less)
			}
			if m.memoSyncs {
				m.prevList, m.prevSorted, m.prevByOwner, m.prevOrphans = list, m.podCache, nil, nil
			}
		}
	}
	if namespace == "" {
		return m.podCache
	}
	lo := sort.Search(len(m.podCache), func(i int) bool { return m.podCache[i].Namespace >= namespace })
	hi := sort.Search(len(m.podCache), func(i int) bool { return m.podCache[i].Namespace > namespace })
	return m.podCache[lo:hi]
}

// podLess orders pods by namespace, then name (Key order, without
// building the key strings).
func podLess(a, b *api.Pod) bool {
	if a.Namespace != b.Namespace {
		return a.Namespace < b.Namespace
	}
	return a.Name < b.Name
}

// claimCandidates returns the pods a controller's claimPods can keep or
// adopt: those it controls and the namespace's orphans (pods controlled by
// someone else are never claimed), in namespace/name order within each
// group.
func (m *Manager) claimCandidates(namespace, uid string) []*api.Pod {
	if m.q != nil {
		return m.q.candidates(namespace, uid)
	}
	all := m.pods("")
	if m.byOwner == nil {
		m.byOwner, m.orphans = map[string][]*api.Pod{}, map[string][]*api.Pod{}
		for _, p := range all {
			if ref := p.ControllerRef(); ref != nil {
				m.byOwner[ref.UID] = append(m.byOwner[ref.UID], p)
			} else {
				m.orphans[p.Namespace] = append(m.orphans[p.Namespace], p)
			}
		}
		if m.memoSyncs && len(all) == len(m.prevSorted) && (len(all) == 0 || &all[0] == &m.prevSorted[0]) {
			m.prevByOwner, m.prevOrphans = m.byOwner, m.orphans
		}
	}
	var out []*api.Pod
	for _, p := range m.byOwner[uid] {
		if p.Namespace == namespace {
			out = append(out, p)
		}
	}
	return append(out, m.orphans[namespace]...)
}

// acted records a change made through the cluster in this pass.
func (m *Manager) acted() {
	m.ops++
	m.changed = true
	m.podCache = nil
}

func (m *Manager) record(kind string, meta *api.ObjectMeta, source, typ, reason, format string, args ...any) {
	m.recordMessage(kind, meta, source, typ, reason, fmt.Sprintf(format, args...))
}

// recordMessage is record with the message already built: the pod
// create and delete events (one per pod change in a busy run) skip
// fmt's formatting and the boxing of its arguments.
func (m *Manager) recordMessage(kind string, meta *api.ObjectMeta, source, typ, reason, message string) {
	m.ops++
	m.cluster.Record(Event{Time: m.now, Type: typ, Reason: reason, Message: message,
		Kind: kind, Namespace: meta.Namespace, Name: meta.Name, Source: source})
}

// initMeta fills what the API server sets on create: namespace, UID,
// generation.
func (m *Manager) initMeta(meta *api.ObjectMeta) {
	if meta.Namespace == "" {
		meta.Namespace = "default"
	}
	if meta.UID == "" {
		meta.UID = m.names.uid()
	}
	if meta.Generation == 0 {
		meta.Generation = 1
	}
}

// retryState is one workload's failed-create backoff.
type retryState struct {
	failures int
	next     api.Time
}

// Work-queue rate limiting (client-go DefaultControllerRateLimiter's
// per-item exponential part): 5ms doubling per consecutive failure, at
// most 1000s. The lab's controllers run on every cluster change, so
// without it a workload whose pods are refused would retry (and raise
// FailedCreate) on every change.
const (
	retryBase = 5 * time.Millisecond
	retryMax  = 1000 * time.Second
)

// createAllowed reports whether the owner may try to create pods now.
func (m *Manager) createAllowed(uid string) bool {
	r := m.createRetry[uid]
	if r == nil || m.now >= r.next {
		return true
	}
	m.requeueAt(r.next)
	return false
}

func (m *Manager) createFailed(uid string) {
	r := m.createRetry[uid]
	if r == nil {
		r = &retryState{}
		m.createRetry[uid] = r
	}
	r.failures++
	d := retryMax
	if r.failures <= 40 {
		d = min(retryBase<<(r.failures-1), retryMax)
	}
	r.next = m.now.Add(d)
	m.requeueAt(r.next)
}

// createPodFromTemplate is controller.RealPodControl.CreatePods
// (GetPodFromTemplate): labels, annotations and spec from the template,
// generateName "<owner>-", the owner as controller.
func (m *Manager) createPodFromTemplate(tmpl *api.PodTemplateSpec, kind string, owner *api.ObjectMeta, source string, name string, mutate func(*api.Pod)) (*api.Pod, error) {
	if !m.createAllowed(owner.UID) {
		return nil, fmt.Errorf("%s %s: pod creation backing off after failures", kind, owner.Name)
	}
	var t api.PodTemplateSpec
	if mutate == nil {
		// the pod's labels and annotations are the template's maps,
		// shared: no one edits either in place (a template's are cloned
		// before a change, a pod's are replaced by the engine,
		// SetPodOwnership), and a ReplicaSet's replacement pods copied
		// them on every creation. The spec is copied: admission defaults
		// it in place.
		t = api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: tmpl.Labels, Annotations: tmpl.Annotations}, Spec: copyPodSpec(&tmpl.Spec)}
	} else {
		// mutate writes into the pod's labels (StatefulSet, DaemonSet, Job)
		t = copyTemplate(tmpl)
	}
	p := &api.Pod{ObjectMeta: api.ObjectMeta{
		Namespace:         owner.Namespace,
		Labels:            t.Labels,
		Annotations:       t.Annotations,
		OwnerReferences:   []api.OwnerReference{controllerRef(kind, owner)},
		CreationTimestamp: m.now,
		UID:               m.names.uid(),
	}, Spec: t.Spec}
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	if mutate != nil {
		mutate(p)
	}
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		p.Name = name
		if name == "" {
			p.Name = generateNamePrefix(owner.Name+"-") + m.names.suffix()
		}
		if err = m.cluster.CreatePod(p); err == nil || name != "" {
			break
		}
	}
	if err != nil {
		if kind == KindStatefulSet {
			// stateful_pod_control.go recordPodEvent
			m.record(kind, owner, source, EventWarning, "FailedCreate", "create Pod %s in StatefulSet %s failed error: %v", p.Name, owner.Name, err)
		} else {
			// controller_utils.go RealPodControl.createPods
			m.record(kind, owner, source, EventWarning, "FailedCreate", "Error creating: %v", err)
		}
		m.createFailed(owner.UID)
		return nil, err
	}
	delete(m.createRetry, owner.UID)
	m.acted()
	if kind == KindStatefulSet {
		// stateful_pod_control.go recordPodEvent
		m.record(kind, owner, source, EventNormal, "SuccessfulCreate", "create Pod %s in StatefulSet %s successful", p.Name, owner.Name)
	} else {
		m.recordMessage(kind, owner, source, EventNormal, "SuccessfulCreate", "Created pod: "+p.Name)
	}
	return p, nil
}

// deletePod is RealPodControl.DeletePod: graceful deletion plus the event.
func (m *Manager) deletePod(p *api.Pod, kind string, owner *api.ObjectMeta, source string) {
	if err := m.cluster.DeletePod(p.Namespace, p.Name); err != nil {
		m.record(kind, owner, source, EventWarning, "FailedDelete", "Error deleting: %v", err)
		return
	}
	m.acted()
	if kind == KindStatefulSet {
		m.record(kind, owner, source, EventNormal, "SuccessfulDelete", "delete Pod %s in StatefulSet %s successful", p.Name, owner.Name)
	} else {
		m.recordMessage(kind, owner, source, EventNormal, "SuccessfulDelete", "Deleted pod: "+p.Name)
	}
}

// seconds converts whole seconds to a duration.
func seconds[T int32 | int64](s T) time.Duration { return api.SecondsDuration(int64(s)) }

// SetNow tells the Manager the current virtual time before a user
// operation (Restart stamps it; created objects get it as creation time)
// when no Reconcile ran at that instant yet.
func (m *Manager) SetNow(now api.Time) { m.now = now }

// samePods reports whether two pod lists hold the same objects in the
// same order.
func samePods(a, b []*api.Pod) bool {
	if len(a) != len(b) || a == nil || b == nil {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
