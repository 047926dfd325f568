package engine

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

func newPreemptionEngine(t *testing.T) *Engine {
	t.Helper()
	e := New(Config{Seed: 1, NewScheduler: ByNameScheduler})
	never := api.PreemptNever
	must(t, e.AddPriorityClass(&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000}))
	must(t, e.AddPriorityClass(&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "higher"}, Value: 2000}))
	must(t, e.AddPriorityClass(&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high-nonpreempting"}, Value: 1000, PreemptionPolicy: &never}))
	return e
}

func TestPreemptionPrefersVictimsWithoutBudgetViolations(t *testing.T) {
	e := newPreemptionEngine(t)
	must(t, e.AddNode(node("n1", "2", "8Gi")))
	// "a-protected" is guarded by a budget allowing no disruption; "z-free" is not.
	must(t, e.CreatePod(pod("a-protected").on("n1").label("app", "db").req("1", "").obj()))
	must(t, e.CreatePod(pod("z-free").on("n1").label("app", "batch").req("1", "").obj()))
	must(t, e.AddPDB(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"},
		Spec: api.PDBSpec{MinAvailable: intOrStr(1), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}}}))
	must(t, e.Step(time.Second))
	must(t, e.CreatePod(pod("urgent").class("high").req("1", "").obj()))
	if nn := e.Pod("default/urgent").Status.NominatedNodeName; nn != "n1" {
		t.Fatalf("nominatedNodeName %q", nn)
	}
	v := e.Pod("default/z-free")
	if v.DeletionTimestamp == nil {
		t.Fatal("z-free not preempted")
	}
	if c := v.Condition(api.DisruptionTarget); c == nil || c.Reason != "PreemptionByScheduler" || c.Message != PreemptionMessage {
		t.Fatalf("victim condition %+v", c)
	}
	if e.Pod("default/a-protected").DeletionTimestamp != nil {
		t.Fatal("the budget-protected pod was preempted")
	}
	must(t, e.Step(5*time.Second))
	lines := eventLines(e.Events(), ReasonPreempted, ReasonScheduled, ReasonDeleted, ReasonKilling)
	uid := e.Pod("default/urgent").UID
	wantLines(t, lines, []string{
		"1s Preempted pod/default/z-free: Preempted by pod " + uid + " on node n1",
		"1s Killing pod/default/z-free: Stopping container app",
		"2s Deleted pod/default/z-free: pod removed",
		"2s Scheduled pod/default/urgent: Successfully assigned default/urgent to n1",
	})
}

func TestNonPreemptingPriorityClassWaits(t *testing.T) {
	e := newPreemptionEngine(t)
	must(t, e.AddNode(node("n1", "1", "8Gi")))
	must(t, e.CreatePod(pod("low").on("n1").req("1", "").obj()))
	must(t, e.CreatePod(pod("polite").class("high-nonpreempting").req("1", "").obj()))
	must(t, e.Step(time.Minute))
	if e.Pod("default/low").DeletionTimestamp != nil {
		t.Fatal("a non-preempting pod preempted")
	}
	fs := eventLines(e.Events(), ReasonFailedScheduling)
	if len(fs) == 0 || !strings.Contains(fs[0], "preemption: not eligible due to preemptionPolicy=Never.") {
		t.Fatalf("FailedScheduling %v", fs)
	}
	if p := e.Pod("default/polite"); p.Spec.NodeName != "" || p.Status.NominatedNodeName != "" {
		t.Fatalf("polite pod %+v", p.Status)
	}
}

func TestHigherPriorityNewcomerTakesTheNominatedRoom(t *testing.T) {
	e := newPreemptionEngine(t)
	must(t, e.AddNode(node("n1", "2", "8Gi")))
	must(t, e.CreatePod(pod("l1").on("n1").req("1", "").obj()))
	must(t, e.CreatePod(pod("l2").on("n1").req("1", "").ann(kubelet.AnnotationTerminateAfter, "10s").obj()))
	must(t, e.Step(time.Second))
	must(t, e.CreatePod(pod("p1").class("high").req("1", "").obj()))
	if e.Pod("default/p1").Status.NominatedNodeName != "n1" || e.Pod("default/l2").DeletionTimestamp == nil {
		t.Fatal("p1 did not preempt l2")
	}
	must(t, e.Step(2*time.Second))
	// l2 is still terminating: p1 does not preempt again meanwhile
	if e.Pod("default/l1").DeletionTimestamp != nil {
		t.Fatal("p1 preempted again while its victim was terminating")
	}
	// p2 outranks p1: it is nominated to n1 (its victim l2 is already
	// terminating) and p1 loses its nomination — which makes p1 eligible
	// to preempt again, here l1 on the only node.
	must(t, e.CreatePod(pod("p2").class("higher").req("1", "").obj()))
	if nn := e.Pod("default/p2").Status.NominatedNodeName; nn != "n1" {
		t.Fatalf("p2 nominated to %q", nn)
	}
	must(t, e.Step(10*time.Second))
	p1uid, p2uid := e.Pod("default/p1").UID, e.Pod("default/p2").UID
	wantLines(t, eventLines(e.Events(), ReasonPreempted, ReasonScheduled, ReasonDeleted), []string{
		"1s Preempted pod/default/l2: Preempted by pod " + p1uid + " on node n1",
		"3s Preempted pod/default/l1: Preempted by pod " + p1uid + " on node n1",
		// l1 is gone first: the room goes to the higher-priority p2
		"4s Deleted pod/default/l1: pod removed",
		"4s Scheduled pod/default/p2: Successfully assigned default/p2 to n1",
		"11s Deleted pod/default/l2: pod removed",
		"11s Scheduled pod/default/p1: Successfully assigned default/p1 to n1",
	})
	_ = p2uid
	fs := eventLines(e.Events(), ReasonFailedScheduling)
	if !strings.Contains(strings.Join(fs, "\n"), "preemption: not eligible due to a terminating pod on the nominated node.") {
		t.Fatalf("no 'terminating pod on the nominated node' message in %v", fs)
	}
}

func TestPreemptorLandsElsewhereWhenRoomAppears(t *testing.T) {
	e := newPreemptionEngine(t)
	must(t, e.AddNode(node("n1", "2", "8Gi")))
	must(t, e.AddNode(node("n2", "2", "8Gi")))
	must(t, e.CreatePod(pod("low").on("n1").req("2", "").ann(kubelet.AnnotationTerminateAfter, "20s").obj()))
	must(t, e.CreatePod(pod("vip").on("n2").class("higher").req("2", "").obj()))
	must(t, e.CreatePod(pod("p").class("high").req("2", "").obj()))
	if e.Pod("default/p").Status.NominatedNodeName != "n1" {
		t.Fatal("p not nominated to n1")
	}
	must(t, e.Step(5*time.Second))
	must(t, e.DeletePod("default/vip", KubectlDeleteOptions(0, true)))
	p := e.Pod("default/p")
	if p.Spec.NodeName != "n2" || p.Status.NominatedNodeName != "" {
		t.Fatalf("p on %q nominated %q, want n2 and no nomination", p.Spec.NodeName, p.Status.NominatedNodeName)
	}
	// the victim keeps terminating on n1
	if st, _ := e.PodState("default/low"); st != StateTerminating {
		t.Fatalf("victim %s", st)
	}
}
