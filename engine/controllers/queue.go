package controllers

import (
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/internal/cowmap"
)

// Work queues. Upstream's controllers sync only the objects their watch
// event handlers enqueued (addPod/updatePod/deletePod enqueue the pod's
// controller, a ReplicaSet change its Deployment). The lab keeps the
// fixed pass order of Reconcile (it decides the order of actions and
// events), but when the cluster reports pod changes (UseWorkQueues):
//
//   - the manager keeps its own pod indexes from PodChanged instead of
//     listing every pod: by key, by controller UID, orphans by namespace,
//     by label pair once asked for; each controller UID and each
//     namespace's orphans carry a version that moves when one of their
//     pods changes;
//   - a pod change queues its controller (a ReplicaSet or Job), an
//     orphan's change every ReplicaSet and Job of its namespace, a
//     ReplicaSet status change its Deployment, a Deployment that acted its
//     ReplicaSets, a Job that acted its CronJob; a new epoch (any change
//     to the set or ownership of workloads, any user operation) queues
//     everything;
//   - a ReplicaSet, RollingUpdate Deployment, Job or CronJob that is not
//     queued, whose last sync changed nothing and whose wake has not come
//     is not visited: only its wake request is repeated. A visited
//     ReplicaSet or Deployment still checks its memo (the inputs of its
//     last sync, by version). A missing queueing would show as a
//     different outcome in TestWorkQueuesAreInvisible;
//   - a pod change also queues its StatefulSet or DaemonSet, a node
//     change every DaemonSet; those with minReadySeconds sync on every
//     pass: their syncs read pod availability under minReadySeconds
//     without asking for a wake, so skipping them would change when they
//     act;
//   - the garbage collector judges only changed pods within an epoch.
//
// The full path (every object synced on every pass) stays for clusters
// that edit pods in place (the controllers' test harness) and is the
// reference: TestWorkQueuesAreInvisible and TestSkipUnchangedSyncsIsInvisible
// (engine) require identical events, pods and statuses in both modes.

// PodLookup is implemented by a Cluster that can return one pod by key;
// UseWorkQueues needs it.
type PodLookup interface {
	// PodByKey returns the pod namespace/name, nil when there is none.
	PodByKey(key string) *api.Pod
}

// workQueues is the manager's incremental view of the cluster's pods.
type workQueues struct {
	m      *Manager
	lookup PodLookup
	// byKey is shared with clones copy-on-write (queue_clone.go); own is
	// this manager's token for it
	byKey cowmap.Map[*api.Pod]
	own   *cowmap.Owner
	// byOwner holds the pods of each controller UID, orphans the pods
	// without a controller by namespace; both in namespace/name order.
	// A changed list is replaced, or edited in place between two syncs
	// when no clone shares it (queue_batch.go, queue_clone.go).
	byOwner map[string][]*api.Pod
	orphans map[string][]*api.Pod
	// ownerVer and orphanVer move when a list above changes.
	ownerVer  map[string]uint64
	orphanVer map[string]uint64
	// rsVer moves when the status of a ReplicaSet controlled by the
	// Deployment of that UID changes.
	rsVer map[string]uint64
	seq   uint64
	// pending holds keys reported by PodChanged and not yet applied;
	// gcPending the keys applied since the garbage collector last ran.
	pending   map[string]struct{}
	gcPending map[string]struct{}
	// sorted is every pod in key order; nil until asked after a change.
	sorted []*api.Pod
	// byLabel holds, for each label pair asked for (withLabel), the pods
	// carrying it, in key order; kept up to date once built.
	byLabel map[labelPair][]*api.Pod
	// edits holds the list changes of the apply under way (flush), in
	// the order first made; editIndex finds them when there are many.
	edits     []editEntry
	editIndex map[listID]int
	// spareEdits are emptied edits for reuse (one pod change allocated
	// two or three every pass)
	spareEdits []*listEdits
	// scratch is flush's working space (queue_batch.go).
	scratch editScratch
	// mine holds the arrays of the lists above that flush may edit in
	// place (queue_batch.go)
	mine map[unsafe.Pointer]struct{}
	// gcLive is the set of live workload UIDs when the collector last
	// ran, gcEpoch the manager's epoch then.
	gcLive  map[string]bool
	gcEpoch uint64
	// gcOut is gcCandidates' list, reused
	gcOut []*api.Pod
	// fgEpoch is the epoch of the last foreground-deletion check,
	// fgDeleting whether a workload was being deleted then.
	fgEpoch    uint64
	fgDeleting bool
	// live caches liveUIDs for liveEpoch.
	live      map[string]bool
	liveEpoch uint64
	// keys caches the sorted keys of the manager's object maps (keysOf).
	keys []keyEntry
	// rsOwners indexes the ReplicaSets by controller UID for an epoch
	// (rsClaimCandidates).
	rsOwners rsOwnerIndex
}

