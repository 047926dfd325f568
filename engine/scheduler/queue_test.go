package scheduler

import (
	"reflect"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

func at(d time.Duration) api.Time { return api.Time(d) }

func popNames(q *Queue, now api.Time) []string {
	var out []string
	for pi := q.Pop(now); pi != nil; pi = q.Pop(now) {
		out = append(out, pi.Pod.Name)
	}
	return out
}

func TestQueueOrdersByPriorityThenArrival(t *testing.T) {
	q := NewQueue()
	q.Add(mkPod("low-1", 1, 0), at(0))
	q.Add(mkPod("high", 1, 100), at(time.Second))
	q.Add(mkPod("low-2", 1, 0), at(0))
	q.Add(mkPod("mid", 1, 50), at(2*time.Second))
	if got, want := popNames(q, at(3*time.Second)), []string{"high", "mid", "low-1", "low-2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestBackoffDurationDoublesToTheCap(t *testing.T) {
	q := NewQueue()
	want := []time.Duration{0, 1, 2, 4, 8, 10, 10, 10}
	for count, w := range want {
		if got := q.backoffDuration(count); got != w*time.Second {
			t.Errorf("count %d: %v, want %v", count, got, w*time.Second)
		}
	}
	if got := q.backoffDuration(100); got != 10*time.Second {
		t.Errorf("huge count: %v", got)
	}
}

func TestUnschedulablePodsWaitForARelevantEvent(t *testing.T) {
	q := NewQueue()
	pi := mkPod("p", 1, 0)
	q.Add(pi, at(0))
	q.Pop(at(0))
	q.AddUnschedulable(pi, []string{"NodeResourcesFit"}, at(0))
	if got := q.Pop(at(time.Minute)); got != nil {
		t.Fatalf("unschedulable pod popped without an event")
	}
	if n := q.MoveAllToActiveOrBackoff(AssignedPodAdd, at(500*time.Millisecond)); n != 0 {
		t.Errorf("a bound pod cannot make room: moved %d", n)
	}
	// Still inside its 1 s backoff: the event moves it to backoffQ.
	if n := q.MoveAllToActiveOrBackoff(AssignedPodDelete, at(500*time.Millisecond)); n != 1 {
		t.Fatalf("moved %d", n)
	}
	if p := q.Pending(); len(p) != 1 || p[0].Where != InBackoff {
		t.Fatalf("pending %+v", p)
	}
	if exp, ok := q.NextBackoffExpiry(); !ok || exp != at(time.Second) {
		t.Errorf("expiry %v %v", exp, ok)
	}
	// activeQ is empty, so Pop takes it from backoffQ anyway
	// (SchedulerPopFromBackoffQ).
	if got := q.Pop(at(600 * time.Millisecond)); got != pi || pi.Attempts != 2 {
		t.Errorf("pop from backoffQ: %v attempts %d", got, pi.Attempts)
	}
}

func TestBackoffCompletesIntoActiveQ(t *testing.T) {
	q := NewQueue()
	a, b := mkPod("a", 1, 0), mkPod("b", 1, 0)
	q.Add(a, at(0))
	q.Pop(at(0))
	q.AddError(a, at(500*time.Millisecond)) // expiry 1.5 s, aligned to 1 s
	q.Add(b, at(time.Second))
	// At 1.2 s the window is [1 s, 2 s): a is still backing off, b goes first.
	if got := q.Pop(at(1200 * time.Millisecond)); got != b {
		t.Fatalf("got %v", got.Pod.Name)
	}
	q.Add(b, at(1300*time.Millisecond))
	// At 2 s a's backoff is complete: it is in activeQ and older than b.
	if got := popNames(q, at(2*time.Second)); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("order %v", got)
	}
}

func TestRepeatedFailuresBackOffLonger(t *testing.T) {
	q := NewQueue()
	pi := mkPod("p", 1, 0)
	q.Add(pi, at(0))
	qp := q.pods["default/p"]
	now := at(0)
	for i, wantSecs := range []int{1, 2, 4, 8, 10, 10} {
		q.Pop(now)
		q.AddError(pi, now)
		if got := q.backoffExpiry(qp).Sub(now); got != time.Duration(wantSecs)*time.Second {
			t.Errorf("failure %d: backoff %v, want %ds", i+1, got, wantSecs)
		}
		now, _ = q.NextBackoffExpiry()
	}
}

func TestUnschedulableLeftoverFlushAfterFiveMinutes(t *testing.T) {
	q := NewQueue()
	pi := mkPod("p", 1, 0)
	q.Add(pi, at(0))
	q.Pop(at(0))
	q.AddUnschedulable(pi, []string{"NodeAffinity"}, at(0))
	if n := q.FlushUnschedulableLeftover(at(5 * time.Minute)); n != 0 {
		t.Errorf("flushed at exactly 5 min (upstream needs more than 5 min)")
	}
	if n := q.FlushUnschedulableLeftover(at(5*time.Minute + 30*time.Second)); n != 1 {
		t.Errorf("not flushed after 5.5 min")
	}
	if got := q.Pop(at(5*time.Minute + 30*time.Second)); got != pi {
		t.Errorf("flushed pod not poppable")
	}
}

func TestQueueUpdateAndDelete(t *testing.T) {
	q := NewQueue()
	a, b := mkPod("a", 1, 0), mkPod("b", 1, 0)
	q.Add(a, at(0))
	q.Add(b, at(0))
	q.Pop(at(0))
	q.AddUnschedulable(a, []string{"TaintToleration"}, at(0))
	// The pod itself changed (say, a toleration was added): it leaves the
	// unschedulable pool.
	a2 := mkPod("a", 1, 0)
	q.Update(a2, at(20*time.Second))
	q.Delete("default/b")
	if got := popNames(q, at(20*time.Second)); !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("got %v", got)
	}
	if q.Len() != 0 {
		t.Errorf("len %d", q.Len())
	}
}

func TestRequeueKeepsCountsAndWaitsForBackoff(t *testing.T) {
	q := NewQueue()
	pi := mkPod("p", 1, 0)
	q.Add(pi, at(0))
	q.Pop(at(0))
	q.AddUnschedulable(pi, []string{"NodeResourcesFit"}, at(0))
	q.MoveAllToActiveOrBackoff(AssignedPodDelete, at(0))
	if got := q.Pop(at(0)); got != pi { // from backoffQ: activeQ is empty
		t.Fatalf("pop: %v", got)
	}
	q.Requeue(pi, at(0))
	p := q.Pending()
	if len(p) != 1 || p[0].Where != InBackoff || p[0].UnschedulableCount != 1 || p[0].ErrorCount != 0 || pi.Attempts != 1 {
		t.Fatalf("after requeue: %+v attempts %d", p[0], pi.Attempts)
	}
	if exp, _ := q.NextBackoffExpiry(); exp != at(time.Second) {
		t.Errorf("backoff expiry %v", exp)
	}
}
