package controllers

import (
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
)

func podNS(ns, name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": "a"}}}
}

func podNames(list []*api.Pod) []string {
	var out []string
	for _, p := range list {
		out = append(out, p.Namespace+"/"+p.Name)
	}
	return out
}

// The index lists stay in namespace/name order (podLess, not key-string
// order: "a/x" before "a-b/x"); a pod joining or leaving makes a new list
// (a caller holding the old one keeps seeing what it read), a pod's new
// object takes its place in a new list (replacePod).
func TestIndexListsKeepOrderAndCopy(t *testing.T) {
	a, b, c, d := podNS("a", "x"), podNS("a", "y"), podNS("a-b", "x"), podNS("b", "a")
	var list []*api.Pod
	for _, p := range []*api.Pod{d, b, c, a} {
		list = insertPod(list, p)
	}
	if got, want := podNames(list), []string{"a/x", "a/y", "a-b/x", "b/a"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	b2 := podNS("a", "y")
	if got := replacePod(list, b, b2); &got[0] == &list[0] || got[1] != b2 || list[1] != b {
		t.Fatal("replacePod must put the new object in place of the old one, in a new list")
	}
	list = replacePod(list, b, b2)
	if got := replacePod(list, b, podNS("a", "y")); list[1] != b2 || len(got) != 4 {
		t.Fatal("replacing an object that is not in the list must change nothing")
	}
	held := list
	list = removePod(list, c)
	if got, want := podNames(list), []string{"a/x", "a/y", "b/a"}; !slices.Equal(got, want) {
		t.Fatalf("after remove %v, want %v", got, want)
	}
	if len(held) != 4 {
		t.Fatal("removePod edited the caller's list")
	}
	if got := removePod(list, podNS("a", "x")); len(got) != 3 {
		t.Fatal("removing another object with the same key must change nothing")
	}
}

func TestSameIndexEntry(t *testing.T) {
	labels := map[string]string{"app": "a"}
	ref := []api.OwnerReference{{Kind: KindReplicaSet, Name: "rs", UID: "u1", Controller: true}}
	base := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "n", Name: "p", Labels: labels, OwnerReferences: ref}}
	status := *base // a status change: same labels map, same owner
	relabelled := *base
	relabelled.Labels = map[string]string{"app": "a"}
	released := *base
	released.OwnerReferences = nil
	adopted := *base
	adopted.OwnerReferences = []api.OwnerReference{{Kind: KindReplicaSet, Name: "rs2", UID: "u2", Controller: true}}
	for _, tc := range []struct {
		name string
		b    *api.Pod
		want bool
	}{
		{"status change", &status, true},
		{"new labels map", &relabelled, false},
		{"released", &released, false},
		{"other controller", &adopted, false},
	} {
		if got := sameIndexEntry(base, tc.b); got != tc.want {
			t.Errorf("%s: sameIndexEntry = %v, want %v", tc.name, got, tc.want)
		}
	}
}