// rsOwnerIndex holds, for an epoch, the positions in keysOf order of the
// ReplicaSets each controller UID controls and of those without a
// controller.
type rsOwnerIndex struct {
	epoch   uint64
	ok      bool
	n       int // len(keys) it was built for
	byOwner map[string][]int
	orphans []int
	// cands caches rsClaimCandidates by UID
	cands map[string]rsCandidates
}

// rsClaimCandidates returns, in key order, the keys and objects of the
// ReplicaSets a Deployment's claim can act on: those it controls and
// those without a controller (claimReplicaSets leaves the others alone).
// Ownership changes only with a new epoch (claimReplicaSets' adoptions and
// releases, deletions with orphaning move it), so the index is built once
// per epoch instead of reading every ReplicaSet's owner on every sync.
//
// The result is kept per UID for the epoch (callers only read it): a
// Deployment syncs on every status change of its ReplicaSets.
func (q *workQueues) rsClaimCandidates(m *Manager, uid string) ([]string, []*ReplicaSet) {
	keys, vals, ix := q.rsOwnerIndex(m)
	if c, ok := ix.cands[uid]; ok {
		return c.keys, c.vals
	}
	outKeys, outVals := ix.candidates(keys, vals, uid)
	if ix.cands == nil {
		ix.cands = map[string]rsCandidates{}
	}
	ix.cands[uid] = rsCandidates{outKeys, outVals}
	return outKeys, outVals
}

// rsCandidates is one UID's rsClaimCandidates.
type rsCandidates struct {
	keys []string
	vals []*ReplicaSet
}

// candidates merges uid's and the orphans' positions in key order.
func (ix *rsOwnerIndex) candidates(keys []string, vals []*ReplicaSet, uid string) ([]string, []*ReplicaSet) {
	own, orph := ix.byOwner[uid], ix.orphans
	outKeys := make([]string, 0, len(own)+len(orph))
	outVals := make([]*ReplicaSet, 0, len(own)+len(orph))
	for len(own) > 0 || len(orph) > 0 {
		var i int
		if len(orph) == 0 || (len(own) > 0 && own[0] < orph[0]) {
			i, own = own[0], own[1:]
		} else {
			i, orph = orph[0], orph[1:]
		}
		outKeys, outVals = append(outKeys, keys[i]), append(outVals, vals[i])
	}
	return outKeys, outVals
}

// rsOwnerIndex returns the ReplicaSets' sorted keys and objects and the
// index of them by controller UID, built again at a new epoch.
func (q *workQueues) rsOwnerIndex(m *Manager) ([]string, []*ReplicaSet, *rsOwnerIndex) {
	keys, vals := keysOf(m, m.replicaSets), valuesOf(m, m.replicaSets)
	ix := &q.rsOwners
	if !ix.ok || ix.epoch != m.epoch || ix.n != len(keys) {
		*ix = rsOwnerIndex{epoch: m.epoch, ok: true, n: len(keys), byOwner: map[string][]int{}}
		for i, rs := range vals {
			if ref := rs.ControllerRef(); ref != nil {
				ix.byOwner[ref.UID] = append(ix.byOwner[ref.UID], i)
			} else {
				ix.orphans = append(ix.orphans, i)
			}
		}
	}
	return keys, vals, ix
}

// keyCache is one map's sorted keys at an epoch, and its values in that
// order once asked for (valuesOf).
type keyCache struct {
	ok    bool
	epoch uint64
	keys  []string
	vals  any
}

// keyEntry is one map's keyCache, by the map's identity.
type keyEntry struct {
	id unsafe.Pointer
	keyCache
}

