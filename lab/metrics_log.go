package lab

import "podlab.dev/podlab/engine/api"

// The pending log. A sample reports a handful of values a virtual second
// (≈ 9 in BenchmarkDay's churn), each into its own series: appending to
// the series there and then reads the series' header and writes the end
// of its points, two cache misses a value in a store of megabytes that
// the engine's second of scheduling has pushed out of the cache (a
// quarter of a sample's cost, docs/benchmarks.md). So a sample only
// appends (series, time, value) to one log, a few sequential bytes, and
// the log is put into the series later, in order — which is exactly what
// putting each value at once would have done — in a tight loop whose
// misses the processor overlaps: when the log is full, when the byte
// budget might be crossed, and before anything reads the store (Series,
// Get, size, Bytes, a truncation, a copy, the samples' own checks of a
// series' stamp or last point).

// pendingPoint is a value reported at a sample, not yet in its series.
type pendingPoint struct {
	sr    *Series
	t     api.Time
	v     float64
	stamp int // the sample that reported it (Series.stamp)
}

// logFlushAt bounds the log: 1,024 values (32 KB, ≈ 2 virtual minutes of
// BenchmarkDay's churn).
const logFlushAt = 1024

// report is a series' value at this sample, logged.
func (m *Metrics) report(sr *Series, t api.Time, v float64) {
	if m.ab.noLog {
		sr.stamp = m.stamp
		m.putPoint(sr, t, v)
		return
	}
	m.log = append(m.log, pendingPoint{sr: sr, t: t, v: v, stamp: m.stamp})
	if len(m.log) >= logFlushAt {
		m.flush()
	}
}

// flush puts the logged values into their series, in the order reported.
func (m *Metrics) flush() {
	if len(m.log) == 0 {
		return
	}
	// First read what putting each value reads — its series' header,
	// then the end of its points — in loops whose loads do not depend on
	// one another, so that the processor has many cache misses in flight
	// at once instead of one at a time in the loop below.
	sink := 0
	for i := range m.log {
		if m.ab.noPrefetch {
			break
		}
		sink += m.log[i].sr.stamp
	}
	for i := range m.log {
		if m.ab.noPrefetch {
			break
		}
		if ps := m.log[i].sr.cur; len(ps) > 0 {
			sink += int(ps[len(ps)-1].T)
		}
	}
	m.sink = sink
	for i := range m.log {
		p := &m.log[i]
		p.sr.stamp = p.stamp
		m.putPoint(p.sr, p.t, p.v)
	}
	clear(m.log) // no series kept reachable by the log's array
	m.log = m.log[:0]
}

// maxGrowth is the most one logged value can add to the store's bytes
// once put: its series' slice growing (to at most twice its capacity,
// which is at most maxPoints + 1 before a thinning gives room back, and
// rounded up to an allocation size), or two 4 KB chunks and the list of
// chunks growing when a series passes 256 points (metrics_chunks.go).
func (m *Metrics) maxGrowth() int {
	return 2*(m.maxPoints+1)*pointBytes + 8192
}

// mayExceedBudget reports whether the logged values, once put, could
// take the store past its byte budget: then they are put before the
// budget is checked, so thinning happens at the sample it would happen
// at without the log.
func (m *Metrics) mayExceedBudget() bool {
	return len(m.log) > 0 && m.bytes+len(m.log)*m.maxGrowth() > m.maxBytes
}
