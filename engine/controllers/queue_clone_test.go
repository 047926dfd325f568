package controllers

import (
	"reflect"
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// lookupCluster is the fake cluster with PodByKey (the work queues need
// it); these tests only build indexes, they do not reconcile.
type lookupCluster struct{ *fakeCluster }

func (c lookupCluster) PodByKey(k string) *api.Pod { return c.pods[k] }

// TestCloneWorkQueuesIsTheRebuild: a clone's copied work queues, with the
// changes reported to the original still pending, index the same pods in
// the same order as queues rebuilt from the cluster (what a clone did
// before), and the original's queues are left as they were.
func TestCloneWorkQueuesIsTheRebuild(t *testing.T) {
	fc := newFakeCluster(t, mkNode("n1", nil))
	fc.noSchedule = true
	lc := lookupCluster{fc}
	pod := func(ns, name, app, owner string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app}}}
		if owner != "" {
			p.OwnerReferences = []api.OwnerReference{{Kind: KindReplicaSet, Name: owner, UID: "uid-" + owner, Controller: true}}
		}
		return p
	}
	for _, p := range []*api.Pod{
		pod("default", "a-1", "a", "rs-a"), pod("default", "a-2", "a", "rs-a"), pod("default", "a-3", "a", "rs-a"),
		pod("default", "b-1", "b", "rs-b"), pod("default", "loose-1", "a", ""), pod("shop", "loose-2", "c", ""),
	} {
		fc.pods[p.Key()] = p
	}
	m := New(lc, 1)
	m.UseWorkQueues(true)
	m.q.withLabel("default", "app", "a") // a label index, kept up to date
	// the collector ran once (its record: the live owners, no change since)
	m.q.gcCandidates(map[string]bool{"uid-rs-a": true, "uid-rs-b": true}, m.epoch)
	// changes reported and not yet applied: a new pod, a status change
	// (same labels map), a removal, a pod released by its owner
	add := pod("default", "a-0", "a", "rs-a")
	fc.pods[add.Key()] = add
	changed := *fc.pods["default/a-2"]
	changed.Status.Phase = api.PodRunning
	fc.pods["default/a-2"] = &changed
	delete(fc.pods, "default/b-1")
	released := pod("default", "a-3", "a", "")
	fc.pods[released.Key()] = released
	for _, k := range []string{"default/a-0", "default/a-2", "default/b-1", "default/a-3"} {
		m.PodChanged(k)
	}
	before := m.q.byOwner["uid-rs-a"]

	clone := New(lc, 1)
	clone.cloneWorkQueues(m.q)
	if clone.q.gcLive == nil || !reflect.DeepEqual(clone.q.gcLive, m.q.gcLive) || clone.q.gcEpoch != m.q.gcEpoch || !reflect.DeepEqual(clone.q.gcPending, m.q.gcPending) {
		t.Errorf("the clone's collector record is not the original's")
	}
	rebuilt := New(lc, 1)
	rebuilt.UseWorkQueues(true)

	keys := func(ps []*api.Pod) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.Key()
		}
		return out
	}
	if got, want := keys(clone.q.all()), keys(rebuilt.q.all()); !reflect.DeepEqual(got, want) {
		t.Errorf("all: %v, rebuilt %v", got, want)
	}
	for _, uid := range []string{"uid-rs-a", "uid-rs-b"} {
		if got, want := keys(clone.q.candidates("default", uid)), keys(rebuilt.q.candidates("default", uid)); !reflect.DeepEqual(got, want) {
			t.Errorf("candidates of %s: %v, rebuilt %v", uid, got, want)
		}
	}
	if got, want := keys(clone.q.withLabel("default", "app", "a")), keys(rebuilt.q.withLabel("default", "app", "a")); !reflect.DeepEqual(got, want) {
		t.Errorf("withLabel app=a: %v, rebuilt %v", got, want)
	}
	for k, p := range fc.pods {
		if clone.q.byKey.Get(k) != p {
			t.Errorf("byKey[%s] is not the cluster's object", k)
		}
	}
	if clone.epoch != rebuilt.epoch || !clone.memoSyncs {
		t.Errorf("clone epoch %d memo %v, rebuilt epoch %d", clone.epoch, clone.memoSyncs, rebuilt.epoch)
	}
	// the original has not applied its changes: the clone did its own
	if len(m.q.pending) != 4 || !reflect.DeepEqual(keys(m.q.byOwner["uid-rs-a"]), keys(before)) {
		t.Errorf("original changed: %d pending, rs-a %v", len(m.q.pending), keys(m.q.byOwner["uid-rs-a"]))
	}
	if m.q.byKey.Get("default/b-1") == nil || m.q.byKey.Get("default/a-0") != nil || clone.q.byKey.Get("default/b-1") != nil {
		t.Errorf("the clone's applied changes reached the original's byKey (they share it copy-on-write)")
	}
	if got := keys(m.q.byOwner["uid-rs-a"]); !reflect.DeepEqual(got, []string{"default/a-1", "default/a-2", "default/a-3"}) {
		t.Errorf("original rs-a %v", got)
	}
}

// cloneWorkQueues lists what a clone gets of each field of workQueues
// (copied, shared, or started afresh as UseWorkQueues would): a field
// added later must be decided there too — left out, a clone would run
// with it empty (the indexes used to be rebuilt, which filled everything).
func TestCloneWorkQueuesKnowsEveryField(t *testing.T) {
	handled := []string{
		"m", "lookup", "byKey", "own", "byOwner", "orphans", "ownerVer", "orphanVer", "rsVer", "seq",
		"pending", "gcPending", "sorted", "byLabel", "gcLive", "gcEpoch",
		"fgEpoch", "fgDeleting", "live", "liveEpoch", // afresh: recomputed for the clone's new epoch
		"keys",               // afresh: keyed by the original's maps
		"rsOwners",           // afresh: built per epoch, and the clone starts a new one
		"edits", "editIndex", // afresh: empty between applies (flush clears them)
		"scratch", "spareEdits", // afresh: flush's working space, empty between flushes
		"mine",  // afresh, and forgotten by the original: both share every list
		"gcOut", // afresh: gcCandidates' space, read only within a pass
	}
	var fields []string
	typ := reflect.TypeOf(workQueues{})
	for i := range typ.NumField() {
		fields = append(fields, typ.Field(i).Name)
	}
	slices.Sort(fields)
	slices.Sort(handled)
	if !slices.Equal(fields, handled) {
		t.Errorf("workQueues has fields %v;\ncloneWorkQueues handles %v:\ndecide what a clone gets of the new ones (queue_clone.go) and list them here", fields, handled)
	}
}