// keyCacheOf returns the cache of the map id, new if there is none. The
// manager has a handful of object maps, asked for on every pass: a scan
// of their identities costs less than hashing one. Bounded: a map
// replaced by another leaves its entry, so a long list starts over.
func (q *workQueues) keyCacheOf(id unsafe.Pointer) *keyCache {
	for i := range q.keys {
		if q.keys[i].id == id {
			return &q.keys[i].keyCache
		}
	}
	if len(q.keys) >= 64 {
		clear(q.keys)
		q.keys = q.keys[:0]
	}
	q.keys = append(q.keys, keyEntry{id: id})
	return &q.keys[len(q.keys)-1].keyCache
}

// keysOf is sortedKeys of one of the manager's object maps: every add
// and removal moves the epoch, so the keys are sorted again only then.
func keysOf[V any](m *Manager, mp map[string]V) []string {
	if m.q == nil {
		return sortedKeys(mp)
	}
	c := m.q.keyCacheOf(reflect.ValueOf(mp).UnsafePointer())
	if c.ok && c.epoch == m.epoch && len(c.keys) == len(mp) {
		return c.keys
	}
	keys := sortedKeys(mp)
	*c = keyCache{ok: true, epoch: m.epoch, keys: keys}
	return keys
}

// valuesOf is the values of one of the manager's object maps in key
// order, cached with the keys: an object is added or removed only with a
// new epoch (and the map never holds another object under a key without
// one), so within an epoch the values do not change.
func valuesOf[V any](m *Manager, mp map[string]V) []V {
	keys := keysOf(m, mp)
	if m.q != nil {
		c := m.q.keyCacheOf(reflect.ValueOf(mp).UnsafePointer())
		if vs, ok := c.vals.([]V); ok && len(vs) == len(keys) {
			return vs
		}
		vs := make([]V, len(keys))
		for i, k := range keys {
			vs[i] = mp[k]
		}
		c.vals = vs
		return vs
	}
	vs := make([]V, len(keys))
	for i, k := range keys {
		vs[i] = mp[k]
	}
	return vs
}

// UseWorkQueues switches the manager to incremental pod indexes and
// skipped syncs (see above). The cluster must implement PodLookup, report
// every pod change through PodChanged and never edit a pod object in
// place; it implies SkipUnchangedSyncs. Off returns to the full path.
func (m *Manager) UseWorkQueues(on bool) bool {
	lookup, ok := m.cluster.(PodLookup)
	if !on || !ok {
		m.q = nil
		return false
	}
	m.SkipUnchangedSyncs(true)
	q := &workQueues{m: m, lookup: lookup, own: &cowmap.Owner{}, byOwner: map[string][]*api.Pod{},
		orphans: map[string][]*api.Pod{}, ownerVer: map[string]uint64{}, orphanVer: map[string]uint64{}, rsVer: map[string]uint64{},
		byLabel: map[labelPair][]*api.Pod{}, pending: map[string]struct{}{}, gcPending: map[string]struct{}{}}
	for _, p := range m.cluster.Pods("") {
		q.byKey.Set(q.own, p.Key(), p)
		q.index(p)
	}
	q.flush(false)
	m.q = q
	m.invalidate()
	return true
}

// PodChanged is told that the pod was created, replaced or removed (the
// engine's Watcher). It only records the key: the indexes are brought up
// to date before the next read.
func (m *Manager) PodChanged(key string) {
	if m.q != nil {
		m.q.pending[key] = struct{}{}
	}
}

// NodeChanged is the engine's Watcher for nodes: every DaemonSet reads
// every node (which should run its pod), so all are queued.
func (m *Manager) NodeChanged(string) {
	if m.q == nil {
		return
	}
	for _, ds := range m.daemonSets {
		ds.queue.queued = true
	}
}

// invalidate makes every skipped sync run again: the epoch is part of
// every fingerprint.
func (m *Manager) invalidate() { m.epoch++ }

// apply brings the indexes up to date with the reported changes, building
// every changed list anew: the caller may be inside a sync that holds one.
func (q *workQueues) apply() { q.applyEdits(false) }

// applyInPlace is apply at a safe point, where no sync is under way
// (between two syncs, skipQueued; before the garbage collector's pass,
// gcCandidates) and so nothing holds an index list: the lists this queue
// owns alone are edited in place (queue_batch.go flush).
func (q *workQueues) applyInPlace() { q.applyEdits(true) }

