package engine

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

func probe(period, failure int32) *api.Probe {
	return &api.Probe{Handler: "httpGet", PeriodSeconds: period, FailureThreshold: failure}
}

func readyAt(e *Engine, key string) bool {
	c := e.Pod(key).Condition(api.PodReady)
	return c != nil && c.Status == api.ConditionTrue
}

// Readiness: the app answers from 25s after its start (2s start-up), the
// probe runs every 10s from the start (2, 12, 22, 32): Ready at 32s.
func TestReadinessProbeDrivesReady(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	p := pod("web").ann("lab.podlab.dev/ready-after", "25s").obj()
	p.Spec.Containers[0].ReadinessProbe = probe(10, 3)
	must(t, e.CreatePod(p))
	must(t, e.Step(sec(31.9).Sub(0)))
	if readyAt(e, "default/web") {
		t.Fatalf("ready at 31.9s, want not yet")
	}
	must(t, e.Step(sec(0.1).Sub(0)))
	if !readyAt(e, "default/web") {
		t.Fatalf("not ready at 32s")
	}
	if c := e.Pod("default/web").Condition(api.PodReady); c.LastTransitionTime != sec(32) {
		t.Fatalf("ready since %v, want 32s", c.LastTransitionTime)
	}
	// break readiness: failures at 42, 52, 62 (threshold 3) ⇒ not ready at 62
	must(t, e.Step(sec(3).Sub(0)))
	must(t, e.BreakProbe("default/web", "readiness"))
	must(t, e.Step(sec(61.9-35).Sub(0)))
	if !readyAt(e, "default/web") {
		t.Fatalf("not ready at 61.9s; want ready until the third failure")
	}
	must(t, e.Step(sec(0.1).Sub(0)))
	if readyAt(e, "default/web") {
		t.Fatalf("ready at 62s after three failures")
	}
	must(t, e.HealProbes("default/web"))
	must(t, e.Step(sec(10).Sub(0)))
	if !readyAt(e, "default/web") {
		t.Fatalf("not ready at 72s after heal")
	}
}

// Liveness failing restarts the container through the graceful path;
// restarts back off 0, 10s, 20s … (CrashLoopBackOff).
func TestLivenessRestartsWithBackOff(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	p := pod("web").ann("lab.podlab.dev/liveness-fails-at", "60s").obj()
	p.Spec.Containers[0].LivenessProbe = probe(10, 3)
	must(t, e.CreatePod(p))
	// start 2s; failures 62, 72, 82 ⇒ kill at 82, exits 1s later (83),
	// restarted at once (first restart).
	must(t, e.RunUntil(sec(83)))
	cs := e.Pod("default/web").Status.ContainerStatuses[0]
	if cs.RestartCount != 1 || cs.State.Running == nil || cs.State.Running.StartedAt != sec(83) {
		t.Fatalf("at 83s: %+v, want restarted once at 83s", cs)
	}
	if cs.LastState.Terminated == nil || cs.LastState.Terminated.ExitCode != 143 {
		t.Fatalf("last state %+v, want terminated 143", cs.LastState)
	}
	// second run: fails 143..163 ⇒ kill 163, exits 164 ⇒ back-off 10s
	must(t, e.RunUntil(sec(165)))
	cs = e.Pod("default/web").Status.ContainerStatuses[0]
	if cs.State.Waiting == nil || cs.State.Waiting.Reason != "CrashLoopBackOff" {
		t.Fatalf("at 165s: %+v, want CrashLoopBackOff", cs.State)
	}
	must(t, e.RunUntil(sec(174)))
	cs = e.Pod("default/web").Status.ContainerStatuses[0]
	if cs.RestartCount != 2 || cs.State.Running == nil {
		t.Fatalf("at 174s: %+v, want the second restart", cs)
	}
	var reasons []string
	for _, ev := range e.Events() {
		if ev.Reason == ReasonUnhealthy || ev.Reason == ReasonBackOff || ev.Reason == ReasonKilling {
			reasons = append(reasons, ev.Time.String()+" "+ev.Reason)
		}
	}
	// one Unhealthy at the first failed run of each streak (62s, 143s),
	// the kill when the third failure reaches failureThreshold
	want := []string{"62s Unhealthy", "82s Killing", "143s Unhealthy", "163s Killing", "164s BackOff"}
	if len(reasons) != len(want) {
		t.Fatalf("events %v, want %v", reasons, want)
	}
	for i := range want {
		if reasons[i] != want[i] {
			t.Fatalf("events %v, want %v", reasons, want)
		}
	}
}

