package kubelet

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// transitions lists every published change after start (at most n).
func transitions(t ProbeTiming, start api.Time, initial bool, segs []Segment, n int) []Segment {
	var out []Segment
	after := start - 1
	for len(out) < n {
		at, res, ok := NextProbeTransition(t, start, initial, segs, after)
		if !ok {
			break
		}
		out = append(out, Segment{at, res})
		after = at
	}
	return out
}

func TestNextProbeTransition(t *testing.T) {
	std := ProbeTiming{Period: 10 * time.Second, SuccessThreshold: 1, FailureThreshold: 3}
	for _, tc := range []struct {
		name    string
		timing  ProbeTiming
		initial bool
		segs    []Segment
		want    []Segment
	}{
		// readiness that always succeeds: ready at the first run, at start
		{"ready at once", std, false, []Segment{{0, true}}, []Segment{{0, true}}},
		// initialDelaySeconds 5 with period 10: runs at 0 (skipped), 10
		{"initial delay skips runs", ProbeTiming{InitialDelay: 5 * time.Second, Period: 10 * time.Second, SuccessThreshold: 1, FailureThreshold: 3}, false,
			[]Segment{{0, true}}, []Segment{{s(10), true}}},
		// the app answers from 25s: runs at 30 succeed
		{"ready after 25s", std, false, []Segment{{0, false}, {s(25), true}}, []Segment{{s(30), true}}},
		// prober worker_test.go TestSuccessThreshold: successThreshold 3
		{"success threshold 3", ProbeTiming{Period: time.Second, SuccessThreshold: 3, FailureThreshold: 1}, false,
			[]Segment{{0, true}, {s(5), false}, {s(6), true}}, []Segment{{s(2), true}, {s(5), false}, {s(8), true}}},
		// prober worker_test.go TestFailureThreshold: liveness fails from
		// 2m, failureThreshold 3: failures at 120, 130, 140 ⇒ Failure at 140
		{"failure threshold 3", std, true, []Segment{{0, true}, {s(120), false}}, []Segment{{s(140), false}}},
		// two failures, then success: the run resets
		{"run resets", std, true, []Segment{{0, true}, {s(15), false}, {s(35), true}, {s(100), false}},
			[]Segment{{s(120), false}}},
		// a segment between runs counts nothing
		{"no run inside a short segment", std, true, []Segment{{0, true}, {s(11), false}, {s(12), true}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := transitions(tc.timing, 0, tc.initial, tc.segs, 5)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// The closed form agrees with running the worker probe by probe.
func TestNextProbeTransitionMatchesStepping(t *testing.T) {
	timing := ProbeTiming{InitialDelay: 3 * time.Second, Period: 2 * time.Second, SuccessThreshold: 2, FailureThreshold: 3}
	segs := []Segment{{0, false}, {s(7), true}, {s(20), false}, {s(23), true}, {s(24), false}, {s(40), true}}
	outcome := func(at api.Time) bool {
		r := segs[0].Success
		for _, sg := range segs {
			if sg.At <= at {
				r = sg.Success
			}
		}
		return r
	}
	var want []Segment
	published, haveLast, last, run := false, false, false, 0
	for k := 0; k*2 <= 80; k++ {
		at := s(float64(2 * k))
		if time.Duration(at) < timing.InitialDelay {
			continue
		}
		r := outcome(at)
		if haveLast && r == last {
			run++
		} else {
			haveLast, last, run = true, r, 1
		}
		thr := int(timing.FailureThreshold)
		if r {
			thr = int(timing.SuccessThreshold)
		}
		if r != published && run >= thr {
			published = r
			want = append(want, Segment{at, r})
		}
	}
	got := transitions(timing, 0, false, segs, 20)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// CrashLoopBackOff: immediate first restart, then 10s doubling to 300s;
// an entry untouched for more than 10 minutes starts over
// (kuberuntime_manager.go doBackOff over flowcontrol.Backoff).
func TestRestartAt(t *testing.T) {
	var b BackOff
	finished := api.Time(0)
	var waits []time.Duration
	for range 9 {
		at, nb := b.RestartAt(finished)
		waits = append(waits, at.Sub(finished))
		b = nb
		finished = at.Add(time.Second) // runs 1s, crashes
	}
	want := []time.Duration{0, 10, 20, 40, 80, 160, 300, 300, 300}
	for i := range want {
		if waits[i] != want[i]*time.Second {
			t.Fatalf("waits %v, want %v (seconds)", waits, want)
		}
	}
	// a run longer than 2×300s since the last restart resets the delay
	last := b.LastUpdate
	at, nb := b.RestartAt(last.Add(601 * time.Second))
	if at != last.Add(601*time.Second) || nb.Delay != InitialBackOff {
		t.Fatalf("after 601s: restart at %v delay %v, want immediately with 10s", at.Sub(last), nb.Delay)
	}
	// exactly 600s is not enough (hasExpired is strict)
	at, _ = b.RestartAt(last.Add(600 * time.Second))
	if at == last.Add(600*time.Second) {
		t.Fatalf("after 600s the entry must still hold")
	}
}

func TestNextFailureStreak(t *testing.T) {
	std := ProbeTiming{Period: 10 * time.Second, SuccessThreshold: 1, FailureThreshold: 3}
	segs := []Segment{{0, false}, {s(25), true}, {s(60), false}, {s(61), true}, {s(100), false}}
	var got []api.Time
	after := api.Time(-1)
	for {
		at, ok := NextFailureStreak(std, 0, segs, after)
		if !ok {
			break
		}
		got = append(got, at)
		after = at
	}
	// runs: 0,10,20 fail (streak at 0); 30..60 succeed (60 is in [60,61): fails? 60 ∈ fail
	// segment → streak at 60); 70..90 succeed; 100 fails (streak at 100)
	want := []api.Time{0, s(60), s(100)}
	if len(got) != len(want) {
		t.Fatalf("streaks at %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("streaks at %v, want %v", got, want)
		}
	}
}
