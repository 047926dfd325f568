package controllers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

func frontendRS(replicas int32) *api.ReplicaSet {
	return &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "frontend", Namespace: "default"},
		Spec: api.ReplicaSetSpec{Replicas: ptr(replicas), Selector: labelSel("tier", "frontend"), Template: template("php-redis:v3", "tier", "frontend")}}
}

// The seed's pod-rs.yaml: bare pods carrying the ReplicaSet's labels are
// adopted before it creates anything.
func TestReplicaSetAdoptsOrphans(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	fc.addPod(mkPod("pod1").label("tier", "frontend").node("node-a").readyAt(0).obj())
	fc.addPod(mkPod("pod2").label("tier", "frontend").node("node-b").readyAt(0).obj())
	foreign := mkPod("foreign").label("tier", "frontend").node("node-b").readyAt(0).obj()
	foreign.OwnerReferences = []api.OwnerReference{{Kind: "StatefulSet", Name: "other", UID: "other-uid", Controller: true}}
	fc.addPod(foreign)
	fc.addPod(mkPod("leaving").label("tier", "frontend").node("node-b").readyAt(0).terminating(0).obj())
	fc.addPod(mkPod("other-app").label("tier", "backend").node("node-b").readyAt(0).obj())
	rs, err := fc.m.AddReplicaSet(frontendRS(3))
	if err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(10))
	if got := fc.eventMessages("SuccessfulCreate"); len(got) != 1 {
		t.Fatalf("want exactly 1 pod created after adopting 2, got %v", got)
	}
	for _, name := range []string{"pod1", "pod2"} {
		if !isControlledBy(&fc.pods["default/"+name].ObjectMeta, rs.UID) {
			t.Errorf("%s not adopted", name)
		}
	}
	for _, name := range []string{"foreign", "other-app"} {
		if isControlledBy(&fc.pods["default/"+name].ObjectMeta, rs.UID) {
			t.Errorf("%s must not be adopted", name)
		}
	}
	// Relabel an owned pod: it is released and replaced.
	if err := fc.SetPodOwnership("default", "pod1", map[string]string{"tier": "debug"}, fc.pods["default/pod1"].OwnerReferences); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(20))
	if fc.pods["default/pod1"].ControllerRef() != nil {
		t.Fatal("pod1 no longer matches and must be released")
	}
	if got := fc.eventMessages("SuccessfulCreate"); len(got) != 2 {
		t.Fatalf("released pod must be replaced: %v", got)
	}
	if rs.Status.Replicas != 3 || rs.Status.FullyLabeledReplicas != 3 {
		t.Fatalf("status %+v", rs.Status)
	}
}

// Scale-down through the controller: doubled-up node first; with a
// pod-deletion-cost the cheap pod goes first whatever its node.
func TestReplicaSetScaleDownOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		costs map[string]int
		want  []string
	}{
		{"colocation", nil, []string{"p1", "p2"}},
		{"deletion cost", map[string]int{"p4": -100, "p3": -50}, []string{"p4", "p3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc := newFakeCluster(t, nodes(3)...)
			placement := map[string]string{"p1": "node-a", "p2": "node-a", "p3": "node-b", "p4": "node-c"}
			for _, n := range []string{"p1", "p2", "p3", "p4"} {
				b := mkPod(n).label("tier", "frontend").node(placement[n]).readyAt(0)
				if c, ok := tc.costs[n]; ok {
					b.cost(c)
				}
				fc.addPod(b.obj())
			}
			if _, err := fc.m.AddReplicaSet(frontendRS(4)); err != nil {
				t.Fatal(err)
			}
			fc.runUntil(sec(100))
			order := fc.m.ScaleDownOrder("default", "frontend")
			if len(order) != 4 || order[0].Reason == "" {
				t.Fatalf("ScaleDownOrder %+v", order)
			}
			if err := fc.m.Scale(KindReplicaSet, "default", "frontend", 2); err != nil {
				t.Fatal(err)
			}
			fc.runUntil(sec(101))
			got := fc.eventMessages("SuccessfulDelete")
			want := []string{"Deleted pod: " + tc.want[0], "Deleted pod: " + tc.want[1]}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("deleted %v, want %v", got, want)
			}
		})
	}
}

type refusingCluster struct{ *fakeCluster }

func (r refusingCluster) CreatePod(p *api.Pod) error {
	return fmt.Errorf(`pods "%s" is forbidden: no PriorityClass with name gold was found`, p.Name)
}

// Refused creations are retried with the work queue's exponential backoff
// (5ms doubling), not on every cluster change.
func TestReplicaSetCreateBackoff(t *testing.T) {
	fc := newFakeCluster(t, nodes(1)...)
	fc.m = New(refusingCluster{fc}, 1)
	if _, err := fc.m.AddReplicaSet(frontendRS(1)); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(1))
	var at []api.Time
	for _, e := range fc.events {
		if e.Reason == "FailedCreate" {
			at = append(at, e.Time)
			if !strings.HasPrefix(e.Message, `Error creating: pods "frontend-`) {
				t.Fatalf("message %q", e.Message)
			}
		}
	}
	// 0, 5ms, 15ms, 35ms, … 635ms: 8 attempts in the first second.
	if len(at) != 8 || at[1] != api.Time(5*time.Millisecond) || at[2] != api.Time(15*time.Millisecond) {
		t.Fatalf("attempts at %v", at)
	}
}
