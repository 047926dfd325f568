package engine

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

func TestDeploymentWithPercentageBudgetThroughDrain(t *testing.T) {
	e := New(Config{Seed: 3, NewScheduler: ByNameScheduler})
	for _, n := range []string{"n1", "n2", "n3"} {
		must(t, e.AddNode(node(n, "4", "8Gi")))
	}
	w := e.NewWorkloads(3)
	replicas := int32(4)
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: &replicas, Selector: sel,
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("1")}}}}}}}}
	if _, err := w.Manager.AddDeployment(d); err != nil {
		t.Fatal(err)
	}
	w.Manager.Start()
	e.Settle()
	must(t, e.AddPDB(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.PDBSpec{MaxUnavailable: &api.IntOrString{IsString: true, StrVal: "25%"}, Selector: sel}}))
	must(t, e.Step(5*time.Second))
	st := e.PDBs()[0].Status
	// 25% of the Deployment's 4 replicas, rounded up: 1 may be unavailable
	if st.ExpectedPods != 4 || st.DesiredHealthy != 3 || st.CurrentHealthy != 4 || st.DisruptionsAllowed != 1 {
		t.Fatalf("PDB status %+v", st)
	}
	dr, err := e.Drain("n1", DrainOptions{GracePeriodSeconds: -1})
	must(t, err)
	must(t, e.Step(2*time.Minute))
	if !dr.Done || dr.Err != "" {
		t.Fatalf("drain: %+v", dr.Lines)
	}
	running := 0
	for _, p := range e.Pods() {
		if st, _ := e.PodState(p.Key()); st == StateRunning {
			running++
			if p.Spec.NodeName == "n1" {
				t.Fatalf("pod %s still on the drained node", p.Name)
			}
		}
	}
	if running != 4 {
		t.Fatalf("%d pods running after the drain, want 4", running)
	}
	// the clone carries its own controllers
	c := e.Clone()
	must(t, c.Step(time.Minute))
	if len(c.Pods()) != len(e.Pods()) {
		t.Fatalf("clone pods %d vs %d", len(c.Pods()), len(e.Pods()))
	}
}
