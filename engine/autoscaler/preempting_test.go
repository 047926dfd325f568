package autoscaler

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// A pod that preempted lower-priority pods waits for them to go, nominated
// to their node: cluster-autoscaler does not scale up for it.
// FilterOutExpendableAndSplit (core/utils/pod_filter.go) puts a pod whose
// status.nominatedNodeName names an existing node among the pods
// "waiting for lower priority pods preemption", which filter_out_expendable
// (core/podlistprocessor/filter_out_expendable.go) force-adds to the
// cluster snapshot on that node instead of passing them on to scale-up.
func TestPreemptingPodTriggersNoScaleUp(t *testing.T) {
	e, _ := cluster(t, []NodeGroup{group("pool", 1, 5, template("2", "4Gi", "zone-a"))}, Options{NodeProvisioningTime: 30 * time.Second})
	if err := e.AddPriorityClass(&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000}); err != nil {
		t.Fatal(err)
	}
	low := pod("low", "1500m", "1Gi", "")
	grace := int64(60)
	low.Spec.TerminationGracePeriodSeconds = &grace
	low.Annotations = map[string]string{kubelet.AnnotationTerminateAfter: "40s"} // slow to stop
	create(t, e, low)
	run(t, e, 5*time.Second)
	high := pod("high", "1500m", "1Gi", "")
	high.Spec.PriorityClassName = "high"
	create(t, e, high)
	if nn := e.Pod("default/high").Status.NominatedNodeName; nn != "pool-1" {
		t.Fatalf("high nominated to %q, want pool-1 (it preempted low)", nn)
	}
	run(t, e, 30*time.Second)
	if got := events(e, ReasonTriggeredScaleUp); len(got) != 0 {
		t.Errorf("scale-up for a pod waiting for its preemption: %q", got)
	}
	if n := nodeNames(e); n != "pool-1" {
		t.Errorf("nodes %s, want pool-1 only", n)
	}
	run(t, e, 30*time.Second)
	if n := e.Pod("default/high").Spec.NodeName; n != "pool-1" {
		t.Errorf("high on %q, want pool-1 once low is gone", n)
	}
}
