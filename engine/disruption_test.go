package engine

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// replicaController keeps `replicas` active pods labelled app=<app>,
// naming new ones from a list (a stand-in for a ReplicaSet).
type replicaController struct {
	app      string
	replicas int
	names    []string
	next     int
	cpu      string
}

func (c *replicaController) Reconcile(e *Engine, now api.Time) {
	active := 0
	for _, p := range e.Pods() {
		if p.Labels["app"] == c.app && p.DeletionTimestamp == nil && !p.IsTerminal() {
			active++
		}
	}
	for ; active < c.replicas && c.next < len(c.names); active++ {
		p := pod(c.names[c.next]).label("app", c.app).req(c.cpu, "").owner("ReplicaSet", c.app).obj()
		c.next++
		_ = e.CreatePod(p)
	}
}

func intOrStr(v int32) *api.IntOrString { return &api.IntOrString{IntVal: v} }

// The Disruptions page's example (concepts/workloads/pods/disruptions):
// three nodes, a 3-replica app (pod-a…) with a PDB of minAvailable 2, an
// unrelated pod-x, and drains that block where the page says they do.
func TestDisruptionsPageDrainExample(t *testing.T) {
	e := newTestEngine(t)
	for _, n := range []string{"node-1", "node-2", "node-3"} {
		must(t, e.AddNode(node(n, "2", "8Gi")))
	}
	for _, p := range []*api.Pod{
		pod("pod-a").on("node-1").label("app", "web").req("1", "").owner("ReplicaSet", "web").obj(),
		pod("pod-x").on("node-1").label("app", "other").req("1", "").owner("ReplicaSet", "other").obj(),
		pod("pod-b").on("node-2").label("app", "web").req("1", "").owner("ReplicaSet", "web").obj(),
		pod("pod-c").on("node-3").label("app", "web").req("1", "").owner("ReplicaSet", "web").obj(),
	} {
		must(t, e.CreatePod(p))
	}
	must(t, e.AddPDB(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web-pdb", Namespace: "default"},
		Spec: api.PDBSpec{MinAvailable: intOrStr(2), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}))
	e.AddController(&replicaController{app: "web", replicas: 3, names: []string{"pod-d", "pod-e", "pod-f"}, cpu: "1"})
	e.AddController(&replicaController{app: "other", replicas: 1, names: []string{"pod-y"}, cpu: "1"})

	pdb := e.PDBs()[0]
	if pdb.Status.CurrentHealthy != 3 || pdb.Status.DesiredHealthy != 2 || pdb.Status.ExpectedPods != 3 || pdb.Status.DisruptionsAllowed != 1 {
		t.Fatalf("initial PDB status %+v", pdb.Status)
	}

	// Drain node-1: pod-a and pod-x are evicted at once; pod-d and pod-y
	// replace them on node-2 and node-3.
	d1, err := e.Drain("node-1", DrainOptions{GracePeriodSeconds: -1})
	must(t, err)
	if n := e.Pod("default/pod-d").Spec.NodeName; n != "node-2" {
		t.Fatalf("pod-d on %q, want node-2", n)
	}
	if n := e.Pod("default/pod-y").Spec.NodeName; n != "node-3" {
		t.Fatalf("pod-y on %q, want node-3", n)
	}
	must(t, e.Step(time.Second))
	if !d1.Done || d1.Err != "" {
		t.Fatalf("drain node-1: %+v", d1.Lines)
	}

	// pod-d is still starting: evicting any web pod now is refused.
	dec, err := e.Evict("default/pod-c", DeleteOptions{})
	must(t, err)
	if dec.Allowed || dec.Code != 429 || dec.Message != "Cannot evict pod as it would violate the pod's disruption budget." ||
		dec.Cause != "The disruption budget web-pdb needs 2 healthy pods and has 2 currently" {
		t.Fatalf("impatient eviction: %+v", dec)
	}

	// pod-d becomes available; drain node-2: pod-b goes, pod-d is refused,
	// pod-e cannot be placed, the drain blocks.
	must(t, e.Step(2*time.Second))
	d2, err := e.Drain("node-2", DrainOptions{GracePeriodSeconds: -1})
	must(t, err)
	must(t, e.Step(17*time.Second)) // t = 20s
	if d2.Done {
		t.Fatalf("drain node-2 finished: %v", d2.Lines)
	}
	blocked := d2.Blocked()
	if len(blocked) != 1 || blocked[0].Pod != "default/pod-d" || blocked[0].Since != sec(3) ||
		blocked[0].Cause != "The disruption budget web-pdb needs 2 healthy pods and has 2 currently" {
		t.Fatalf("blocked %+v", blocked)
	}
	if st, _ := e.PodState("default/pod-e"); st != StatePending {
		t.Fatalf("pod-e %s, want Pending", st)
	}
	snap := e.Snapshot()
	if len(snap.Pending) != 1 || snap.Pending[0].Message != "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were unschedulable." {
		t.Fatalf("pending %+v", snap.Pending)
	}

	// The administrator adds capacity back (uncordon node-1): pod-e runs,
	// the next retry evicts pod-d and the drain completes.
	must(t, e.Uncordon("node-1"))
	must(t, e.Step(10*time.Second))
	if !d2.Done || d2.Err != "" {
		t.Fatalf("drain node-2 not done: %v", d2.Lines)
	}
	var lines []string
	for _, l := range d2.Lines {
		lines = append(lines, l.Time.String()+" "+l.Text)
	}
	want := []string{
		"3s node/node-2 cordoned",
		"3s evicting pod default/pod-b",
		"3s evicting pod default/pod-d",
		`3s error when evicting pods/"pod-d" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
		"4s pod/pod-b evicted",
		`8s error when evicting pods/"pod-d" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
		`13s error when evicting pods/"pod-d" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
		`18s error when evicting pods/"pod-d" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
		"24s pod/pod-d evicted",
		"24s node/node-2 drained",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("drain output\n got:\n  %s\nwant:\n  %s", strings.Join(lines, "\n  "), strings.Join(want, "\n  "))
	}
	if c := e.Pod("default/pod-e"); c == nil || c.Spec.NodeName != "node-1" {
		t.Fatalf("pod-e %+v", c)
	}
}

