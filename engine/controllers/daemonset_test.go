package controllers

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

func fluentd() *api.DaemonSet {
	return &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "fluentd-elasticsearch", Namespace: "kube-system"},
		Spec: api.DaemonSetSpec{Selector: labelSel("name", "fluentd-elasticsearch"), Template: template("fluentd:v2.5.2", "name", "fluentd-elasticsearch")}}
}

func TestDaemonSetNodes(t *testing.T) {
	cordoned := mkNode("cordoned", nil)
	cordoned.Spec.Unschedulable = true
	pressure := mkNode("pressure", nil)
	pressure.Spec.Taints = []api.Taint{{Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule}}
	notReady := mkNode("not-ready", nil)
	notReady.Spec.Taints = []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}}
	gpu := mkNode("gpu", nil)
	gpu.Spec.Taints = []api.Taint{{Key: "gpu", Value: "true", Effect: api.TaintEffectNoSchedule}}
	control := mkNode("control-plane", nil)
	control.Spec.Taints = []api.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule}}
	netDown := mkNode("net-down", nil)
	netDown.Spec.Taints = []api.Taint{{Key: api.TaintNodeNetworkUnavailable, Effect: api.TaintEffectNoSchedule}}
	plain := mkNode("plain", nil)
	fc := newFakeCluster(t, cordoned, pressure, notReady, gpu, control, netDown, plain)
	if _, err := fc.m.AddDaemonSet(fluentd()); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	got := map[string]bool{}
	for _, p := range fc.pods {
		got[p.Spec.NodeName] = true
		if daemonPodTargetNode(p) != p.Spec.NodeName {
			t.Errorf("pod %s not pinned by node affinity to %s", p.Name, p.Spec.NodeName)
		}
	}
	want := map[string]bool{"cordoned": true, "pressure": true, "not-ready": true, "plain": true}
	for n := range want {
		if !got[n] {
			t.Errorf("no daemon pod on %s", n)
		}
	}
	for _, n := range []string{"gpu", "control-plane", "net-down"} {
		if got[n] {
			t.Errorf("daemon pod on %s despite its taint", n)
		}
	}
	ds := fc.m.DaemonSet("kube-system", "fluentd-elasticsearch")
	if ds.Status.DesiredNumberScheduled != 4 || ds.Status.NumberReady != 4 {
		t.Fatalf("status %+v", ds.Status)
	}

	// hostNetwork pods also tolerate network-unavailable.
	if err := fc.m.UpdateDaemonSet("kube-system", "fluentd-elasticsearch", func(s *api.DaemonSetSpec) { s.Template.Spec.HostNetwork = true }); err != nil {
		t.Fatal(err)
	}
	// A new node gets a pod; a removed node's pod goes; a NoExecute taint evicts.
	fc.nodes = append(fc.nodes, mkNode("new", nil))
	fc.nodes = fc.nodes[1:] // drop "cordoned"
	gpu.Spec.Taints = append(gpu.Spec.Taints, api.Taint{Key: "maintenance", Effect: api.TaintEffectNoExecute})
	plain.Spec.Taints = []api.Taint{{Key: "maintenance", Effect: api.TaintEffectNoExecute}}
	fc.runUntil(sec(400))
	got = map[string]bool{}
	for _, p := range fc.pods {
		if p.DeletionTimestamp == nil {
			got[p.Spec.NodeName] = true
			if !p.Spec.HostNetwork {
				t.Errorf("pod %s not rolled to the new template", p.Name)
			}
		}
	}
	for _, n := range []string{"new", "net-down", "pressure", "not-ready"} {
		if !got[n] {
			t.Errorf("after changes: no daemon pod on %s", n)
		}
	}
	for _, n := range []string{"cordoned", "plain"} {
		if got[n] {
			t.Errorf("after changes: daemon pod still on %s", n)
		}
	}
}

func TestDaemonSetNodeSelector(t *testing.T) {
	fc := newFakeCluster(t, mkNode("a", map[string]string{"disk": "ssd"}), mkNode("b", nil))
	ds := fluentd()
	ds.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	if _, err := fc.m.AddDaemonSet(ds); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(10))
	if len(fc.pods) != 1 {
		t.Fatalf("want 1 pod (node a), got %d", len(fc.pods))
	}
	for _, p := range fc.pods {
		if p.Spec.NodeName != "a" {
			t.Fatalf("pod on %s", p.Spec.NodeName)
		}
	}
}

// A daemon pod that keeps failing is deleted and replaced with the
// controller's per-node backoff (1s, 2s, 4s … since the last deletion).
func TestDaemonSetFailedPodBackoff(t *testing.T) {
	fc := newFakeCluster(t, mkNode("n1", nil))
	if _, err := fc.m.AddDaemonSet(fluentd()); err != nil {
		t.Fatal(err)
	}
	fc.afterInstant = func(api.Time) {
		for _, p := range fc.pods {
			if p.Status.Phase == api.PodRunning && p.DeletionTimestamp == nil {
				_ = fc.FinishPod(p.Namespace, p.Name, api.PodFailed, "Error")
				fc.after(0, func() {}) // let the controller see it at this instant
			}
		}
	}
	fc.runUntil(sec(9))
	var kills []api.Time
	for _, e := range fc.events {
		if e.Reason == "FailedDaemonPod" {
			kills = append(kills, e.Time)
		}
	}
	// running at 1s and failing at once each time it starts (1s after
	// creation): deletions at 1, 2 (1s backoff over), 4 (2s), 8 (4s).
	want := []api.Time{sec(1), sec(2), sec(4), sec(8)}
	if len(kills) != len(want) {
		t.Fatalf("deletions at %v, want %v", kills, want)
	}
	for i := range want {
		if kills[i] != want[i] {
			t.Fatalf("deletions at %v, want %v", kills, want)
		}
	}
}

// maxSurge 1, maxUnavailable 0: each node gets its new pod before the old
// one goes; never more than one node with two pods, never a node without
// an available pod.
func TestDaemonSetSurgeRollingUpdate(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	ds := fluentd()
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: "RollingUpdate",
		RollingUpdate: &api.RollingUpdateDaemonSet{MaxSurge: intStr("1"), MaxUnavailable: intStr("0")}}
	if _, err := fc.m.AddDaemonSet(ds); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	fc.afterInstant = func(now api.Time) {
		doubled := 0
		for _, n := range fc.nodes {
			live, avail := 0, 0
			for _, p := range fc.pods {
				if p.Spec.NodeName == n.Name && p.DeletionTimestamp == nil {
					live++
					if isPodReady(p) {
						avail++
					}
				}
			}
			if live > 1 {
				doubled++
			}
			if avail == 0 {
				t.Errorf("at %v node %s has no available daemon pod", now, n.Name)
			}
		}
		if doubled > 1 {
			t.Errorf("at %v %d nodes run two daemon pods (maxSurge 1)", now, doubled)
		}
	}
	if err := fc.m.UpdateDaemonSet("kube-system", "fluentd-elasticsearch", func(s *api.DaemonSetSpec) {
		s.Template.Spec.Containers[0].Image = "fluentd:v3"
	}); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(300))
	got := fc.m.DaemonSet("kube-system", "fluentd-elasticsearch").Status
	if got.UpdatedNumberScheduled != 3 || got.NumberAvailable != 3 {
		t.Fatalf("status %+v", got)
	}
}
