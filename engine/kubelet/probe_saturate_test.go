package kubelet

import (
	"math"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// A run's instant, start + k*period, saturates at api.MaxTime: the int32
// fields allow a threshold or a period whose product with the other
// overflows nanoseconds, and a wrapped sum would be an instant in the
// past (a liveness failure "before" the container started).
func TestProbeRunsSaturate(t *testing.T) {
	maxPeriod := time.Duration(math.MaxInt32) * time.Second // periodSeconds: 2147483647
	for _, tc := range []struct {
		name    string
		timing  ProbeTiming
		start   api.Time
		initial bool
		segs    []Segment
		want    api.Time
	}{
		// failureThreshold 2147483647 × 10 s: the 2,147,483,647th run is
		// 21,474,836,460 s on, past the clock's ±292 years
		{"huge threshold", ProbeTiming{Period: 10 * time.Second, SuccessThreshold: 1, FailureThreshold: math.MaxInt32},
			0, true, []Segment{{0, false}}, api.MaxTime},
		// the largest period: the first run is at start, the sixth
		// (failureThreshold 6) 5×2147483647 s on, past the clock's end
		{"huge period", ProbeTiming{Period: maxPeriod, SuccessThreshold: 1, FailureThreshold: 6},
			s(5), true, []Segment{{0, false}}, api.MaxTime},
		// the largest initial delay and period: the first counted run is
		// k=1, at start + 2147483647 s (still on the clock)
		{"huge delay", ProbeTiming{InitialDelay: maxPeriod, Period: maxPeriod, SuccessThreshold: 1, FailureThreshold: 1},
			0, false, []Segment{{0, true}}, api.Time(maxPeriod)},
		// a container started long before the scenario (an imported pod)
		// whose probe starts failing at the end of time: no run inside
		// the failing stretch can be reached, and nothing wraps
		{"start far in the past", ProbeTiming{Period: maxPeriod, SuccessThreshold: 1, FailureThreshold: 1},
			api.MinTime + 1, true, []Segment{{api.MinTime + 1, true}, {api.MaxTime - 1, false}}, api.MaxTime},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at, _, ok := NextProbeTransition(tc.timing, tc.start, tc.initial, tc.segs, tc.start-1)
			if !ok || at != tc.want {
				t.Fatalf("transition at %d (ok %v), want %d", int64(at), ok, int64(tc.want))
			}
			if at < tc.start {
				t.Fatalf("transition at %d, before the start %d", int64(at), int64(tc.start))
			}
		})
	}
	// a probe with the largest period that fails from the clock's last
	// instant on: its first failed run (the fifth) is past the clock
	timing := ProbeTiming{Period: maxPeriod, SuccessThreshold: 1, FailureThreshold: 1}
	segs := []Segment{{0, true}, {api.MaxTime - 1, false}}
	at, ok := NextFailureStreak(timing, 0, segs, 0)
	if !ok || at != api.MaxTime {
		t.Fatalf("failure streak at %d (ok %v), want %d", int64(at), ok, int64(api.MaxTime))
	}
}

func TestCeilDivNearTheLargestInt(t *testing.T) {
	for _, tc := range []struct{ a, b, want int64 }{
		{0, 3, 0}, {-5, 3, 0}, {1, 3, 1}, {3, 3, 1}, {4, 3, 2},
		{math.MaxInt64, 1, math.MaxInt64}, {math.MaxInt64, 2, math.MaxInt64/2 + 1}, {math.MaxInt64 - 1, math.MaxInt64, 1},
	} {
		if got := ceilDiv(tc.a, tc.b); got != tc.want {
			t.Errorf("ceilDiv(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