func TestDrainRefusesDaemonSetAndUnmanagedPods(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	must(t, e.CreatePod(pod("ds-1").on("n1").owner("DaemonSet", "ds").obj()))
	must(t, e.CreatePod(pod("bare").on("n1").obj()))
	must(t, e.CreatePod(pod("web-1").on("n1").owner("ReplicaSet", "web").obj()))
	d, err := e.Drain("n1", DrainOptions{GracePeriodSeconds: -1})
	must(t, err)
	if !d.Done || !strings.Contains(d.Err, "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/ds-1") ||
		!strings.Contains(d.Err, "cannot delete Pods declare no controller (use --force to override): default/bare") {
		t.Fatalf("drain err %q", d.Err)
	}
	if e.Pod("default/web-1").DeletionTimestamp != nil {
		t.Fatal("a refused drain evicted a pod")
	}
	if !e.Node("n1").Spec.Unschedulable {
		t.Fatal("drain did not cordon")
	}
	d, err = e.Drain("n1", DrainOptions{IgnoreDaemonSets: true, Force: true, GracePeriodSeconds: -1})
	must(t, err)
	must(t, e.Step(5*time.Second))
	if !d.Done || d.Err != "" {
		t.Fatalf("drain: %v", d.Lines)
	}
	if e.Pod("default/ds-1") == nil || e.Pod("default/bare") != nil || e.Pod("default/web-1") != nil {
		t.Fatal("wrong pods left after drain")
	}
	if d.Lines[1].Text != "Warning: deleting Pods that declare no controller: default/bare; ignoring DaemonSet-managed Pods: default/ds-1" {
		t.Fatalf("warning line %q", d.Lines[1].Text)
	}
}

func TestDrainTimeout(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	must(t, e.CreatePod(pod("w").on("n1").label("app", "w").owner("ReplicaSet", "w").obj()))
	must(t, e.AddPDB(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"},
		Spec: api.PDBSpec{MinAvailable: intOrStr(1), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "w"}}}}))
	d, err := e.Drain("n1", DrainOptions{Timeout: 12 * time.Second, GracePeriodSeconds: -1})
	must(t, err)
	must(t, e.Step(20*time.Second))
	if !d.Done || d.Err != "drain did not complete within 12s" || d.Finished != sec(12) {
		t.Fatalf("drain %+v", d)
	}
}

func TestUnhealthyPodEvictionPolicy(t *testing.T) {
	for _, policy := range []string{"", "IfHealthyBudget", "AlwaysAllow"} {
		e := newTestEngine(t)
		must(t, e.AddNode(node("n1", "4", "8Gi")))
		must(t, e.AddNode(node("n2", "4", "8Gi")))
		must(t, e.CreatePod(pod("w1").on("n1").label("app", "w").owner("ReplicaSet", "w").obj()))
		must(t, e.CreatePod(pod("w2").on("n2").label("app", "w").owner("ReplicaSet", "w").obj()))
		b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"},
			Spec: api.PDBSpec{MinAvailable: intOrStr(2), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "w"}}}}
		if policy != "" {
			b.Spec.UnhealthyPodEvictionPolicy = &policy
		}
		must(t, e.AddPDB(b))
		must(t, e.SetNodeCondition("n2", NodeConditionNotReady)) // w2 not Ready
		dec, err := e.Evict("default/w2", DeleteOptions{})
		must(t, err)
		// healthy 1 < desired 2: only AlwaysAllow lets the unready pod go
		if dec.Allowed != (policy == "AlwaysAllow") {
			t.Errorf("policy %q: allowed=%v (%+v)", policy, dec.Allowed, dec)
		}
	}
}
