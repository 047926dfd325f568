package controllers

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// A clone's ReplicaSet starts with the facts its original read, shared:
// a fact either adds afterwards is its own, and a cache read with another
// selector (stale) is not handed on.
func TestPodFactsSharedWithAClone(t *testing.T) {
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	mk := func() *ReplicaSet {
		rs := &ReplicaSet{ReplicaSet: api.ReplicaSet{Spec: api.ReplicaSetSpec{Selector: sel,
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "a"}}}}}}
		rs.selector = api.SelectorFromSet(sel.MatchLabels)
		return rs
	}
	pod := func(name string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "a"}}}
	}
	orig := mk()
	p1, p2, p3 := pod("p1"), pod("p2"), pod("p3")
	orig.podFactsFor().of(orig, p1)

	clone := mk()
	clone.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}} // a deep copy: equal, not the same
	clone.factsCache = orig.factsCache.sharedWith(orig, clone)
	if got := clone.podFactsFor(); len(got.facts) != 1 {
		t.Fatalf("clone's facts %v, want the original's one", got.facts)
	}
	clone.podFactsFor().of(clone, p2)
	orig.podFactsFor().of(orig, p3)
	if _, ok := orig.factsCache.facts[p2]; ok {
		t.Errorf("a fact the clone read is in the original's cache")
	}
	if _, ok := clone.factsCache.facts[p3]; ok {
		t.Errorf("a fact the original read is in the clone's cache")
	}
	if len(orig.factsCache.facts) != 2 || len(clone.factsCache.facts) != 2 {
		t.Errorf("original %d facts, clone %d; want 2 each", len(orig.factsCache.facts), len(clone.factsCache.facts))
	}
	// the original's selector changed since its facts were read: stale
	orig.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "b"}}
	if c := orig.factsCache.sharedWith(orig, mk()); c.facts != nil {
		t.Errorf("a stale cache was handed to a clone")
	}
}
