package engine

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// restored builds a bound pod with a recorded status.
func restored(name string, phase string, ready string, readySince api.Time) *api.Pod {
	p := pod(name).on("n1").label("app", "web").req("100m", "100Mi").obj()
	p.CreationTimestamp = sec(-600)
	start := sec(-590)
	p.Status = api.PodStatus{Phase: phase, StartTime: &start}
	if ready != "" {
		p.Status.Conditions = []api.Condition{{Type: api.PodReady, Status: ready, LastTransitionTime: readySince}}
	}
	p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app", Ready: ready == api.ConditionTrue, RestartCount: 3}}
	return p
}

// RestorePod keeps what the manifest recorded: phase, start time,
// conditions with their times, restarts; defaults fill the rest.
func TestRestorePodKeepsStatus(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	must(t, e.RestorePod(restored("not-ready", api.PodRunning, api.ConditionFalse, sec(-30))))
	must(t, e.RestorePod(restored("ready", api.PodRunning, api.ConditionTrue, sec(-300))))
	must(t, e.RestorePod(restored("no-status", "", "", 0)))
	must(t, e.RestorePod(restored("done", api.PodSucceeded, api.ConditionFalse, sec(-10))))
	must(t, e.RestorePod(restored("starting", api.PodPending, "", 0)))

	nr := e.Pod("default/not-ready")
	if c := nr.Condition(api.PodReady); c == nil || c.Status != api.ConditionFalse || c.LastTransitionTime != sec(-30) {
		t.Errorf("not-ready: Ready %+v, want False since -30s", c)
	}
	if c := nr.Condition(api.ContainersReady); c == nil || c.Status != api.ConditionFalse {
		t.Errorf("not-ready: ContainersReady %+v follows Ready", c)
	}
	if nr.CreationTimestamp != sec(-600) || nr.Status.StartTime == nil || *nr.Status.StartTime != sec(-590) {
		t.Errorf("not-ready: created %v started %v, want -600s and -590s", nr.CreationTimestamp, nr.Status.StartTime)
	}
	if nr.Status.ContainerStatuses[0].RestartCount != 3 {
		t.Errorf("restarts %d, want 3", nr.Status.ContainerStatuses[0].RestartCount)
	}
	if c := e.Pod("default/ready").Condition(api.PodReady); c.LastTransitionTime != sec(-300) {
		t.Errorf("ready since %v, want -300s", c.LastTransitionTime)
	}
	ns := e.Pod("default/no-status")
	if c := ns.Condition(api.PodReady); ns.Status.Phase != api.PodRunning || c == nil || c.Status != api.ConditionTrue || c.LastTransitionTime != sec(-590) {
		t.Errorf("no-status: phase %s Ready %+v, want Running and ready since its start", ns.Status.Phase, c)
	}
	if st, _ := e.PodState("default/done"); st != StateTerminated || e.Pod("default/done").Status.Phase != api.PodSucceeded {
		t.Errorf("done: state %v phase %s, want Terminated Succeeded", st, e.Pod("default/done").Status.Phase)
	}
	if st, _ := e.PodState("default/starting"); st != StateStarting {
		t.Errorf("starting: state %v, want ContainerCreating", st)
	}
	// the terminal pod holds nothing: three running pods and one starting
	if got := len(e.snap.Get("n1").Pods); got != 4 {
		t.Errorf("n1 holds %d pods, want 4 (the Succeeded one holds nothing)", got)
	}
	must(t, e.Step(sec(5).Sub(0)))
	if st, _ := e.PodState("default/starting"); st != StateRunning {
		t.Errorf("starting after 5s: state %v, want Running", st)
	}

	// A node that comes back does not make a pod Ready that its kubelet
	// reports not ready.
	e.setPodsReadiness("n1", false)
	e.setPodsReadiness("n1", true)
	if c := e.Pod("default/not-ready").Condition(api.PodReady); c.Status != api.ConditionFalse {
		t.Errorf("not-ready became Ready when its node came back")
	}
	if c := e.Pod("default/ready").Condition(api.PodReady); c.Status != api.ConditionTrue {
		t.Errorf("ready stayed not ready when its node came back")
	}
}

// A PDB counts a recorded not-ready pod as unhealthy (disruption
// controller's countHealthyPods reads the Ready condition).
func TestRestoredNotReadyPodIsUnhealthyForPDB(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	must(t, e.RestorePod(restored("a", api.PodRunning, api.ConditionTrue, sec(-100))))
	must(t, e.RestorePod(restored("b", api.PodRunning, api.ConditionFalse, sec(-100))))
	one := api.IntOrString{IntVal: 1}
	must(t, e.AddPDB(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.PDBSpec{MinAvailable: &one, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}))
	st := e.PDBs()[0].Status
	if st.CurrentHealthy != 1 || st.DisruptionsAllowed != 0 {
		t.Fatalf("currentHealthy %d allowed %d, want 1 and 0", st.CurrentHealthy, st.DisruptionsAllowed)
	}
}
