package kubelet

import (
	"math"
	"time"

	"podlab.dev/podlab/engine/api"
)

// ProbeTiming is a probe's timing (v1.Probe with SetDefaults_Probe
// applied) as the prober worker uses it.
type ProbeTiming struct {
	InitialDelay     time.Duration
	Period           time.Duration
	SuccessThreshold int32
	FailureThreshold int32
}

// TimingOf returns a probe's timing with v1 defaults.
func TimingOf(p *api.Probe) ProbeTiming {
	d := p.WithDefaults()
	return ProbeTiming{
		InitialDelay:     time.Duration(d.InitialDelaySeconds) * time.Second,
		Period:           time.Duration(d.PeriodSeconds) * time.Second,
		SuccessThreshold: d.SuccessThreshold,
		FailureThreshold: d.FailureThreshold,
	}
}

// Segment says whether every probe run from At on (until the next
// segment) succeeds.
type Segment struct {
	At      api.Time
	Success bool
}

const never = int64(math.MaxInt64)

// NextProbeTransition is a prober worker (pkg/kubelet/prober/worker.go)
// worked out in closed form instead of run every period: the worker of a
// container started at start probes at start, start+period, … (doProbe
// skips runs before initialDelaySeconds have elapsed, in whole seconds);
// a run's result extends the current run of equal results or starts a new
// one, and the published result (the results manager's) changes only when
// a run of the other result reaches successThreshold or failureThreshold.
// initial is the published result before any (readiness: failure,
// liveness: success, startup: not started). segs are the probe outcomes
// over time, sorted by At; the first covers start. It returns the first
// change of the published result strictly after `after`, found by
// counting runs per segment (O(segments), however long the container ran).
func NextProbeTransition(t ProbeTiming, start api.Time, initial bool, segs []Segment, after api.Time) (at api.Time, result, ok bool) {
	period := int64(t.Period)
	if period <= 0 {
		return 0, false, false
	}
	// the first counted run: k*period >= initialDelay
	kMin := ceilDiv(int64(t.InitialDelay), period)
	published := initial
	haveLast, last := false, false
	var run int64
	for i, seg := range segs {
		a := max(seg.At, start)
		kA := max(kMin, ceilDiv(since(a, start), period))
		kB := never
		if i+1 < len(segs) {
			b := segs[i+1].At
			if b <= a {
				continue
			}
			kB = ceilDiv(since(b, start), period)
		}
		if kB <= kA {
			continue
		}
		runBefore := int64(0)
		if haveLast && last == seg.Success {
			runBefore = run
		}
		if seg.Success != published {
			thr := int64(t.FailureThreshold)
			if seg.Success {
				thr = int64(t.SuccessThreshold)
			}
			need := max(thr-runBefore, 1)
			if kB == never || need <= kB-kA {
				k := satAdd(kA, need-1)
				published = seg.Success
				if tt := runAt(start, k, period); tt > after {
					return tt, published, true
				}
			}
		}
		if kB == never {
			break
		}
		haveLast, last = true, seg.Success
		run = satAdd(runBefore, kB-kA)
	}
	return 0, false, false
}

// ceilDiv is a/b rounded up for b > 0, and 0 for a <= 0; (a+b-1)/b
// would overflow for a near the largest int64.
func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a-1)/b + 1
}

// The run arithmetic saturates: a huge period, initial delay or
// threshold (int32 seconds and counts, or a segment at api.MaxTime) must
// not wrap round to an instant in the past.

// since is a-start in nanoseconds for a >= start, saturating at the
// largest int64 (start may be far in the past: imported objects).
func since(a, start api.Time) int64 {
	d := int64(a) - int64(start)
	if d < 0 {
		return math.MaxInt64
	}
	return d
}

// satAdd is a+b for non-negative a and b, saturating.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// runAt is the instant of the worker's k-th run, start + k*period,
// saturating at api.MaxTime (k and period are not negative).
func runAt(start api.Time, k, period int64) api.Time {
	if period > 0 && k > math.MaxInt64/period {
		return api.MaxTime
	}
	return start.Add(time.Duration(k * period))
}

// NextFailureStreak is when the next run of failed probes starts after
// `after`: the first failed run whose previous counted run succeeded (or
// that is the worker's first counted run). The prober records an
// Unhealthy event for every failed run; the lab records the first of each
// streak (kubectl describe folds repeats as "(xN over …)").
func NextFailureStreak(t ProbeTiming, start api.Time, segs []Segment, after api.Time) (api.Time, bool) {
	period := int64(t.Period)
	if period <= 0 || len(segs) == 0 {
		return 0, false
	}
	kMin := ceilDiv(int64(t.InitialDelay), period)
	outcomeAt := func(at api.Time) bool {
		r := segs[0].Success
		for _, s := range segs {
			if s.At > at {
				break
			}
			r = s.Success
		}
		return r
	}
	for i, seg := range segs {
		if seg.Success {
			continue
		}
		a := max(seg.At, start)
		kA := max(kMin, ceilDiv(since(a, start), period))
		if i+1 < len(segs) && ceilDiv(since(max(segs[i+1].At, start), start), period) <= kA {
			continue // no run inside this failing stretch
		}
		if kA > kMin && !outcomeAt(runAt(start, kA-1, period)) {
			continue // the streak began earlier
		}
		if at := runAt(start, kA, period); at > after {
			return at, true
		}
	}
	return 0, false
}