func (q *workQueues) applyEdits(inPlace bool) {
	if len(q.pending) == 0 {
		return
	}
	for k := range q.pending {
		old := q.byKey.Get(k)
		cur := q.lookup.PodByKey(k)
		if old == cur {
			continue
		}
		switch {
		case old != nil && cur != nil && sameIndexEntry(old, cur):
			// the common change (status): same place in every list
			q.byKey.Set(q.own, k, cur)
			q.replace(old, cur)
		default:
			if old != nil {
				q.unindex(old)
			}
			if cur != nil {
				q.byKey.Set(q.own, k, cur)
				q.index(cur)
			} else {
				q.byKey.Delete(q.own, k)
			}
		}
		q.gcPending[k] = struct{}{}
		q.sorted = nil
	}
	q.pending = emptied(q.pending)
	q.flush(inPlace)
}

// emptied returns the set s emptied. A set that held many keys (the
// creation of thousands of pods in one pass) is replaced by a new one:
// ranging over a Go map costs its capacity, which clear keeps, and these
// sets are ranged over on every pass.
func emptied(s map[string]struct{}) map[string]struct{} {
	if len(s) > 64 {
		return map[string]struct{}{}
	}
	clear(s)
	return s
}

func (q *workQueues) bump(ref *api.OwnerReference, p *api.Pod) {
	q.seq++
	if ref != nil {
		q.ownerVer[ref.UID] = q.seq
		q.m.enqueueOwner(p.Namespace, ref)
	} else {
		q.orphanVer[p.Namespace] = q.seq
		q.m.enqueueNamespace(p.Namespace)
	}
}

func (q *workQueues) index(p *api.Pod) {
	for k, v := range p.Labels {
		if lp := (labelPair{p.Namespace, k, v}); q.hasLabelList(lp) {
			q.insertLater(listID{kind: labelList, lp: lp}, p)
		}
	}
	if ref := p.ControllerRef(); ref != nil {
		q.insertLater(listID{kind: ownerList, name: ref.UID}, p)
		q.bump(ref, p)
	} else {
		q.insertLater(listID{kind: orphanList, name: p.Namespace}, p)
		q.bump(nil, p)
	}
}

func (q *workQueues) unindex(p *api.Pod) {
	for k, v := range p.Labels {
		if lp := (labelPair{p.Namespace, k, v}); q.hasLabelList(lp) {
			q.removeLater(listID{kind: labelList, lp: lp}, p)
		}
	}
	if ref := p.ControllerRef(); ref != nil {
		q.removeLater(listID{kind: ownerList, name: ref.UID}, p)
		q.bump(ref, p)
	} else {
		q.removeLater(listID{kind: orphanList, name: p.Namespace}, p)
		q.bump(nil, p)
	}
}

// hasLabelList reports whether the pods with a label pair are indexed
// (withLabel asked for them).
func (q *workQueues) hasLabelList(lp labelPair) bool {
	_, ok := q.byLabel[lp]
	return ok
}

// sameIndexEntry reports two objects of one pod that sit in the same
// index lists: same controller and the same labels map (the engine shares
// it between a pod's objects until the labels change).
func sameIndexEntry(a, b *api.Pod) bool {
	ra, rb := a.ControllerRef(), b.ControllerRef()
	if (ra == nil) != (rb == nil) || (ra != nil && (ra.UID != rb.UID || ra.Kind != rb.Kind || ra.Name != rb.Name)) {
		return false
	}
	return reflect.ValueOf(a.Labels).UnsafePointer() == reflect.ValueOf(b.Labels).UnsafePointer() && len(a.Labels) == len(b.Labels)
}

// replace puts cur where old was in its lists and moves the same versions
// as unindex and index would.
func (q *workQueues) replace(old, cur *api.Pod) {
	for k, v := range cur.Labels {
		if lp := (labelPair{cur.Namespace, k, v}); q.hasLabelList(lp) {
			q.replaceLater(listID{kind: labelList, lp: lp}, old, cur)
		}
	}
	if ref := cur.ControllerRef(); ref != nil {
		q.replaceLater(listID{kind: ownerList, name: ref.UID}, old, cur)
		q.bump(ref, cur)
	} else {
		q.replaceLater(listID{kind: orphanList, name: cur.Namespace}, old, cur)
		q.bump(nil, cur)
	}
}

