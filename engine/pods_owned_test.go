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
	e := newDefaultEngine()
	// no profile of the default scheduler has the pod's scheduler name, so
	// it never tries the pod: neither a bind nor a failed attempt's
	// PodScheduled condition replaces its object
	p := pod("a").obj()
	p.Spec.SchedulerName = "elsewhere"
	must(t, e.createOwnedPod(p))
	ps, ok := e.pods.Lookup("default/a")
	if !ok || ps.pod != p {
		t.Fatalf("created pod: stored %p, handed over %p: %+v", ps.pod, p, ps.pod.Status)
	}

	dup := pod("a").obj()
	dup.Spec.SchedulerName = "elsewhere"
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