// restartPolicy Never: a container that exits 1 fails the pod.
func TestExitUnderNeverFailsPod(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	p := pod("job").ann("lab.podlab.dev/exit", "1@30s").obj()
	p.Spec.RestartPolicy = "Never"
	must(t, e.CreatePod(p))
	must(t, e.RunUntil(sec(32)))
	if got := e.Pod("default/job").Status.Phase; got != api.PodFailed {
		t.Fatalf("phase %s, want Failed", got)
	}
	q := pod("ok").ann("lab.podlab.dev/exit", "0@5s").obj()
	q.Spec.RestartPolicy = "OnFailure"
	must(t, e.CreatePod(q))
	must(t, e.RunUntil(sec(40)))
	if got := e.Pod("default/ok").Status.Phase; got != api.PodSucceeded {
		t.Fatalf("phase %s, want Succeeded", got)
	}
}

// Init containers run one by one; the regular ones start after the last.
func TestInitContainersRunInOrder(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	p := pod("web").ann("lab.podlab.dev/exit.migrate", "0@5s").ann("lab.podlab.dev/exit.seed", "0@3s").obj()
	p.Spec.InitContainers = []api.Container{{Name: "migrate"}, {Name: "seed"}}
	must(t, e.CreatePod(p))
	must(t, e.RunUntil(sec(9.9)))
	got := e.Pod("default/web")
	if got.Status.Phase != api.PodPending || got.Status.InitContainerStatuses[1].State.Running == nil {
		t.Fatalf("at 9.9s: phase %s, seed %+v; want Pending with seed running", got.Status.Phase, got.Status.InitContainerStatuses[1].State)
	}
	must(t, e.RunUntil(sec(10)))
	got = e.Pod("default/web")
	if got.Status.Phase != api.PodRunning || !readyAt(e, "default/web") {
		t.Fatalf("at 10s: phase %s ready %v, want Running and Ready", got.Status.Phase, readyAt(e, "default/web"))
	}
	// a failing init container restarts with back-off under Always
	q := pod("bad").ann("lab.podlab.dev/exit.migrate", "1@1s").obj()
	q.Spec.InitContainers = []api.Container{{Name: "migrate"}}
	must(t, e.CreatePod(q))
	must(t, e.RunUntil(sec(60)))
	st := e.Pod("default/bad").Status
	if st.Phase != api.PodPending || st.InitContainerStatuses[0].RestartCount < 2 {
		t.Fatalf("bad: phase %s init %+v, want Pending and restarting", st.Phase, st.InitContainerStatuses[0])
	}
}

// A slow app (60 s to answer) under a liveness probe with the default
// failureThreshold is killed before it is up; a startupProbe holds the
// liveness probe back until the app answers (the docs' "protect slow
// starting containers").
func TestStartupProbeProtectsSlowStart(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	bare := pod("bare").ann("lab.podlab.dev/ready-after", "60s").obj()
	bare.Spec.Containers[0].LivenessProbe = probe(10, 3)
	must(t, e.CreatePod(bare))
	guarded := pod("guarded").ann("lab.podlab.dev/ready-after", "60s").obj()
	guarded.Spec.Containers[0].LivenessProbe = probe(10, 3)
	guarded.Spec.Containers[0].StartupProbe = probe(10, 30)
	guarded.Spec.Containers[0].ReadinessProbe = probe(5, 3)
	must(t, e.CreatePod(guarded))
	must(t, e.RunUntil(sec(120)))
	if got := e.Pod("default/bare").Status.ContainerStatuses[0].RestartCount; got == 0 {
		t.Errorf("bare: no restart in 2 minutes; liveness (runs at 2, 12, 22) should kill it at 22s")
	}
	cs := e.Pod("default/guarded").Status.ContainerStatuses[0]
	if cs.RestartCount != 0 || cs.Started == nil || !*cs.Started {
		t.Errorf("guarded: %+v, want started and never restarted", cs)
	}
	// startup passes at 62 (runs every 10 s from 2); readiness then runs
	// from 62 every 5 s and the app answers: ready at 62
	if c := e.Pod("default/guarded").Condition(api.PodReady); c == nil || c.Status != api.ConditionTrue || c.LastTransitionTime != sec(62) {
		t.Errorf("guarded Ready %+v, want True since 62s", c)
	}
}

// Restored pods with probes keep their recorded readiness until the next
// probe run, one period after t=0.
func TestRestoredPodWithProbe(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	p := restored("nr", api.PodRunning, api.ConditionFalse, sec(-30))
	p.Spec.Containers[0].ReadinessProbe = probe(10, 3)
	must(t, e.RestorePod(p))
	if readyAt(e, "default/nr") {
		t.Fatalf("ready at t=0; the recorded status says not ready")
	}
	if got := e.Pod("default/nr").Status.ContainerStatuses[0].RestartCount; got != 3 {
		t.Fatalf("restarts %d, want the recorded 3", got)
	}
	must(t, e.RunUntil(sec(10)))
	if !readyAt(e, "default/nr") {
		t.Fatalf("not ready at 10s; the probe (which passes) runs one period after t=0")
	}
	if got := e.Pod("default/nr").Status.ContainerStatuses[0].RestartCount; got != 3 {
		t.Fatalf("restarts %d after the probe, want the recorded 3", got)
	}
}

