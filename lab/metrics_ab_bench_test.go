package lab

import (
	"os"
	"runtime"
	"slices"
	"testing"
	"time"
)

// BenchmarkMetricsSampleAB measures two variants of the recorder on one
// engine: BenchmarkMetricsDay's day (PODLAB_DAY_SECONDS), two stores
// sampling the same engine every virtual second, in alternating order
// (so that neither always finds the engine's data in the cache the other
// brought in), each sample's thread CPU read around it. Variant "base"
// puts every value into its series at once (no pending log,
// metrics_log.go), "log" logs them, "prefetch" is base with the flush's
// prefetching loops (which without the log have nothing to read) and
// "both" is the recorder as it is; PODLAB_AB_A and PODLAB_AB_B choose
// each side (default: base against both). Both sides must record the
// same store. Reported: each
// side's CPU a virtual second (a-ns/s, b-ns/s) and b over a less 1
// (b-vs-a-%). Whole-process effects (the collector, the engine's cache
// misses) are BenchmarkMetricsOverhead's.
func BenchmarkMetricsSampleAB(b *testing.B) {
	variant := func(env, def string) string {
		if v := os.Getenv(env); v != "" {
			return v
		}
		return def
	}
	va, vb := variant("PODLAB_AB_A", "base"), variant("PODLAB_AB_B", "both")
	for b.Loop() {
		e, live := dayEngine(b)
		source := func() metricsSource { return engineMetricsSource(e) }
		var ms [2]*Metrics
		for i, v := range []string{va, vb} {
			m := newMetrics(DefaultMetricsPoints)
			if !slices.Contains([]string{"base", "log", "prefetch", "both"}, v) {
				b.Fatalf("PODLAB_AB_A/B: %q: want base, log, prefetch or both", v)
			}
			m.ab.noLog = v != "log" && v != "both"
			m.ab.noPrefetch = v != "prefetch" && v != "both"
			m.sample(e, source)
			ms[i] = m
		}
		runtime.GC()
		runtime.LockOSThread()
		var used [2]time.Duration
		var clock time.Duration
		s := 0
		engineDay(b, e, live, daySeconds(), func() {
			s++
			for j := range 2 {
				k := j ^ (s & 1)
				t0 := threadCPU()
				t1 := threadCPU()
				ms[k].sample(e, source)
				t2 := threadCPU()
				used[k] += t2 - t1
				clock += t1 - t0
			}
		})
		runtime.UnlockOSThread()
		if da, db := storeDigest(ms[0]), storeDigest(ms[1]); da != db {
			b.Fatalf("the two variants recorded different stores: %s vs %s", da, db)
		}
		clock /= 2
		a, bb := used[0]-clock, used[1]-clock
		secs := float64(daySeconds())
		b.ReportMetric(float64(a.Nanoseconds())/secs, "a-ns/s")
		b.ReportMetric(float64(bb.Nanoseconds())/secs, "b-ns/s")
		b.ReportMetric(100*(float64(bb)/float64(a)-1), "b-vs-a-%")
		b.Logf("%s %.0f ns/s, %s %.0f ns/s", va, float64(a.Nanoseconds())/secs, vb, float64(bb.Nanoseconds())/secs)
	}
}
