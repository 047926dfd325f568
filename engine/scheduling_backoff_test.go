package engine

import (
	"reflect"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// failedSchedulingTimes lists when the pod got FailedScheduling, and
// checks each message.
func failedSchedulingTimes(t *testing.T, e *Engine, obj, wantMsg string) []time.Duration {
	t.Helper()
	var out []time.Duration
	for _, ev := range objectEvents(e, ReasonFailedScheduling, obj) {
		if ev.Type != EventWarning || ev.Message != wantMsg {
			t.Errorf("event %+v, want a Warning %q", ev, wantMsg)
		}
		out = append(out, time.Duration(ev.Time))
	}
	return out
}

// newDefaultEngine runs the real default profile (its message for no
// nodes is upstream's).
func newDefaultEngine() *Engine { return New(Config{Seed: 1}) }

// noisyRun moves the clock to end, waking the engine every 10 ms so that
// it settles (and the scheduler runs) at each of those instants, as
// controllers and kubelets do in a real scenario.
func noisyRun(t *testing.T, e *Engine, end time.Duration) {
	t.Helper()
	for at := e.Now().Add(10 * time.Millisecond); at <= api.Time(end); at = at.Add(10 * time.Millisecond) {
		e.WakeAt(at)
	}
	must(t, e.RunUntil(api.Time(end)))
}

// With no node at all, schedulePod fails with ErrNoNodesAvailable
// (pkg/scheduler/schedule_one.go:575, v1.36.3) and handleSchedulingFailure
// records FailedScheduling "no nodes available to schedule pods" (:1289)
// but no rejecting plugin (:1234), so the pod is an error pod: it backs
// off in podErrorBackoffQ, is not popped early (backoff_queue.go:360
// popBackoff) and comes back at the whole-second flush after its aligned
// expiry (backoff_queue.go:211, :222; scheduling_queue.go:438, :968).
// However often the engine settles, the attempts are at 0, 2, 5, 10, 19,
// 30, 41, 52 s — not at every settle instant.
func TestNoNodesRetriesFollowTheErrorBackoff(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.CreatePod(pod("p").req("100m", "").obj()))
	noisyRun(t, e, time.Minute)
	got := failedSchedulingTimes(t, e, "pod/default/p", "no nodes available to schedule pods")
	s := time.Second
	want := []time.Duration{0, 2 * s, 5 * s, 10 * s, 19 * s, 30 * s, 41 * s, 52 * s}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FailedScheduling at %v, want %v", got, want)
	}
}

// A node added while the pod backs off does not move it: Node/Add moves
// unschedulable pods only (scheduling_queue.go:1253
// moveAllToActiveOrBackoffQueue), so the pod is scheduled at the flush
// that ends its backoff — and then at once, even with no other wake-up.
func TestNodeAddedDuringErrorBackoff(t *testing.T) {
	for _, tc := range []struct {
		addAt, scheduledAt time.Duration
		failures           int
	}{
		{500 * time.Millisecond, 2 * time.Second, 1}, // expiry 1 s, flush at 2 s
		{3 * time.Second, 5 * time.Second, 2},        // failed at 2 s: expiry 4 s, flush at 5 s
		{20 * time.Second, 30 * time.Second, 5},      // failed at 19 s: expiry 29 s, flush at 30 s
		{29 * time.Second, 30 * time.Second, 5},
	} {
		e := newDefaultEngine()
		must(t, e.CreatePod(pod("p").req("100m", "").obj()))
		must(t, e.RunUntil(api.Time(tc.addAt)))
		must(t, e.AddNode(node("n1", "4", "8Gi")))
		must(t, e.RunUntil(api.Time(time.Minute)))
		if got := e.Pod("default/p").Spec.NodeName; got != "n1" {
			t.Fatalf("node added at %v: p on %q, want n1", tc.addAt, got)
		}
		var scheduled time.Duration = -1
		for _, ev := range objectEvents(e, ReasonScheduled, "pod/default/p") {
			scheduled = time.Duration(ev.Time)
		}
		if scheduled != tc.scheduledAt {
			t.Errorf("node added at %v: scheduled at %v, want %v", tc.addAt, scheduled, tc.scheduledAt)
		}
		if n := len(failedSchedulingTimes(t, e, "pod/default/p", "no nodes available to schedule pods")); n != tc.failures {
			t.Errorf("node added at %v: %d FailedScheduling, want %d", tc.addAt, n, tc.failures)
		}
	}
}

// A pod some plugin rejected is still moved by the Node add at once
// (it waits in the unschedulable pool, not in podErrorBackoffQ).
func TestNodeAddMovesPluginRejectedPodAtOnce(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.AddNode(node("small", "1", "1Gi")))
	must(t, e.CreatePod(pod("p").req("2", "").obj()))
	must(t, e.RunUntil(api.Time(3*time.Second)))
	must(t, e.AddNode(node("big", "4", "8Gi")))
	if got := e.Pod("default/p").Spec.NodeName; got != "big" {
		t.Fatalf("p on %q at 3 s, want big", got)
	}
}
