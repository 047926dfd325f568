package engine

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// A failed attempt that is an error — here the API server refusing the
// binding of a pod that still has scheduling gates, its profile having
// switched SchedulingGates off — clears the pod's nomination:
// handleBindingCycleError calls the FailureHandler with
// clearNominatedNode (pkg/scheduler/schedule_one.go:535, :172, v1.36.3),
// which drops the pod from the nominator (AddNominatedPod with
// ModeOverride "", :1277) and patches status.nominatedNodeName to ""
// (updatePod, :1323 nnnNeedsUpdate). So the space the gated pod had
// preempted for is not held for it: a lower-priority pod created next is
// scheduled there at once.
func TestRefusedBindingClearsTheNomination(t *testing.T) {
	e := New(Config{Seed: 1, NewScheduler: profilesFactory(gatesOff)})
	addPrioClasses(t, e, 0, 1)
	must(t, e.AddNode(node("n1", "2", "8Gi")))
	must(t, e.CreatePod(pod("low").prio(0).req("1500m", "").grace(1).obj()))
	must(t, e.RunUntil(sec(5)))
	g := pod("gated").prio(1).req("1500m", "").obj()
	g.Spec.SchedulingGates = []string{"example.com/quota"}
	must(t, e.CreatePod(g))
	if nn := e.Pod("default/gated").Status.NominatedNodeName; nn != "n1" {
		t.Fatalf("gated pod nominated to %q, want n1 (it preempted low)", nn)
	}
	// low is gone after its grace period; the gated pod fits, and its
	// binding is refused
	must(t, e.RunUntil(sec(10)))
	if e.Pod("default/low") != nil {
		t.Fatalf("low still exists")
	}
	if msg := lastFailedScheduling(e, "pod/default/gated"); msg != `running Bind plugin "DefaultBinder": pod gated has non-empty .spec.schedulingGates` {
		t.Fatalf("last FailedScheduling %q, want the refused binding", msg)
	}
	if nn := e.Pod("default/gated").Status.NominatedNodeName; nn != "" {
		t.Errorf("nominatedNodeName %q after the refused binding, want cleared", nn)
	}
	if nn := e.sched.Nominator().NominatedNodeOf("default/gated"); nn != "" {
		t.Errorf("the nominator still holds the gated pod on %q", nn)
	}
	must(t, e.CreatePod(pod("next").prio(0).req("1500m", "").obj()))
	if n := e.Pod("default/next").Spec.NodeName; n != "n1" {
		t.Errorf("next on %q, want n1: no nomination holds the space", n)
	}
}

// A nominated pod whose next attempt finds no preemption candidate loses
// its nomination: DefaultPreemption returns
// NewPostFilterResultWithNominatedNode("") when no candidate is found
// (framework/preemption/preemption.go:147, v1.36.3) and
// handleSchedulingFailure clears it in the nominator and in the pod's
// status (schedule_one.go:1277, :1323). Here p preempted low on n1; while
// low terminated, h (higher priority, never preempting) waited, then took
// n1 when low was gone; p, tried again, can preempt nothing (h outranks
// it), so it is no longer nominated to n1.
func TestNoPreemptionCandidateClearsTheNomination(t *testing.T) {
	e := newPreemptionEngine(t)
	must(t, e.AddNode(node("n1", "2", "8Gi")))
	must(t, e.CreatePod(pod("low").req("1500m", "").grace(5).obj()))
	must(t, e.Step(5*time.Second))
	must(t, e.CreatePod(pod("p").class("high").req("1500m", "").obj()))
	if nn := e.Pod("default/p").Status.NominatedNodeName; nn != "n1" {
		t.Fatalf("p nominated to %q, want n1", nn)
	}
	never := api.PreemptNever
	must(t, e.AddPriorityClass(&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "highest-polite"}, Value: 5000, PreemptionPolicy: &never}))
	must(t, e.CreatePod(pod("h").class("highest-polite").req("1500m", "").obj()))
	must(t, e.Step(10*time.Second))
	if n := e.Pod("default/h").Spec.NodeName; n != "n1" {
		t.Fatalf("h on %q, want n1", n)
	}
	if msg := lastFailedScheduling(e, "pod/default/p"); !strings.Contains(msg, "preemption: 0/1 nodes are available") {
		t.Fatalf("p's last FailedScheduling %q, want a failed preemption", msg)
	}
	if nn := e.Pod("default/p").Status.NominatedNodeName; nn != "" {
		t.Errorf("p's nominatedNodeName %q, want cleared", nn)
	}
	if nn := e.sched.Nominator().NominatedNodeOf("default/p"); nn != "" {
		t.Errorf("the nominator still holds p on %q", nn)
	}
}
