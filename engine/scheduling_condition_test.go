package engine

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// A failed attempt leaves PodScheduled=False with reason Unschedulable and
// the FailedScheduling message, as handleSchedulingFailure's updatePod
// does (pkg/scheduler/schedule_one.go, v1.36: reason
// v1.PodReasonUnschedulable when the status is a rejection — no nodes
// included, ErrNoNodesAvailable being UnschedulableAndUnresolvable). A
// later attempt with another message updates the message but keeps the
// transition time, since the status stays False
// (podutil.UpdatePodCondition). The descheduler's PodLifeTime conditions
// filter reads these fields.
func TestFailedAttemptSetsTheUnschedulableCondition(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.AddNode(node("small", "1", "1Gi")))
	must(t, e.CreatePod(pod("p").req("2", "").obj()))
	must(t, e.RunUntil(api.Time(time.Second)))
	c := e.Pod("default/p").Condition(api.PodScheduled)
	first := lastFailedScheduling(e, "pod/default/p")
	if c == nil || c.Status != api.ConditionFalse || c.Reason != api.PodReasonUnschedulable || c.Message != first || first == "" || c.LastTransitionTime != 0 {
		t.Fatalf("after the first attempt: condition %+v, want False/Unschedulable/%q at 0s", c, first)
	}

	must(t, e.RunUntil(api.Time(5*time.Second)))
	must(t, e.AddNode(node("small-2", "1", "1Gi")))
	must(t, e.RunUntil(api.Time(10*time.Second)))
	c = e.Pod("default/p").Condition(api.PodScheduled)
	second := lastFailedScheduling(e, "pod/default/p")
	if second == first {
		t.Fatalf("the second node did not change the message %q", first)
	}
	if c.Message != second || c.Reason != api.PodReasonUnschedulable || c.LastTransitionTime != 0 {
		t.Errorf("after the node add: condition %+v, want message %q, transition time kept at 0s", c, second)
	}

	must(t, e.AddNode(node("big", "4", "8Gi")))
	must(t, e.RunUntil(api.Time(11*time.Second)))
	c = e.Pod("default/p").Condition(api.PodScheduled)
	if c.Status != api.ConditionTrue || c.Reason != "" || c.Message != "" || c.LastTransitionTime != api.Time(10*time.Second) {
		t.Errorf("after the bind: condition %+v, want True at 10s with no reason", c)
	}
}

func TestNoNodesSetsTheUnschedulableCondition(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.CreatePod(pod("p").obj()))
	c := e.Pod("default/p").Condition(api.PodScheduled)
	if c == nil || c.Status != api.ConditionFalse || c.Reason != api.PodReasonUnschedulable || c.Message != "no nodes available to schedule pods" {
		t.Errorf("condition %+v, want False/Unschedulable/no nodes available to schedule pods", c)
	}
}
