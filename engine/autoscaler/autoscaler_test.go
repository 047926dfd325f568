package autoscaler

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
)

func TestScaleUpAddsANodeAfterTheProvisioningTime(t *testing.T) {
	e, _ := cluster(t, []NodeGroup{group("pool", 1, 5, template("2", "4Gi", "zone-a"))}, Options{NodeProvisioningTime: 30 * time.Second})
	create(t, e, pod("p1", "1500m", "1Gi", "rs"), pod("p2", "1500m", "1Gi", "rs"))
	run(t, e, 10*time.Second)
	got := events(e, ReasonTriggeredScaleUp)
	want := "TriggeredScaleUp pod/default/p2: pod triggered scale-up: [{pool 1->2 (max: 5)}]"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("events = %q, want [%q]", got, want)
	}
	if n := nodeNames(e); n != "pool-1" {
		t.Fatalf("nodes before provisioning = %s", n)
	}
	run(t, e, 30*time.Second)
	if n := nodeNames(e); n != "pool-1 pool-2" {
		t.Fatalf("nodes after provisioning = %s", n)
	}
	if p := e.Pod("default/p2"); p.Spec.NodeName != "pool-2" {
		t.Fatalf("p2 on %q, want pool-2", p.Spec.NodeName)
	}
}

func TestNotTriggerScaleUpListsReasonsPerGroup(t *testing.T) {
	tainted := template("2", "4Gi", "zone-b")
	tainted.Spec.Taints = nil
	groups := []NodeGroup{
		group("a", 1, 1, template("2", "4Gi", "zone-a")),
		group("b", 0, 3, template("2", "4Gi", "zone-b", "disk", "hdd")),
		group("c", 0, 3, template("2", "4Gi", "zone-c", "disk", "hdd")),
	}
	e, _ := cluster(t, groups, Options{})
	p := pod("ssd", "1500m", "1Gi", "rs")
	p.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	create(t, e, p)
	run(t, e, 10*time.Second)
	got := events(e, ReasonNotTriggerScaleUp, ReasonTriggeredScaleUp)
	want := "NotTriggerScaleUp pod/default/ssd: pod didn't trigger scale-up: 1 max node group size reached, 2 node(s) didn't match Pod's node affinity/selector"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("events = %q\nwant [%q]", got, want)
	}
	// the verdict is not repeated every loop
	run(t, e, 30*time.Second)
	if got := events(e, ReasonNotTriggerScaleUp); len(got) != 1 {
		t.Fatalf("NotTriggerScaleUp recorded %d times", len(got))
	}
}

func TestScaleDownRemovesAnUnneededNodeAfterTheUnneededTime(t *testing.T) {
	e, a := cluster(t, []NodeGroup{group("pool", 1, 5, template("4", "8Gi", "zone-a"))}, Options{})
	// two nodes, each with a small pod: one can take the other's pod
	n2 := nodeFromTemplate(template("4", "8Gi", "zone-a"), "pool-9")
	n2.Labels[NodeGroupLabel] = "pool"
	if err := e.AddNode(n2); err != nil {
		t.Fatal(err)
	}
	p1, p2 := pod("p1", "500m", "1Gi", "rs"), pod("p2", "500m", "1Gi", "rs")
	p1.Spec.NodeName, p2.Spec.NodeName = "pool-1", "pool-9"
	create(t, e, p1, p2)
	run(t, e, 9*time.Minute)
	if n := nodeNames(e); n != "pool-1 pool-9" {
		t.Fatalf("nodes at 9m = %s", n)
	}
	st := a.Status()
	if len(st.ScaleDown.Nodes) != 2 || !st.ScaleDown.Nodes[0].Unneeded || st.ScaleDown.Nodes[1].Unneeded {
		t.Fatalf("scale-down verdicts = %+v", st.ScaleDown.Nodes)
	}
	run(t, e, 2*time.Minute)
	if n := nodeNames(e); n != "pool-9" {
		t.Fatalf("nodes at 11m = %s (events %q)", n, events(e, ReasonScaleDown, ReasonScaleDownFailed))
	}
	got := strings.Join(events(e, ReasonScaleDown), "\n")
	for _, w := range []string{
		"ScaleDown node/pool-1: marked the node as toBeDeleted/unschedulable",
		"ScaleDown pod/default/p1: deleting pod for node scale down",
		"ScaleDown node/pool-1: node removed by cluster autoscaler",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("events lack %q:\n%s", w, got)
		}
	}
}