// all returns every pod in key order.
func (q *workQueues) all() []*api.Pod {
	q.apply()
	if q.sorted == nil {
		q.sorted = make([]*api.Pod, 0, q.byKey.Len())
		for _, p := range q.byKey.All() {
			q.sorted = append(q.sorted, p)
		}
		sort.Slice(q.sorted, func(i, j int) bool { return podLess(q.sorted[i], q.sorted[j]) })
	}
	return q.sorted
}

// candidates is claimCandidates from the indexes.
func (q *workQueues) candidates(namespace, uid string) []*api.Pod {
	q.apply()
	owned, orphans := q.byOwner[uid], q.orphans[namespace]
	if len(orphans) == 0 && allInNamespace(owned, namespace) {
		// the index's own list (not edited while a sync may hold it),
		// capped so that an append copies it; callers only read their
		// candidates
		return owned[:len(owned):len(owned)]
	}
	out := make([]*api.Pod, 0, len(owned)+len(orphans))
	for _, p := range owned {
		if p.Namespace == namespace {
			out = append(out, p)
		}
	}
	return append(out, orphans...)
}

// ownedAndOrphans returns the pods controlled by uid and the namespace's
// orphans (the index's own lists: read only).
func (q *workQueues) ownedAndOrphans(namespace, uid string) (owned, orphans []*api.Pod) {
	q.apply()
	return capped(q.byOwner[uid]), capped(q.orphans[namespace])
}

// capped is an index list as readers get it: capped at its length, so
// that an append copies it instead of writing into the list's room to
// grow (queue_batch.go).
func capped(list []*api.Pod) []*api.Pod { return list[:len(list):len(list)] }

// allInNamespace reports that every pod is in the namespace.
func allInNamespace(pods []*api.Pod, namespace string) bool {
	for _, p := range pods {
		if p.Namespace != namespace {
			return false
		}
	}
	return true
}

// versions returns the version of a controller's pods and of its
// namespace's orphans: while both stay, its claim candidates are the
// same objects.
func (q *workQueues) versions(namespace, uid string) (uint64, uint64) {
	q.apply()
	return q.ownerVer[uid], q.orphanVer[namespace]
}

// gcCandidates returns the pods the garbage collector must judge, in key
// order: all of them when an owner that was live at its last run is
// gone, else those that changed since.
func (q *workQueues) gcCandidates(live map[string]bool, epoch uint64) []*api.Pod {
	q.applyInPlace() // collectGarbage runs after every sync of a pass
	full := q.gcLive == nil
	if !full && epoch != q.gcEpoch {
		// only a new epoch can have removed an owner
		for uid := range q.gcLive {
			if !live[uid] {
				full = true
				break
			}
		}
	}
	if q.gcLive == nil || epoch != q.gcEpoch {
		// a copy: the collector deletes from live as it removes owners
		q.gcLive, q.gcEpoch = maps.Clone(live), epoch
	}
	if full {
		q.gcPending = emptied(q.gcPending)
		return q.all()
	}
	// in the queue's own space, reused by the next call (the collector
	// only reads the list, within its pass)
	clear(q.gcOut)
	out := q.gcOut[:0]
	for k := range q.gcPending {
		if p := q.byKey.Get(k); p != nil {
			out = append(out, p)
		}
	}
	q.gcPending = emptied(q.gcPending)
	slices.SortFunc(out, comparePods)
	q.gcOut = out
	return out[:len(out):len(out)]
}

