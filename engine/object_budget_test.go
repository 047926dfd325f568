package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// Issue 17 point 1: a workload asking for more pods than the object
// budget allows stops creating them with a FailedCreate Warning in the
// ResourceQuota admission plugin's words (Error creating: is the
// controllers' RealPodControl.createPods event, controller_utils.go).
func TestObjectBudgetStopsEveryWorkloadKind(t *testing.T) {
	const budget = 6 // two nodes + four pods
	huge := int32(1_000_000_000)
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "w"}}
	tmpl := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "w"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}}}
	meta := api.ObjectMeta{Name: "w", Namespace: "default"}
	jobTmpl := tmpl
	jobTmpl.Spec.RestartPolicy = "Never"
	for _, tc := range []struct {
		kind string
		add  func(w *Workloads) error
		want int // pods created
	}{
		{"replicaset", func(w *Workloads) error {
			_, err := w.Manager.AddReplicaSet(&api.ReplicaSet{ObjectMeta: meta, Spec: api.ReplicaSetSpec{Replicas: &huge, Selector: sel, Template: tmpl}})
			return err
		}, 4},
		{"deployment", func(w *Workloads) error {
			_, err := w.Manager.AddDeployment(&api.Deployment{ObjectMeta: meta, Spec: api.DeploymentSpec{Replicas: &huge, Selector: sel, Template: tmpl}})
			return err
		}, 4},
		{"replicationcontroller", func(w *Workloads) error {
			_, err := w.Manager.AddReplicationController(&api.ReplicationController{ObjectMeta: meta, Spec: api.ReplicationControllerSpec{Replicas: &huge, Selector: map[string]string{"app": "w"}, Template: &tmpl}})
			return err
		}, 4},
		{"statefulset", func(w *Workloads) error {
			_, err := w.Manager.AddStatefulSet(&api.StatefulSet{ObjectMeta: meta, Spec: api.StatefulSetSpec{Replicas: &huge, Selector: sel, Template: tmpl, PodManagementPolicy: "Parallel"}})
			return err
		}, 4},
		{"job", func(w *Workloads) error {
			_, err := w.Manager.AddJob(&api.Job{ObjectMeta: meta, Spec: api.JobSpec{Parallelism: &huge, Completions: &huge, Template: jobTmpl}})
			return err
		}, 4},
		{"indexed job", func(w *Workloads) error {
			_, err := w.Manager.AddJob(&api.Job{ObjectMeta: meta, Spec: api.JobSpec{Parallelism: &huge, Completions: &huge, CompletionMode: "Indexed", Template: jobTmpl}})
			return err
		}, 4},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			e := New(Config{Seed: 1, NewScheduler: ByNameScheduler, MaxObjects: budget})
			must(t, e.AddNode(node("n1", "4", "8Gi")))
			must(t, e.AddNode(node("n2", "4", "8Gi")))
			w := e.NewWorkloads(1)
			must(t, tc.add(w))
			w.Manager.Start()
			e.Settle()
			must(t, e.Step(10*time.Minute))
			if got := len(e.Pods()); got != tc.want {
				t.Fatalf("%d pods, want %d (the budget)", got, tc.want)
			}
			var failed []Event
			for _, ev := range e.Events() {
				if ev.Reason == "FailedCreate" {
					failed = append(failed, ev)
				}
			}
			if len(failed) == 0 {
				t.Fatal("no FailedCreate event")
			}
			// the work queue's exponential backoff bounds the retries
			if len(failed) > 30 {
				t.Fatalf("%d FailedCreate events in 10 minutes", len(failed))
			}
			ev := failed[0]
			wantMsg := fmt.Sprintf(`is forbidden: exceeded quota: %s, requested: objects=1, used: objects=6, limited: objects=6`, ObjectBudgetName)
			prefix := `Error creating: pods "w-`
			if tc.kind == "statefulset" {
				// stateful_pod_control.go recordPodEvent
				prefix = `create Pod w-4 in StatefulSet w failed error: pods "w-4"`
			}
			if ev.Type != EventWarning || !strings.HasPrefix(ev.Message, prefix) || !strings.HasSuffix(ev.Message, wantMsg) {
				t.Fatalf("event %s %s %q", ev.Type, ev.Reason, ev.Message)
			}
		})
	}
}

func TestObjectBudgetDaemonSetAndNodes(t *testing.T) {
	e := New(Config{Seed: 1, NewScheduler: ByNameScheduler, MaxObjects: 5})
	for _, n := range []string{"n1", "n2", "n3"} {
		must(t, e.AddNode(node(n, "4", "8Gi")))
	}
	w := e.NewWorkloads(1)
	_, err := w.Manager.AddDaemonSet(&api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "ds", Namespace: "default"},
		Spec: api.DaemonSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "ds"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "ds"}}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}}}})
	must(t, err)
	w.Manager.Start()
	e.Settle()
	must(t, e.Step(time.Minute))
	if got := len(e.Pods()); got != 2 {
		t.Fatalf("%d daemon pods, want 2", got)
	}
	if got := eventLines(e.Events(), "FailedCreate"); len(got) == 0 {
		t.Fatal("no FailedCreate event")
	}
	err = e.AddNode(node("n4", "4", "8Gi"))
	want := `nodes "n4" is forbidden: exceeded quota: podlab-object-budget, requested: objects=1, used: objects=5, limited: objects=5`
	if err == nil || err.Error() != want {
		t.Fatalf("AddNode beyond the budget: %v\nwant %s", err, want)
	}
	if err := e.CheckObjects("pods", "", 3); err == nil || !strings.HasPrefix(err.Error(), "pods is forbidden: exceeded quota") {
		t.Fatalf("CheckObjects: %v", err)
	}
}

func TestObjectBudgetZeroMeansNone(t *testing.T) {
	e := New(Config{Seed: 1})
	for i := range 3 {
		must(t, e.AddNode(node(fmt.Sprintf("n%d", i), "4", "8Gi")))
	}
	if err := e.CheckObjects("pods", "p", 1<<40); err != nil {
		t.Fatal(err)
	}
}