func TestScaleDownRespectsMinSizeAndBlockingPods(t *testing.T) {
	e, a := cluster(t, []NodeGroup{group("pool", 0, 5, template("4", "8Gi", "zone-a"))}, Options{})
	for _, name := range []string{"pool-7", "pool-8"} {
		n := nodeFromTemplate(template("4", "8Gi", "zone-a"), name)
		n.Labels[NodeGroupLabel] = "pool"
		if err := e.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	bare := pod("bare", "100m", "100Mi", "")
	bare.Spec.NodeName = "pool-7"
	safe := pod("annotated", "100m", "100Mi", "rs")
	safe.Annotations = map[string]string{SafeToEvictAnnotation: "false"}
	safe.Spec.NodeName = "pool-8"
	create(t, e, bare, safe)
	run(t, e, 20*time.Minute)
	if n := nodeNames(e); n != "pool-7 pool-8" {
		t.Fatalf("nodes = %s", n)
	}
	reasons := map[string]string{}
	for _, ns := range a.Status().ScaleDown.Nodes {
		reasons[ns.Node] = ns.Reason
	}
	if !strings.Contains(reasons["pool-7"], "NotReplicated: default/bare is not replicated") {
		t.Errorf("pool-7: %q", reasons["pool-7"])
	}
	if !strings.Contains(reasons["pool-8"], "NotSafeToEvictAnnotation: pod annotated as not safe to evict present: annotated") {
		t.Errorf("pool-8: %q", reasons["pool-8"])
	}
}

func TestDeterministicClone(t *testing.T) {
	e, _ := cluster(t, []NodeGroup{group("a", 0, 5, template("2", "4Gi", "zone-a")), group("b", 0, 5, template("2", "4Gi", "zone-b"))}, Options{})
	create(t, e, pod("p1", "1500m", "1Gi", "rs"), pod("p2", "1500m", "1Gi", "rs"))
	c := e.Clone()
	run(t, e, time.Minute)
	if err := c.Step(time.Minute); err != nil {
		t.Fatal(err)
	}
	if nodeNames(e) != nodeNames(c) || len(e.Events()) != len(c.Events()) {
		t.Fatalf("clone diverged: %s vs %s", nodeNames(e), nodeNames(c))
	}
	_ = engine.EventNormal
}

// Utilisation is read before any removal is simulated
// (eligibility.FilterOutUnremovable runs over every candidate first): the
// second node reports its own 25 %, not the pods the first would send it.
func TestUtilizationIsReadBeforeRemovalSimulation(t *testing.T) {
	e, a := cluster(t, []NodeGroup{group("pool", 0, 5, template("4", "8Gi", "zone-a"))}, Options{})
	for _, name := range []string{"pool-7", "pool-8"} {
		n := nodeFromTemplate(template("4", "8Gi", "zone-a"), name)
		n.Labels[NodeGroupLabel] = "pool"
		if err := e.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	p1, p2 := pod("p1", "1", "1Gi", "rs"), pod("p2", "1", "1Gi", "rs")
	p1.Spec.NodeName, p2.Spec.NodeName = "pool-7", "pool-8"
	create(t, e, p1, p2)
	run(t, e, 10*time.Second)
	nodes := a.Status().ScaleDown.Nodes
	if len(nodes) != 2 || nodes[0].Utilization != 0.25 || nodes[1].Utilization != 0.25 {
		t.Fatalf("utilisation: %+v", nodes)
	}
	if !nodes[0].Unneeded || nodes[1].Unneeded || !strings.HasPrefix(nodes[1].Reason, "NoPlaceToMovePods") {
		t.Fatalf("verdicts: %+v", nodes)
	}
}

// An unready node goes after --scale-down-unready-time (20 m), not the
// unneeded time (planner: UnneededNodes.RemovableAt).
func TestUnreadyNodeGoesAfterTheUnreadyTime(t *testing.T) {
	e, _ := cluster(t, []NodeGroup{group("pool", 0, 5, template("4", "8Gi", "zone-a"))}, Options{})
	for _, name := range []string{"pool-7", "pool-8"} {
		n := nodeFromTemplate(template("4", "8Gi", "zone-a"), name)
		n.Labels[NodeGroupLabel] = "pool"
		if err := e.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	p := pod("p", "500m", "1Gi", "rs")
	p.Spec.NodeName = "pool-8"
	create(t, e, p)
	if err := e.SetNodeCondition("pool-7", engine.NodeConditionNotReady); err != nil {
		t.Fatal(err)
	}
	run(t, e, 15*time.Minute)
	if n := nodeNames(e); n != "pool-7 pool-8" {
		t.Fatalf("nodes at 15m = %s", n)
	}
	run(t, e, 6*time.Minute)
	if n := nodeNames(e); n != "pool-8" {
		t.Fatalf("nodes at 21m = %s", n)
	}
}