// A clone taken mid-crash-loop runs on exactly like the original (undo
// and previews rely on it): same events, same container statuses.
func TestCloneKeepsContainerRuntime(t *testing.T) {
	build := func() *Engine {
		e := newTestEngine(t)
		must(t, e.AddNode(node("n1", "4", "8Gi")))
		p := pod("web").ann("lab.podlab.dev/liveness-fails-at", "30s").ann("lab.podlab.dev/ready-after", "5s").obj()
		p.Spec.Containers[0].LivenessProbe = probe(10, 3)
		p.Spec.Containers[0].ReadinessProbe = probe(5, 1)
		must(t, e.CreatePod(p))
		return e
	}
	a := build()
	must(t, a.RunUntil(sec(150)))
	must(t, a.BreakProbe("default/web", "readiness"))
	b := a.Clone()
	must(t, a.RunUntil(sec(900)))
	must(t, b.RunUntil(sec(900)))
	ea, eb := eventLines(a.Events()), eventLines(b.Events())
	if len(ea) != len(eb) {
		t.Fatalf("original %d events, clone %d", len(ea), len(eb))
	}
	for i := range ea {
		if ea[i] != eb[i] {
			t.Fatalf("event %d: original %q, clone %q", i, ea[i], eb[i])
		}
	}
	if ra, rb := a.Pod("default/web").Status.ContainerStatuses[0].RestartCount, b.Pod("default/web").Status.ContainerStatuses[0].RestartCount; ra != rb || ra < 5 {
		t.Fatalf("restarts original %d clone %d, want equal and ≥ 5", ra, rb)
	}
}

// An unreachable kubelet neither probes nor restarts; when it is back it
// catches up with what came due (here a liveness failure: a kill).
func TestRuntimeCatchesUpAfterUnreachable(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	p := pod("web").ann("lab.podlab.dev/liveness-fails-at", "30s").obj()
	p.Spec.Containers[0].LivenessProbe = probe(10, 3)
	p.Spec.Tolerations = []api.Toleration{{Operator: api.TolerationOpExists}}
	must(t, e.CreatePod(p))
	must(t, e.RunUntil(sec(10)))
	must(t, e.SetNodeCondition("n1", NodeConditionUnreachable))
	must(t, e.RunUntil(sec(100)))
	if got := e.Pod("default/web").Status.ContainerStatuses[0].RestartCount; got != 0 {
		t.Fatalf("restarts %d while unreachable, want 0", got)
	}
	must(t, e.SetNodeCondition("n1", NodeConditionReady))
	must(t, e.RunUntil(sec(102)))
	if got := e.Pod("default/web").Status.ContainerStatuses[0].RestartCount; got != 1 {
		t.Fatalf("restarts %d after the kubelet came back, want 1 (killed on catch-up, exits 1s later)", got)
	}
}

// A liveness kill goes through killContainer: the probe's
// terminationGracePeriodSeconds (3 s) bounds the preStop hook (5 s asked),
// SIGTERM then gets the 2 s minimum; an app that ignores SIGTERM is
// SIGKILLed (137), one that exits after 1 s ends with 143.
func TestLivenessKillGracePath(t *testing.T) {
	for _, tc := range []struct {
		terminate string
		exitAt    float64
		code      int32
	}{{"1s", 86, 143}, {"never", 87, 137}} {
		e := newTestEngine(t)
		must(t, e.AddNode(node("n1", "4", "8Gi")))
		p := pod("web").ann("lab.podlab.dev/liveness-fails-at", "60s").ann(kubelet.AnnotationTerminateAfter, tc.terminate).preStop(5).obj()
		three := int64(3)
		p.Spec.Containers[0].LivenessProbe = probe(10, 3)
		p.Spec.Containers[0].LivenessProbe.TerminationGracePeriodSeconds = &three
		p.Spec.Containers[0].ProbeTerminationGracePeriodSeconds = &three
		must(t, e.CreatePod(p))
		// failures at 62, 72, 82: killed at 82, preStop until 85, SIGTERM at 85
		must(t, e.RunUntil(sec(tc.exitAt)))
		cs := e.Pod("default/web").Status.ContainerStatuses[0]
		if cs.RestartCount != 1 || cs.LastState.Terminated == nil || cs.LastState.Terminated.ExitCode != tc.code || cs.LastState.Terminated.FinishedAt != sec(tc.exitAt) {
			t.Fatalf("terminate-after %s: %+v (last %+v), want exit %d at %vs and a restart", tc.terminate, cs, cs.LastState.Terminated, tc.code, tc.exitAt)
		}
	}
}

