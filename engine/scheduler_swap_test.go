package engine

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// profilesFactory builds the real scheduler with the given profiles.
func profilesFactory(profiles ...scheduler.ProfileConfig) SchedulerFactory {
	return func(seed int64, snap *framework.Snapshot, pdbs func() []*api.PodDisruptionBudget) Scheduler {
		s, err := scheduler.Build(scheduler.Config{Seed: seed, TieBreak: scheduler.TieBreakByName, PDBs: pdbs, Profiles: profiles}, snap)
		if err != nil {
			panic(err)
		}
		return s
	}
}

// TestUnknownSchedulerNameWaitsThenSetScheduler: a pod naming no profile
// is never attempted (no FailedScheduling event) and stays Pending; when
// SetScheduler brings a profile of that name, it is queued again and
// scheduled.
func TestUnknownSchedulerNameWaitsThenSetScheduler(t *testing.T) {
	e := New(Config{Seed: 1, NewScheduler: profilesFactory(scheduler.ProfileConfig{})})
	must(t, e.AddNode(node("node-1", "4", "8Gi")))
	p := pod("report").req("100m", "128Mi").p
	p.Spec.SchedulerName = "reporting"
	must(t, e.CreatePod(p))
	must(t, e.RunUntil(sec(600)))
	if st, _ := e.PodState("default/report"); st != StatePending {
		t.Fatalf("report is %s, want Pending", st)
	}
	for _, ev := range e.Events() {
		if ev.Reason == ReasonFailedScheduling {
			t.Fatalf("unexpected %s: %s", ev.Reason, ev.Message)
		}
	}
	e.SetScheduler(profilesFactory(scheduler.ProfileConfig{}, scheduler.ProfileConfig{SchedulerName: "reporting"}))
	if n := e.Pod("default/report").Spec.NodeName; n != "node-1" {
		t.Fatalf("after SetScheduler report is on %q, want node-1", n)
	}
}
