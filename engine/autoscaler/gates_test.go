package autoscaler

import (
	"testing"
	"time"
)

// A gated pod does not make the autoscaler scale up: cluster-autoscaler
// lists as unschedulable only pods with PodScheduled=False reason
// Unschedulable (utils/kubernetes/listers.go isUnschedulable), and a
// gated pod's reason is SchedulingGated — the scheduler never tried it.
// Once ungated and rejected by every node it is Unschedulable, and the
// autoscaler adds a node for it.
func TestGatedPodTriggersNoScaleUp(t *testing.T) {
	e, _ := cluster(t, []NodeGroup{group("pool", 1, 5, template("2", "4Gi", "zone-a"))}, Options{NodeProvisioningTime: 30 * time.Second})
	p := pod("big", "1500m", "1Gi", "rs")
	p.Spec.SchedulingGates = []string{"example.com/quota"}
	create(t, e, pod("filler", "1500m", "1Gi", "rs"), p)
	run(t, e, 2*time.Minute)
	if got := events(e, ReasonTriggeredScaleUp, ReasonNotTriggerScaleUp); len(got) != 0 {
		t.Fatalf("events for a gated pod: %q", got)
	}
	if n := nodeNames(e); n != "pool-1" {
		t.Fatalf("nodes %s, want pool-1 only", n)
	}
	if err := e.RemoveSchedulingGates("default/big"); err != nil {
		t.Fatal(err)
	}
	run(t, e, time.Minute)
	if got := events(e, ReasonTriggeredScaleUp); len(got) != 1 {
		t.Fatalf("after ungating: TriggeredScaleUp %q, want one", got)
	}
	if n := e.Pod("default/big").Spec.NodeName; n != "pool-2" {
		t.Errorf("big on %q, want pool-2", n)
	}
}
