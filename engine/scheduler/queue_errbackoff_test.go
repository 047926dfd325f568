package scheduler

import (
	"reflect"
	"testing"
	"time"
)

// An error pod (no rejecting plugin: a plugin error, or no nodes at all)
// goes to podErrorBackoffQ, and Pop does not take it early even when
// activeQ is empty: popBackoff pops podBackoffQ only
// (pkg/scheduler/backend/queue/backoff_queue.go:360, v1.36.3;
// backoffQueue.add at :295 sends a pod with neither UnschedulablePlugins
// nor PendingPlugins to podErrorBackoffQ).
func TestErrorPodIsNotPoppedBeforeItsBackoffCompletes(t *testing.T) {
	q := NewQueue()
	pi := mkPod("p", 1, 0)
	q.Add(pi, at(0))
	q.Pop(at(0))
	q.AddError(pi, at(0))
	for _, now := range []time.Duration{0, 10 * time.Millisecond, time.Second, 2*time.Second - 1} {
		if got := q.Pop(at(now)); got != nil {
			t.Fatalf("error pod popped at %v, still backing off", now)
		}
	}
	if p := q.Pending(); len(p) != 1 || p[0].Where != InBackoff || p[0].ErrorCount != 1 {
		t.Fatalf("pending %+v", p)
	}
	if got := q.Pop(at(2 * time.Second)); got != pi {
		t.Fatalf("error pod not popped at 2 s")
	}
}

// No rejecting plugin (schedule_one.go:1234: ErrNoNodesAvailable leaves
// UnschedulablePlugins empty) makes AddUnschedulable count an error
// (scheduling_queue.go:926 AddUnschedulableIfNotPresent:
// ConsecutiveErrorsCount++), with the error backoff.
func TestUnschedulableWithoutPluginsIsAnErrorPod(t *testing.T) {
	q := NewQueue()
	pi := mkPod("p", 1, 0)
	q.Add(pi, at(0))
	q.Pop(at(0))
	q.AddUnschedulable(pi, nil, at(0))
	p := q.Pending()
	if len(p) != 1 || p[0].Where != InBackoff || p[0].ErrorCount != 1 || p[0].UnschedulableCount != 0 {
		t.Fatalf("pending %+v", p)
	}
	if got := q.Pop(at(time.Second)); got != nil {
		t.Fatalf("popped at 1 s")
	}
}

// The instants an error pod is retried when every attempt fails at the
// instant it is popped: backoff 1 s doubling to 10 s
// (backoff_queue.go:250 calculateBackoffDuration), the expiry aligned
// down to the 1 s window (:222 getBackoffTime), backing off while the
// expiry is not before the current window (:211 isPodBackingoff), and
// moved to activeQ by the flush that runs on every whole second
// (:151 waitUntilAlignedWithOrderingWindow, scheduling_queue.go:438 Run,
// :968 flushBackoffQCompleted). NextBackoffExpiry is that flush tick.
func TestErrorPodRetryInstants(t *testing.T) {
	q := NewQueue()
	pi := mkPod("p", 1, 0)
	q.Add(pi, at(0))
	now := at(0)
	var got []time.Duration
	for len(got) < 9 {
		if q.Pop(now) != pi {
			t.Fatalf("not popped at %v", time.Duration(now))
		}
		got = append(got, time.Duration(now))
		q.AddError(pi, now)
		next, ok := q.NextBackoffExpiry()
		if !ok {
			t.Fatalf("no wake-up after the failure at %v", time.Duration(now))
		}
		if q.Pop(next-1) != nil {
			t.Fatalf("popped before the wake-up %v", time.Duration(next))
		}
		now = next
	}
	s := time.Second
	want := []time.Duration{0, 2 * s, 5 * s, 10 * s, 19 * s, 30 * s, 41 * s, 52 * s, 63 * s}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("retries at %v, want %v", got, want)
	}
}

// A failure off the whole second: the expiry 1.5 s is aligned down to
// 1 s, so the pod is back at the 2 s flush (not 2.5 s).
func TestErrorPodWakeIsTheFlushTickAfterTheAlignedExpiry(t *testing.T) {
	q := NewQueue()
	pi := mkPod("p", 1, 0)
	q.Add(pi, at(0))
	q.Pop(at(0))
	q.AddError(pi, at(500*time.Millisecond))
	if next, _ := q.NextBackoffExpiry(); next != at(2*time.Second) {
		t.Errorf("wake-up %v, want 2s", time.Duration(next))
	}
}

// A cluster event moves unschedulable pods only
// (scheduling_queue.go:1253 moveAllToActiveOrBackoffQueue iterates
// unschedulablePods): an error pod stays in podErrorBackoffQ until its
// backoff completes.
func TestClusterEventLeavesErrorPodsInBackoff(t *testing.T) {
	q := NewQueue()
	pi := mkPod("p", 1, 0)
	q.Add(pi, at(0))
	q.Pop(at(0))
	q.AddError(pi, at(0))
	if n := q.MoveAllToActiveOrBackoff(NodeAdd, at(500*time.Millisecond)); n != 0 {
		t.Errorf("node add moved %d pods", n)
	}
	if got := q.Pop(at(500 * time.Millisecond)); got != nil {
		t.Errorf("error pod popped after a node add")
	}
}

// Pods of both backoff heaps: a plugin-rejected pod moved to podBackoffQ
// is still popped early (SchedulerPopFromBackoffQ) while the error pod
// behind it waits; both are listed, updated, deleted and cloned.
func TestBackoffHeapsSideBySide(t *testing.T) {
	q := NewQueue()
	e, u := mkPod("e", 1, 0), mkPod("u", 1, 0)
	q.Add(e, at(0))
	q.Add(u, at(0))
	q.Pop(at(0))
	q.Pop(at(0))
	q.AddError(e, at(0))
	q.AddUnschedulable(u, []string{"NodeResourcesFit"}, at(0))
	q.MoveAllToActiveOrBackoff(NodeAdd, at(0))
	if p := q.Pending(); len(p) != 2 || p[0].Where != InBackoff || p[1].Where != InBackoff {
		t.Fatalf("pending %+v", p)
	}
	c := q.Clone(nil)
	if got := popNames(c, at(0)); !reflect.DeepEqual(got, []string{"u"}) {
		t.Errorf("clone popped %v, want [u]", got)
	}
	q.Update(mkPod("e", 2, 0), at(0))
	if q.Len() != 2 {
		t.Fatalf("len %d after update", q.Len())
	}
	q.Delete("default/u")
	if got := popNames(q, at(0)); len(got) != 0 {
		t.Errorf("popped %v at 0", got)
	}
	if got := popNames(q, at(2*time.Second)); !reflect.DeepEqual(got, []string{"e"}) {
		t.Errorf("popped %v at 2 s, want [e]", got)
	}
	if got := popNames(c, at(2*time.Second)); !reflect.DeepEqual(got, []string{"e"}) {
		t.Errorf("clone popped %v at 2 s, want [e]", got)
	}
}
