package attach

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
)

// Inside the engine: a scenario's bare pods matching a ReplicaSet are
// adopted before it creates any; Job pods run, finish and complete the
// Job; a DaemonSet covers a cordoned node.
func TestEngineAdoptionJobDaemonSet(t *testing.T) {
	e, c := newCluster(t, zoneNode("a-1", "a"), zoneNode("b-1", "b"))
	for _, name := range []string{"pod1", "pod2"} {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"tier": "frontend"}},
			Spec: api.PodSpec{NodeName: "a-1", Containers: []api.Container{{Name: "c", Image: "php-redis:v3"}}}}
		if err := e.CreatePod(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.AddReplicaSet(&api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "frontend", Namespace: "default"},
		Spec: api.ReplicaSetSpec{Replicas: ptr32(3), Selector: &api.LabelSelector{MatchLabels: map[string]string{"tier": "frontend"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"tier": "frontend"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "php-redis:v3"}}}}}}); err != nil {
		t.Fatal(err)
	}
	jobTmpl := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{controllers.AnnotationRunFor: "20s"}},
		Spec: api.PodSpec{RestartPolicy: "Never", Containers: []api.Container{{Name: "pi", Image: "perl"}}}}
	if _, err := c.AddJob(&api.Job{ObjectMeta: api.ObjectMeta{Name: "pi", Namespace: "default"},
		Spec: api.JobSpec{Completions: ptr32(2), Parallelism: ptr32(2), Template: jobTmpl}}); err != nil {
		t.Fatal(err)
	}
	if err := e.Cordon("b-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddDaemonSet(&api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "kube-system"},
		Spec: api.DaemonSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "agent"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "a", Image: "agent"}}}}}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if err := e.RunUntil(api.Time(2 * time.Minute)); err != nil {
		t.Fatal(err)
	}
	rs := c.ReplicaSet("default", "frontend")
	created := 0
	for _, ev := range e.Events() {
		if ev.Reason == "SuccessfulCreate" && strings.HasPrefix(ev.Object, "replicaset/") {
			created++
		}
	}
	if created != 1 || rs.Status.Replicas != 3 {
		t.Fatalf("replicaset created %d pods (want 1 after adopting 2), status %+v", created, rs.Status)
	}
	for _, n := range []string{"default/pod1", "default/pod2"} {
		if ref := e.Pod(n).ControllerRef(); ref == nil || ref.UID != rs.UID {
			t.Fatalf("%s not adopted", n)
		}
	}
	j := c.Job("default", "pi")
	if j.Status.Succeeded != 2 || j.Status.CompletionTime == nil {
		t.Fatalf("job status %+v", j.Status)
	}
	ds := c.DaemonSet("kube-system", "agent")
	if ds.Status.NumberReady != 2 {
		t.Fatalf("daemonset on the cordoned node too: %+v", ds.Status)
	}
}

func ptr32(v int32) *int32 { return &v }

// The rolling-update bounds inside the real engine, checked every time
// the control plane runs: at most replicas+maxSurge pods that are not
// terminating, at least replicas-maxUnavailable ready ones.
func TestEngineRollingUpdateBounds(t *testing.T) {
	var nodes []*api.Node
	for i := 0; i < 6; i++ {
		nodes = append(nodes, zoneNode(fmt.Sprintf("n-%d", i), fmt.Sprintf("z-%d", i%3)))
	}
	e, c := newCluster(t, nodes...)
	d := webDeployment(10)
	d.Spec.Template.Spec.TopologySpreadConstraints = nil
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &api.IntOrString{IntVal: 3}, MaxUnavailable: &api.IntOrString{IntVal: 2}}}
	if _, err := c.AddDeployment(d); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if err := e.RunUntil(api.Time(time.Minute)); err != nil {
		t.Fatal(err)
	}
	checks := 0
	e.AddController(engine.ControllerFunc(func(e *engine.Engine, now api.Time) {
		live, ready := 0, 0
		for _, p := range e.Pods() {
			if p.DeletionTimestamp != nil || p.IsTerminal() {
				continue
			}
			live++
			if c := p.Condition(api.PodReady); c != nil && c.Status == api.ConditionTrue {
				ready++
			}
		}
		checks++
		if live > 13 || ready < 8 {
			t.Errorf("at %v: %d pods (max 13), %d ready (min 8)", now, live, ready)
		}
	}))
	if err := c.Do(func(m *controllers.Manager) error { return m.SetImage("default", "web", "web", "nginx:1.26") }); err != nil {
		t.Fatal(err)
	}
	if err := e.RunUntil(api.Time(10 * time.Minute)); err != nil {
		t.Fatal(err)
	}
	if st := c.Deployment("default", "web").Status; st.UpdatedReplicas != 10 || st.AvailableReplicas != 10 || st.Replicas != 10 || checks < 5 {
		t.Fatalf("status %+v after %d checks", st, checks)
	}
}
