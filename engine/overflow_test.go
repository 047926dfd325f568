package engine

import (
	"math"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// Issue 17 point 6: `delete pod p1 --grace-period=9223372036854775807`
// showed "SIGTERM 5s–4s · SIGKILL 4s": the grace period in nanoseconds
// wrapped round. Virtual time saturates: SIGKILL is planned for the end
// of time, after the SIGTERM, and the pod is still terminating later.
func TestHugeGracePeriodSaturates(t *testing.T) {
	for _, grace := range []int64{math.MaxInt64, math.MaxInt64 / int64(time.Second), 92233720368} {
		e := New(Config{Seed: 1, NewScheduler: ByNameScheduler})
		must(t, e.AddNode(node("n1", "4", "8Gi")))
		must(t, e.CreatePod(pod("p1").on("n1").ann(kubelet.AnnotationTerminateAfter, "never").obj()))
		must(t, e.Step(5*time.Second))
		g := grace
		must(t, e.DeletePod("default/p1", DeleteOptions{GracePeriodSeconds: &g}))
		must(t, e.Step(time.Minute))
		if e.Pod("default/p1") == nil {
			t.Fatalf("grace %d: the pod is gone after a minute", grace)
		}
		tl, ok := e.Timeline("default/p1")
		if !ok {
			t.Fatal("no timeline")
		}
		var spans []string
		for _, c := range tl.Containers {
			for _, s := range c.Spans {
				spans = append(spans, s.Phase+" "+s.Start.String()+"–"+s.End.String())
				if s.End < s.Start {
					t.Errorf("grace %d: span %s ends before it starts", grace, s.Phase)
				}
			}
		}
		if !strings.Contains(strings.Join(spans, " "), "SIGTERM 5s") {
			t.Errorf("grace %d: spans %v", grace, spans)
		}
	}
}

// Repeated `advance 8760h` once reached "run until -9206696073s" near 292
// years: the clock stops at MaxClock with an error that says so.
func TestClockStopsAtMaxClock(t *testing.T) {
	e := New(Config{Seed: 1})
	must(t, e.Step(time.Hour))
	for _, err := range []error{e.RunUntil(MaxClock + 1), e.Step(math.MaxInt64), e.Step(time.Duration(MaxClock))} {
		if err == nil || !strings.Contains(err.Error(), "the virtual clock stops at 100 years (876000h0m0s)") {
			t.Errorf("past MaxClock: %v", err)
		}
	}
	if e.Now() != api.Time(time.Hour) {
		t.Fatalf("the clock moved to %s", e.Now())
	}
	for _, tc := range []struct {
		now  api.Time
		d    time.Duration
		want string
	}{
		{0, -5 * time.Second, "must be greater than or equal to 0"},
		{MaxClock, 1, "the virtual clock stops at 100 years"},
		{0, math.MaxInt64, "the virtual clock stops at 100 years"},
		{0, time.Hour, ""},
	} {
		err := CheckClock(tc.now, tc.d)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckClock(%s, %s) = %v, want %q", tc.now, tc.d, err, tc.want)
		}
	}
}

// The same class elsewhere: every int64 "seconds" field the engine turns
// into virtual time saturates (tolerationSeconds, preStop sleep).
func TestHugeSecondsFieldsSaturate(t *testing.T) {
	huge := int64(math.MaxInt64)
	t.Run("tolerationSeconds", func(t *testing.T) {
		e := New(Config{Seed: 1, NewScheduler: ByNameScheduler})
		must(t, e.AddNode(node("n1", "4", "8Gi")))
		p := pod("p1").on("n1").obj()
		p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &huge}}
		must(t, e.CreatePod(p))
		must(t, e.TaintNode("n1", api.Taint{Key: "k", Effect: "NoExecute"}))
		must(t, e.Step(time.Hour))
		if st, _ := e.PodState("default/p1"); st != StateRunning {
			t.Fatalf("pod %v an hour after the taint; it tolerates it for %d s", st, huge)
		}
	})
	t.Run("preStop sleep", func(t *testing.T) {
		e := New(Config{Seed: 1, NewScheduler: ByNameScheduler})
		must(t, e.AddNode(node("n1", "4", "8Gi")))
		p := pod("p1").on("n1").obj()
		p.Spec.Containers[0].Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{SleepSeconds: &huge}}
		must(t, e.CreatePod(p))
		must(t, e.Step(time.Second))
		g := int64(60)
		must(t, e.DeletePod("default/p1", DeleteOptions{GracePeriodSeconds: &g}))
		must(t, e.Step(30*time.Second))
		if e.Pod("default/p1") == nil {
			t.Fatal("the pod is gone 30 s into a 60 s grace period")
		}
		must(t, e.Step(time.Minute))
		if e.Pod("default/p1") != nil {
			t.Fatal("the pod outlived its grace period")
		}
	})
}
