package controllers

import (
	"fmt"
	"strings"
	"testing"
)

// A clone taken mid-rollout is independent of the original and, driven
// the same way, makes the same decisions.
func TestCloneIsIndependentAndFaithful(t *testing.T) {
	run := func(fc *fakeCluster, until float64) string {
		fc.runUntil(sec(until))
		var sb strings.Builder
		for _, e := range fc.events {
			fmt.Fprintf(&sb, "%v %s %s\n", e.Time, e.Reason, e.Message)
		}
		return sb.String()
	}
	fc := newFakeCluster(t, nodes(3)...)
	if _, err := fc.m.AddDeployment(nginxDeployment(4)); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	if err := fc.m.SetImage("default", "nginx-deployment", "app", "nginx:2"); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(31))
	// Clone the fake cluster state by hand and the Manager with Clone.
	fc2 := newFakeCluster(t, nodes(3)...)
	fc2.now = fc.now
	for k, p := range fc.pods {
		cp := deepCopy(*p)
		fc2.pods[k] = &cp
	}
	fc2.events = append(fc2.events, fc.events...)
	fc2.m = fc.m.Clone(fc2)
	if err := fc2.m.Scale(KindDeployment, "default", "nginx-deployment", 1); err != nil {
		t.Fatal(err)
	}
	if *fc.m.Deployment("default", "nginx-deployment").Spec.Replicas != 4 {
		t.Fatal("scaling the clone changed the original")
	}
	fc3 := newFakeCluster(t, nodes(3)...)
	fc3.m = fc.m.Clone(fc3)
	if fc3.m.names.suffix() != fc.m.names.clone().suffix() {
		t.Fatal("the clone's name generator must continue the original's stream")
	}
	_ = run(fc, 120)
	if d := fc.m.Deployment("default", "nginx-deployment"); d.Status.UpdatedReplicas != 4 {
		t.Fatalf("original rollout did not finish: %+v", d.Status)
	}
}
