package controllers

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// A pod imported from a partial dump names a ReplicaSet the lab never
// held: the owner exists outside the lab, so the garbage collector keeps
// the pod (deliberate difference, see orphaned). A ReplicaSet deleted in
// the lab still has its pods collected.
func TestGCJudgesOnlyKnownOwners(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	imported := mkPod("web-7d9f-abcde").label("app", "web").node("node-a").readyAt(0).obj()
	imported.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: KindReplicaSet, Name: "web-7d9f", UID: "uid-outside-the-lab", Controller: true}}
	fc.addPod(imported)
	rs, err := fc.m.AddReplicaSet(frontendRS(2))
	if err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(10))
	if p := fc.pods["default/web-7d9f-abcde"]; p == nil || p.DeletionTimestamp != nil {
		t.Fatal("a pod whose owner the lab never knew must not be garbage-collected")
	}
	owned := fc.podsWith(func(p *api.Pod) bool { return isControlledBy(&p.ObjectMeta, rs.UID) })
	if len(owned) != 2 {
		t.Fatalf("ReplicaSet owns %d pods, want 2", len(owned))
	}
	if err := fc.m.Delete(KindReplicaSet, "default", "frontend", PropagationBackground); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(11))
	for _, p := range owned {
		if q := fc.pods[p.Key()]; q != nil && q.DeletionTimestamp == nil {
			t.Errorf("pod %s of the deleted ReplicaSet not collected", p.Name)
		}
	}
	if p := fc.pods["default/web-7d9f-abcde"]; p == nil || p.DeletionTimestamp != nil {
		t.Fatal("the imported pod must survive the other ReplicaSet's deletion")
	}
}

func TestOrphaned(t *testing.T) {
	known := map[string]bool{"gone": true, "live": true}
	live := map[string]bool{"live": true}
	ref := func(kind, uid string) api.OwnerReference { return api.OwnerReference{Kind: kind, UID: uid} }
	for _, tc := range []struct {
		name string
		refs []api.OwnerReference
		want bool
	}{
		{"no owners", nil, false},
		{"known owner deleted", []api.OwnerReference{ref(KindReplicaSet, "gone")}, true},
		{"live owner", []api.OwnerReference{ref(KindReplicaSet, "live")}, false},
		{"owner never known", []api.OwnerReference{ref(KindReplicaSet, "elsewhere")}, false},
		{"unmanaged kind", []api.OwnerReference{ref("Node", "gone")}, false},
		{"one owner left", []api.OwnerReference{ref(KindJob, "gone"), ref(KindReplicaSet, "live")}, false},
		{"one unknown owner left", []api.OwnerReference{ref(KindJob, "gone"), ref(KindJob, "elsewhere")}, false},
	} {
		if got := orphaned(&api.ObjectMeta{OwnerReferences: tc.refs}, live, known); got != tc.want {
			t.Errorf("%s: orphaned = %v, want %v", tc.name, got, tc.want)
		}
	}
}
