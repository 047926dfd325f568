package controllers

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// minReadySeconds: a new pod counts as available only after it has been
// ready for minReadySeconds, so the rollout waits that long per step.
func TestMinReadySecondsPacesRollout(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	obj := nginxDeployment(1)
	obj.Spec.MinReadySeconds = 10
	if _, err := fc.m.AddDeployment(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(12))
	d := fc.m.Deployment("default", "nginx-deployment")
	if d.Status.ReadyReplicas != 1 || d.Status.AvailableReplicas != 0 {
		t.Fatalf("at 12s (ready at 3s): %+v", d.Status)
	}
	fc.runUntil(sec(13.5))
	if d.Status.AvailableReplicas != 1 {
		t.Fatalf("available right after 13s: %+v", d.Status)
	}
	if err := fc.m.SetImage("default", "nginx-deployment", "app", "nginx:2"); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(200))
	var down api.Time
	for _, e := range fc.events {
		if e.Reason == "ScalingReplicaSet" && e.Message[:len("Scaled down")] == "Scaled down" {
			down = e.Time
		}
	}
	// new pod created at 13.5s, ready at 16.5s, available just after 26.5s
	if down <= sec(26.5) || down > sec(26.5)+1 {
		t.Fatalf("old ReplicaSet scaled down at %v, want the first instant after 26.5s", down)
	}
}

func TestProgressDeadlineExceeded(t *testing.T) {
	fc := newFakeCluster(t, nodes(1)...)
	obj := nginxDeployment(1)
	obj.Spec.ProgressDeadlineSeconds = ptr(int32(60))
	obj.Spec.Template.Annotations = map[string]string{"test/never-ready": "true"}
	if _, err := fc.m.AddDeployment(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(59))
	d := fc.m.Deployment("default", "nginx-deployment")
	if c := d.condition(DeploymentProgressing); c == nil || c.Status != api.ConditionTrue {
		t.Fatalf("before the deadline: %+v", d.Status.Conditions)
	}
	fc.runUntil(sec(120))
	c := d.condition(DeploymentProgressing)
	if c == nil || c.Reason != reasonTimedOut || c.Status != api.ConditionFalse || c.LastTransitionTime != sec(60)+1 {
		t.Fatalf("after the deadline: %+v", c)
	}
	if _, _, err := fc.m.RolloutStatus("default", "nginx-deployment"); err == nil || err.Error() != `deployment "nginx-deployment" exceeded its progress deadline` {
		t.Fatalf("rollout status error %v", err)
	}
}

// A paused Deployment does not roll out a template change but still scales.
func TestPausedDeployment(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	if _, err := fc.m.AddDeployment(nginxDeployment(2)); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	_ = fc.m.Pause("default", "nginx-deployment", true)
	_ = fc.m.SetImage("default", "nginx-deployment", "app", "nginx:2")
	_ = fc.m.Scale(KindDeployment, "default", "nginx-deployment", 4)
	fc.runUntil(sec(100))
	if n := len(fc.m.ReplicaSets()); n != 1 {
		t.Fatalf("paused deployment created a new ReplicaSet (%d)", n)
	}
	if live, _ := liveCounts(fc); live != 4 {
		t.Fatalf("paused deployment must still scale: %d pods", live)
	}
	if c := fc.m.Deployment("default", "nginx-deployment").condition(DeploymentProgressing); c.Reason != reasonPaused {
		t.Fatalf("condition %+v", c)
	}
	_ = fc.m.Pause("default", "nginx-deployment", false)
	fc.runUntil(sec(300))
	for _, p := range fc.pods {
		if p.Spec.Containers[0].Image != "nginx:2" {
			t.Fatalf("resumed rollout left %s on %s", p.Name, p.Spec.Containers[0].Image)
		}
	}
}
