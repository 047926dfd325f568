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

// A new configuration restarts the scheduler, whose queue starts empty:
// every pending pod is added afresh to activeQ (the informer's Add,
// PriorityQueue.Add, with a new QueuedPodInfo: no failure counts, no
// backoff), so an error pod waiting in podErrorBackoffQ is tried at once.
// Here the pod has had no node since t=0 (attempts at 0, 2, 5, 10, 19 s,
// the next due at 30 s); a node joins at 20 s, which does not move an
// error pod, and the scheduler restarts at 21 s: the pod is scheduled
// then, not at 30 s.
func TestSetSchedulerRetriesErrorPodsAtOnce(t *testing.T) {
	e := New(Config{Seed: 1, NewScheduler: profilesFactory(scheduler.ProfileConfig{})})
	must(t, e.CreatePod(pod("p").req("100m", "").obj()))
	must(t, e.RunUntil(sec(20)))
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	must(t, e.RunUntil(sec(21)))
	if n := e.Pod("default/p").Spec.NodeName; n != "" {
		t.Fatalf("p on %q before the restart: the error backoff should hold it until 30 s", n)
	}
	e.SetScheduler(profilesFactory(scheduler.ProfileConfig{}))
	if n := e.Pod("default/p").Spec.NodeName; n != "n1" {
		t.Errorf("p on %q right after the restart, want n1", n)
	}
}
