package lab

import (
	"sort"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
)

// Metrics is the cluster's history as time series, sampled every virtual
// second while the session runs (and after every command). Series are
// step functions stored as change points — a point only when the value
// moved — so a quiet hour costs nothing, and each series keeps at most
// maxPoints points: when one grows past that, every other point of its
// older half is dropped (the recent past stays at full resolution). The
// whole store is bounded too (metrics_budget.go).
//
// What is recorded: pending and running pods; per workload, its pods per
// zone and its skew per topology key of its spread constraints (over the
// domains of the nodes that have the key); evictions and preemptions so
// far; and each node's requested cpu and memory as a percentage of its
// allocatable. A sample does not look at every pod: a tracker told of
// every pod and node change keeps the counts (metrics_tracker.go).
type Metrics struct {
	maxPoints int
	series    map[string]*Series
	// last is the time of the last sample.
	last    api.Time
	sampled bool
	// tr keeps the counts up to date from the engine's change
	// notifications; nil: rebuilt from every pod at the next sample (the
	// first, after going back in time, on another engine).
	tr *tracker
	// byID finds a series without building its key; stamp counts the
	// samples (a series not stamped by one stopped being reported).
	byID  map[seriesID]*Series
	stamp int
	// version counts series added and removed (Version).
	version int
	// the store's bound (metrics_budget.go): its estimated bytes, the
	// limits, and how many series were not created for lack of room
	bytes, maxBytes, maxSeries, dropped int
	// fullPass, set only by tests, samples with the reference pass over
	// every pod instead of the tracker; shadow, set only by tests, is a
	// store sampled at the same instants (metrics_reference_test.go).
	fullPass func(m *Metrics, src *metricsSource, now api.Time)
	shadow   *Metrics
	// log holds the values reported and not yet put into their series
	// (metrics_log.go)
	log []pendingPoint
	// free are full-size chunks given back by thinning, for the next
	// series that needs one (metrics_chunks.go)
	free [][]Point
	// sink keeps flush's prefetching reads from being optimised away (its
	// value means nothing)
	sink int
	// ab, set only by BenchmarkMetricsSampleAB, turns the pending log and
	// its flush's prefetching loops off, to measure what each saves
	ab struct{ noLog, noPrefetch bool }
}

// Series is one metric over virtual time: its change points, in chunks
// (metrics_chunks.go), read through Len, Points, Last, At and Sample.
type Series struct {
	// cur is the last chunk of the points, tail its last point (valid
	// when cur is not empty), stamp the last sample that reported the
	// series: what a sample reads and writes, first, in one 64-byte line
	// (the struct is 128 bytes, a size class whose objects start on a
	// line), so that reporting a value touches one line of the series
	cur   []Point
	tail  Point
	stamp int
	// full are the chunks before cur, each of chunkPoints points
	full [][]Point
	// Name is the metric: pending, running, pods, skew, evictions,
	// preemptions, node_cpu_requested_percent,
	// node_memory_requested_percent.
	Name string
	// Labels qualify it: workload and zone for pods; workload and key for
	// skew; node for the node series.
	Labels map[string]string
	key    string // Key, built when the series is
	_      [16]byte
}

// Point is a value from time T until the next point.
type Point struct {
	T api.Time
	V float64
}

// Key is the series' name with its labels, as in Prometheus:
// pods{workload="deployment/web",zone="zoneA"}.
func (s *Series) Key() string {
	if s.key != "" {
		return s.key
	}
	return seriesKey(s.Name, s.Labels)
}

// At is the value at time t (0 before the first point).
func (s *Series) At(t api.Time) float64 {
	i := s.search(t)
	if i == 0 {
		return 0
	}
	return s.point(i - 1).V
}

// Sample is the series' value at n evenly spaced instants from from to
// to (both included), for drawing a chart n columns wide.
func (s *Series) Sample(from, to time.Duration, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		t := from
		if n > 1 {
			t += time.Duration(int64(to-from) * int64(i) / int64(n-1))
		}
		out[i] = s.At(api.Time(t))
	}
	return out
}

// EnableMetrics starts recording (maxPoints ≤ 0 ⇒ DefaultMetricsPoints
// per series; the store as a whole keeps within DefaultMetricsBytes) and
// takes the first sample now.
func (s *Session) EnableMetrics(maxPoints int) {
	if maxPoints <= 0 {
		maxPoints = DefaultMetricsPoints
	}
	if s.metrics != nil {
		s.metrics.dropTracker() // unregister the old store's watcher
	}
	s.metrics = newMetrics(maxPoints)
	s.metrics.record(s)
}

// Metrics is what was recorded (nil when recording is off).
func (s *Session) Metrics() *Metrics { return s.metrics }

// Series lists every series sorted by key.
func (m *Metrics) Series() []*Series {
	m.flush()
	// sorted by the map's keys (each series' Key), not by Key() built
	// again on every comparison
	keys := make([]string, 0, len(m.series))
	for k := range m.series {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*Series, len(keys))
	for i, k := range keys {
		out[i] = m.series[k]
	}
	return out
}

// Version changes whenever a series is added or removed: a caller that
// lists the series (a view) lists them again only then.
func (m *Metrics) Version() int { return m.version }

// Get returns one series by name and labels (nil when never recorded).
func (m *Metrics) Get(name string, labels map[string]string) *Series {
	m.flush()
	return m.series[seriesKey(name, labels)]
}

// runUntil is the engine's RunUntil, stopping on every virtual second on
// the way to sample when metrics are on.
func (s *Session) runUntil(t api.Time) error {
	if s.metrics == nil {
		return s.eng.RunUntil(t)
	}
	for {
		next := api.Time((time.Duration(s.eng.Now())/time.Second + 1) * time.Second)
		if next > t {
			break
		}
		if err := s.eng.RunUntil(next); err != nil {
			return err
		}
		s.metrics.record(s)
	}
	if err := s.eng.RunUntil(t); err != nil {
		return err
	}
	s.metrics.record(s)
	return nil
}

