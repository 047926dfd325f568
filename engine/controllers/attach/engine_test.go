package attach

import (
	"strings"
	"testing"
	"time"

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
