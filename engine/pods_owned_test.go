package engine

import (
	"reflect"
	"testing"
)

// TestCreateOwnedPodKeepsTheObjectOrGivesItBack pins createOwnedPod (the
// controllers' create, without copyPod): a created pod is stored as the
// very object handed over; a refused one comes back with the top-level
// fields it had, as the copy left them (DefaultPod had set the restart
// policy, the scheduler name and the grace period before the duplicate
// name was found).
func TestCreateOwnedPodKeepsTheObjectOrGivesItBack(t *testing.T) {
	e := newTestEngine(t)
	// no node: the pod stays pending, so no bind replaces its object
	p := pod("a").obj()
	must(t, e.createOwnedPod(p))
	ps, ok := e.pods.Lookup("default/a")
	if !ok || ps.pod != p {
		t.Fatalf("created pod: stored %p, handed over %p", ps.pod, p)
	}

	dup := pod("a").obj()
	before := *dup
	if err := e.createOwnedPod(dup); err == nil {
		t.Fatal("a second pod default/a was accepted")
	}
	if !reflect.DeepEqual(*dup, before) {
		t.Errorf("refused pod changed:\n got  %+v\n want %+v", dup.Spec, before.Spec)
	}
	if got := len(e.Pods()); got != 1 {
		t.Errorf("%d pods after the refused create, want 1", got)
	}
}