// The init-container cases of kuberuntime_manager_test.go
// TestComputePodActionsWithInitContainers, as outcomes on the clock: two
// init containers (exit annotations), one regular container.
func TestInitContainerActions(t *testing.T) {
	type want struct {
		phase    string
		running  []string // containers running at the check
		restarts map[string]int32
	}
	for _, tc := range []struct {
		name   string
		policy string
		exits  map[string]string // exit annotations per init container
		at     float64
		want   want
	}{
		{"no init container started yet: start the first one", "Always", map[string]string{"init1": "0@5s", "init2": "0@5s"}, 2,
			want{api.PodPending, []string{"init1"}, nil}},
		{"init container still running: do nothing", "Always", map[string]string{"init1": "0@5s", "init2": "0@5s"}, 6,
			want{api.PodPending, []string{"init1"}, nil}},
		{"init container terminated successfully: start the next", "Always", map[string]string{"init1": "0@5s", "init2": "0@5s"}, 7,
			want{api.PodPending, []string{"init2"}, nil}},
		{"initialization completed: start all containers", "Always", map[string]string{"init1": "0@5s", "init2": "0@5s"}, 12,
			want{api.PodRunning, []string{"app"}, nil}},
		{"init container failed, restartPolicy Always: restart it", "Always", map[string]string{"init1": "1@5s", "init2": "0@5s"}, 7,
			want{api.PodPending, []string{"init1"}, map[string]int32{"init1": 1}}},
		{"init container failed, restartPolicy OnFailure: restart it", "OnFailure", map[string]string{"init1": "1@5s", "init2": "0@5s"}, 7,
			want{api.PodPending, []string{"init1"}, map[string]int32{"init1": 1}}},
		{"init container failed, restartPolicy Never: the pod fails", "Never", map[string]string{"init1": "1@5s", "init2": "0@5s"}, 7,
			want{api.PodFailed, nil, nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t)
			must(t, e.AddNode(node("n1", "4", "8Gi")))
			b := pod("p")
			for k, v := range tc.exits {
				b.ann("lab.podlab.dev/exit."+k, v)
			}
			p := b.obj()
			p.Spec.RestartPolicy = tc.policy
			p.Spec.InitContainers = []api.Container{{Name: "init1"}, {Name: "init2"}}
			p.Spec.Containers[0].Name = "app"
			must(t, e.CreatePod(p))
			must(t, e.RunUntil(sec(tc.at)))
			got := e.Pod("default/p")
			if got.Status.Phase != tc.want.phase {
				t.Fatalf("phase %s, want %s", got.Status.Phase, tc.want.phase)
			}
			var running []string
			for _, list := range [][]api.ContainerStatus{got.Status.InitContainerStatuses, got.Status.ContainerStatuses} {
				for _, cs := range list {
					if cs.State.Running != nil {
						running = append(running, cs.Name)
					}
					if want := tc.want.restarts[cs.Name]; cs.RestartCount != want {
						t.Errorf("%s restarts %d, want %d", cs.Name, cs.RestartCount, want)
					}
				}
			}
			if len(running) != len(tc.want.running) || (len(running) > 0 && running[0] != tc.want.running[0]) {
				t.Fatalf("running %v, want %v", running, tc.want.running)
			}
		})
	}
}

// A pod recorded in CrashLoopBackOff (3 restarts, last exit 5 s before
// t=0) stays in it until the kubelet's back-off for the 4th restart (40 s
// from the exit) ends, then runs again.
func TestRestoredCrashLoopBackOff(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	p := restored("crash", api.PodRunning, api.ConditionFalse, sec(-5)) // no probe, no annotation
	p.Status.ContainerStatuses[0].State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
	p.Status.ContainerStatuses[0].LastState = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Reason: "Error", StartedAt: sec(-25), FinishedAt: sec(-5)}}
	must(t, e.RestorePod(p))
	must(t, e.RunUntil(sec(34)))
	cs := e.Pod("default/crash").Status.ContainerStatuses[0]
	if cs.State.Waiting == nil || cs.RestartCount != 3 {
		t.Fatalf("at 34s: %+v, want still waiting with 3 restarts", cs)
	}
	must(t, e.RunUntil(sec(35)))
	cs = e.Pod("default/crash").Status.ContainerStatuses[0]
	if cs.State.Running == nil || cs.RestartCount != 4 || cs.LastState.Terminated == nil || cs.LastState.Terminated.FinishedAt != sec(-5) {
		t.Fatalf("at 35s: %+v, want running, 4 restarts, last exit at -5s", cs)
	}
}