// record samples the session now (metrics_tracker.go: only what changed
// since the last sample is looked at).
func (m *Metrics) record(s *Session) { m.sample(s.eng, s.metricsSource) }

// labelPair is up to two labels of a series, without a map: the key of
// the per-sample lookup (seriesID) allocates nothing.
type labelPair struct{ k1, v1, k2, v2 string }

// seriesID names a series by name and labels.
type seriesID struct {
	name string
	l    labelPair
}

// putCached reports a series found by its seriesID at this sample: its
// Prometheus key and label map are built once, on its first sample. It
// returns the series (nil when the store has no room for a new one).
func (m *Metrics) putCached(id seriesID, t api.Time, v float64) *Series {
	sr := m.lookup(id)
	if sr != nil {
		m.report(sr, t, v)
	}
	return sr
}

// lookup finds a series by its seriesID, creating it (nil: no room).
func (m *Metrics) lookup(id seriesID) *Series {
	if sr := m.byID[id]; sr != nil {
		return sr
	}
	var labels map[string]string
	if id.l.k1 != "" {
		labels = map[string]string{id.l.k1: id.l.v1}
		if id.l.k2 != "" {
			labels[id.l.k2] = id.l.v2
		}
	}
	k := seriesKey(id.name, labels)
	sr := m.series[k]
	if sr == nil {
		if sr = m.newSeries(k, id.name, labels); sr == nil {
			return nil
		}
	}
	if m.byID == nil {
		m.byID = map[seriesID]*Series{}
	}
	m.byID[id] = sr
	return sr
}

func (m *Metrics) put(k, name string, labels map[string]string, t api.Time, v float64) {
	sr := m.series[k]
	if sr == nil {
		if sr = m.newSeries(k, name, labels); sr == nil {
			return
		}
	}
	m.putSeries(sr, t, v)
}

// newSeries adds an empty series (nil when the store holds maxSeries).
func (m *Metrics) newSeries(k, name string, labels map[string]string) *Series {
	if m.maxSeries > 0 && len(m.series) >= m.maxSeries {
		m.dropped++
		return nil
	}
	sr := &Series{Name: name, Labels: labels, key: k}
	m.series[k] = sr
	m.version++
	m.bytes += seriesBytes(sr)
	return sr
}

// putSeries puts a value into its series now, after what the log holds.
func (m *Metrics) putSeries(sr *Series, t api.Time, v float64) {
	m.flush()
	m.putPoint(sr, t, v)
}

// putPoint puts a value at the end of its series: a change point, unless
// the value did not move.
func (m *Metrics) putPoint(sr *Series, t api.Time, v float64) {
	if n := len(sr.cur); n > 0 {
		// the last point as the series last put it (tail): not read
		// from the chunk, whose end is a cache miss of its own in a
		// large store
		last := sr.tail
		if last.V == v {
			return
		}
		if last.T == t {
			// the same instant again (a command after the tick): the
			// later value is what the instant ended with
			sr.cur[n-1].V = v
			sr.tail.V = v
			if l := sr.Len(); l > 1 && sr.point(l-2).V == v {
				b := sr.heldBytes()
				m.truncateTo(sr, l-1)
				m.bytes += sr.heldBytes() - b
			}
			return
		}
	}
	if len(sr.cur) < cap(sr.cur) && len(sr.cur) < chunkPoints && sr.Len() < m.maxPoints {
		// room in the last chunk: no bytes move
		sr.cur = append(sr.cur, Point{T: t, V: v})
		sr.tail = Point{T: t, V: v}
		return
	}
	b := sr.heldBytes()
	m.push(sr, Point{T: t, V: v})
	if sr.Len() > m.maxPoints {
		m.thinSeries(sr)
	}
	m.bytes += sr.heldBytes() - b
}

// thin drops every other point of the older half (into a slice of the
// exact size: the dropped points' room is given back).
func thin(ps []Point) []Point {
	half := len(ps) / 2
	out := make([]Point, 0, (half+1)/2+len(ps)-half)
	for i := 0; i < half; i += 2 {
		out = append(out, ps[i])
	}
	return append(out, ps[half:]...)
}

// truncate forgets every point after t.
func (m *Metrics) truncate(t api.Time) {
	m.flush()
	for k, sr := range m.series {
		i := sr.search(t)
		m.truncateTo(sr, i)
		if i == 0 {
			delete(m.series, k)
			m.version++
		}
	}
	m.byID = nil // it may name deleted series
	m.sampled = false
	m.recount()
}

// clone copies the recorded series; the copy goes on recording for
// another session (a fork's lane b), its tracker rebuilt on that
// session's engine at its first sample.
func (m *Metrics) clone() *Metrics {
	m.flush()
	c := *m
	c.log = nil
	c.free = nil
	c.series = make(map[string]*Series, len(m.series))
	for k, sr := range m.series {
		c.series[k] = cloneSeries(sr)
	}
	c.tr = nil
	c.byID = nil // it points to m's series
	c.recount()
	if m.shadow != nil {
		c.shadow = m.shadow.clone()
	}
	return &c
}

// sample records now when metrics are on (after a command, an undo).
func (s *Session) sample() {
	if s.metrics != nil {
		s.metrics.record(s)
	}
}

func seriesKey(name string, labels map[string]string) string {
	if len(labels) == 0 {
		return name
	}
	ks := make([]string, 0, len(labels))
	for k := range labels {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('{')
	for i, k := range ks {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + `="` + labels[k] + `"`)
	}
	b.WriteByte('}')
	return b.String()
}