// comparePods is podLess as a comparison: namespace, then name.
func comparePods(a, b *api.Pod) int {
	if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// labelPair is a namespace and one label.
type labelPair struct{ namespace, key, value string }

// withLabel returns the namespace's pods labelled key=value, in key
// order.
func (q *workQueues) withLabel(namespace, key, value string) []*api.Pod {
	q.apply()
	lp := labelPair{namespace, key, value}
	if list, ok := q.byLabel[lp]; ok {
		return capped(list)
	}
	list := []*api.Pod{} // non-nil: indexed
	for _, p := range q.all() {
		if v, has := p.Labels[key]; has && v == value && p.Namespace == namespace {
			list = append(list, p)
		}
	}
	q.byLabel[lp] = list
	q.claim(list)
	return capped(list)
}

// queueState is an object's place in the work queue: queued objects sync
// on the next visit; an object that is not queued, whose last sync (at
// epoch) changed nothing and whose wake has not come is skipped. What
// queues an object is what would make its memo fail: a change of its
// pods (enqueueOwner), of its namespace's orphans (enqueueNamespace), of
// its ReplicaSets' status (replicaSetStatusChanged), its Deployment
// acting on it (enqueueReplicaSetsOf), a new epoch.
type queueState struct {
	queued bool
	epoch  uint64
}

// skipQueued reports that the object need not sync in this pass; the
// skipped sync's one effect, its wake request, is repeated.
func (m *Manager) skipQueued(s *queueState, memo *syncMemo) bool {
	if m.q == nil {
		return false
	}
	// pod changes reported since the last read queue their owners;
	// between two syncs nothing holds an index list
	m.q.applyInPlace()
	if s.queued || s.epoch != m.epoch || memo == nil || (memo.hasWake && m.now >= memo.wake) {
		return false
	}
	memo.replay(m)
	return true
}

// synced records a visit: an object whose sync acted stays queued (the
// next pass syncs it again, as the full path does).
func (m *Manager) synced(s *queueState, memo *syncMemo) {
	if m.q != nil {
		s.queued, s.epoch = memo == nil, m.epoch
	}
}

// enqueueOwner queues the pod's controller (a ReplicationController
// syncs on every pass).
func (m *Manager) enqueueOwner(namespace string, ref *api.OwnerReference) {
	switch ref.Kind {
	case KindReplicaSet:
		if rs := m.replicaSets[key(namespace, ref.Name)]; rs != nil {
			rs.queue.queued = true
		}
	case KindJob:
		if j := m.jobs[key(namespace, ref.Name)]; j != nil {
			j.queue.queued = true
		}
	case KindStatefulSet:
		if st := m.statefulSets[key(namespace, ref.Name)]; st != nil {
			st.queue.queued = true
		}
	case KindDaemonSet:
		if ds := m.daemonSets[key(namespace, ref.Name)]; ds != nil {
			ds.queue.queued = true
		}
	}
}

// enqueueNamespace queues every ReplicaSet, Job, StatefulSet and
// DaemonSet of the namespace (an orphan changed: any may adopt it).
func (m *Manager) enqueueNamespace(namespace string) {
	for _, rs := range m.replicaSets {
		if rs.Namespace == namespace {
			rs.queue.queued = true
		}
	}
	for _, j := range m.jobs {
		if j.Namespace == namespace {
			j.queue.queued = true
		}
	}
	for _, st := range m.statefulSets {
		if st.Namespace == namespace {
			st.queue.queued = true
		}
	}
	for _, ds := range m.daemonSets {
		if ds.Namespace == namespace {
			ds.queue.queued = true
		}
	}
}

// enqueueCronJobOf queues the CronJob controlling a Job that acted (it
// reads its Jobs' status).
func (m *Manager) enqueueCronJobOf(j *Job) {
	if ref := j.ControllerRef(); ref != nil && ref.Kind == KindCronJob {
		if cj := m.cronJobs[key(j.Namespace, ref.Name)]; cj != nil {
			cj.queue.queued = true
		}
	}
}

// memoised runs a sync and returns its memo (nil when it acted) in the
// work-queue mode. Jobs and CronJobs have no memo key: what they read
// queues them (their pods, their Jobs, the epoch, their wake).
func (m *Manager) memoised(sync func()) *syncMemo {
	if m.q == nil {
		sync()
		return nil
	}
	w := m.beginMemo()
	sync()
	return w.done(nil, nil)
}

// enqueueReplicaSetsOf queues the ReplicaSets a Deployment controls.
func (m *Manager) enqueueReplicaSetsOf(d *Deployment) {
	if m.q == nil {
		return
	}
	// only those d controls, from the owner index (as its claim reads
	// them), not every ReplicaSet of the namespace
	_, vals, ix := m.q.rsOwnerIndex(m)
	for _, i := range ix.byOwner[d.UID] {
		if rs := vals[i]; rs.Namespace == d.Namespace && isControlledBy(&rs.ObjectMeta, d.UID) {
			rs.queue.queued = true
		}
	}
}
