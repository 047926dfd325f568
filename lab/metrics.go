package lab

import (
	"slices"
	"sort"
	"strings"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// Metrics is the cluster's history as time series, sampled every virtual
// second while the session runs (and after every command). Series are
// step functions stored as change points — a point only when the value
// moved — so a quiet hour costs nothing, and each series keeps at most
// maxPoints points: when one grows past that, every other point of its
// older half is dropped (the recent past stays at full resolution).
//
// What is recorded: pending and running pods; per workload, its pods per
// zone and its skew per topology key of its spread constraints (over the
// domains of the nodes that have the key); evictions and preemptions so
// far; and each node's requested cpu and memory as a percentage of its
// allocatable.
type Metrics struct {
	maxPoints int
	series    map[string]*Series
	// last is the time of the last sample; lastGen/lastEngine/lastEvents
	// detect that nothing moved since.
	last       api.Time
	sampled    bool
	lastGen    int64
	lastEngine *engine.Engine
	lastEvents int
	evictions  int
	preempts   int
	// byID finds a series without building its key; stamp counts the
	// samples (a series not stamped by one stopped being reported).
	byID  map[seriesID]*Series
	stamp int
	// version counts series added and removed (Version).
	version int
}

// Series is one metric over virtual time.
type Series struct {
	// Name is the metric: pending, running, pods, skew, evictions,
	// preemptions, node_cpu_requested_percent,
	// node_memory_requested_percent.
	Name string
	// Labels qualify it: workload and zone for pods; workload and key for
	// skew; node for the node series.
	Labels map[string]string
	Points []Point
	stamp  int    // the last sample that reported it
	key    string // Key, built when the series is
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
	i := sort.Search(len(s.Points), func(i int) bool { return s.Points[i].T > t })
	if i == 0 {
		return 0
	}
	return s.Points[i-1].V
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

// DefaultMetricsPoints bounds each series: 4,096 change points.
const DefaultMetricsPoints = 4096

// EnableMetrics starts recording (maxPoints ≤ 0 ⇒ DefaultMetricsPoints)
// and takes the first sample now.
func (s *Session) EnableMetrics(maxPoints int) {
	if maxPoints <= 0 {
		maxPoints = DefaultMetricsPoints
	}
	s.metrics = &Metrics{maxPoints: maxPoints, series: map[string]*Series{}}
	s.metrics.record(s)
}

// Metrics is what was recorded (nil when recording is off).
func (s *Session) Metrics() *Metrics { return s.metrics }

// Series lists every series sorted by key.
func (m *Metrics) Series() []*Series {
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

// record samples the session now. Going back in time (undo, rewind,
// replay) first forgets what was recorded after now.
func (m *Metrics) record(s *Session) {
	now := s.eng.Now()
	if m.sampled && now < m.last {
		m.truncate(now)
	}
	gen, events := s.Generation(), len(s.eng.Events())
	if m.sampled && now >= m.last && gen == m.lastGen && s.eng == m.lastEngine && events == m.lastEvents {
		m.last = now
		return
	}
	if m.lastEngine != s.eng || events < m.lastEvents {
		// a new engine (undo, replay, a checkpoint): count its events again
		m.evictions, m.preempts, m.lastEvents = 0, 0, 0
	}
	m.sampled, m.last, m.lastGen, m.lastEngine = true, now, gen, s.eng
	evs := s.eng.Events()
	for _, e := range evs[m.lastEvents:] {
		switch e.Reason {
		case engine.ReasonEvicted, engine.ReasonTaintManagerEviction:
			m.evictions++
		case engine.ReasonPreempted:
			m.preempts++
		}
	}
	m.lastEvents = len(evs)

	m.stamp++
	put := func(name string, l labelPair, v float64) {
		m.putCached(seriesID{name, l}, now, v)
	}
	put("evictions", labelPair{}, float64(m.evictions))
	put("preemptions", labelPair{}, float64(m.preempts))
	nodes := s.eng.Nodes()
	for _, n := range nodes {
		req, _, ok := s.NodeRequested(n.Name)
		if !ok {
			continue
		}
		alloc := api.ResourcesOf(n.Status.Allocatable)
		node := labelPair{k1: "node", v1: n.Name}
		put("node_cpu_requested_percent", node, percent(req.MilliCPU, alloc.MilliCPU))
		put("node_memory_requested_percent", node, percent(req.Memory, alloc.Memory))
	}
	// One pass over the pods (unordered: only sums are taken) gives the
	// counts, and per workload its pods per node and the topology keys
	// its pods spread over, the zone label always among them. Like the
	// spread report, bound pods count, terminating and finished ones
	// don't. The workload and keys are looked up once per direct owner
	// (its pods share a template), not per pod.
	zoneKey := s.zoneLabel()
	nodeIdx := make(map[string]int, len(nodes))
	for i, n := range nodes {
		nodeIdx[n.Name] = i
	}
	type owner struct{ ns, kind, name string }
	type wl struct {
		name             string
		keys             []string
		perNode          []int // by index in nodes
		pending, running int
	}
	byOwner := map[owner]*wl{}
	byName := map[string]*wl{}
	var pending, running int
	s.eng.EachPod(func(p *api.Pod, st engine.PodState) {
		switch st {
		case engine.StatePending:
			pending++
		case engine.StateRunning:
			running++
		}
		ref := p.ControllerRef()
		if ref == nil {
			return
		}
		o := owner{p.Namespace, ref.Kind, ref.Name}
		w, ok := byOwner[o]
		if !ok {
			if kind, name := s.WorkloadOf(p); kind != "" {
				n := Workload{Kind: kind, Namespace: p.Namespace, Name: name}.Ref()
				if w = byName[n]; w == nil {
					w = &wl{name: n, keys: []string{zoneKey}, perNode: make([]int, len(nodes))}
					byName[n] = w
				}
				for _, c := range p.Spec.TopologySpreadConstraints {
					if !slices.Contains(w.keys, c.TopologyKey) {
						w.keys = append(w.keys, c.TopologyKey)
					}
				}
			}
			byOwner[o] = w
		}
		if w == nil {
			return
		}
		switch st {
		case engine.StatePending:
			w.pending++
		case engine.StateRunning:
			w.running++
		}
		if p.Spec.NodeName != "" && p.DeletionTimestamp == nil && !p.IsTerminal() {
			if i, ok := nodeIdx[p.Spec.NodeName]; ok {
				w.perNode[i]++
			}
		}
	})
	put("pending", labelPair{}, float64(pending))
	put("running", labelPair{}, float64(running))
	// each key's domains (every node with the key is a domain, as in the
	// spread report) and the domain of each node, once per key
	type domains struct {
		names []string
		of    []int // node (by index in nodes) → index in names, -1: none
	}
	byKey := map[string]*domains{}
	domainsOf := func(key string) *domains {
		if d := byKey[key]; d != nil {
			return d
		}
		d := &domains{of: make([]int, len(nodes))}
		idx := map[string]int{}
		for j, n := range nodes {
			v, ok := n.Labels[key]
			if !ok {
				d.of[j] = -1
				continue
			}
			i, ok := idx[v]
			if !ok {
				i = len(d.names)
				idx[v] = i
				d.names = append(d.names, v)
			}
			d.of[j] = i
		}
		byKey[key] = d
		return d
	}
	var counts []int
	for _, w := range byName {
		put("pending", labelPair{k1: "workload", v1: w.name}, float64(w.pending))
		put("running", labelPair{k1: "workload", v1: w.name}, float64(w.running))
		for _, key := range w.keys {
			d := domainsOf(key)
			if len(d.names) == 0 {
				continue
			}
			counts = slices.Grow(counts[:0], len(d.names))[:len(d.names)]
			clear(counts)
			for j, c := range w.perNode {
				if i := d.of[j]; i >= 0 {
					counts[i] += c
				}
			}
			lo, hi := counts[0], counts[0]
			for i, c := range counts {
				lo, hi = min(lo, c), max(hi, c)
				if key == zoneKey {
					put("pods", labelPair{k1: "workload", v1: w.name, k2: "zone", v2: d.names[i]}, float64(c))
				}
			}
			put("skew", labelPair{k1: "key", v1: key, k2: "workload", v2: w.name}, float64(hi-lo))
		}
	}
	// a series that stopped being reported (a deleted workload, a removed
	// node) drops to 0 rather than holding its last value forever
	for k, sr := range m.series {
		if sr.stamp != m.stamp && len(sr.Points) > 0 && sr.Points[len(sr.Points)-1].V != 0 {
			m.put(k, sr.Name, sr.Labels, now, 0)
		}
	}
}

// labelPair is up to two labels of a series, without a map: the key of
// the per-sample lookup (seriesID) allocates nothing.
type labelPair struct{ k1, v1, k2, v2 string }

// seriesID names a series by name and labels.
type seriesID struct {
	name string
	l    labelPair
}

// putCached is put for a series found by its seriesID: its Prometheus key
// and label map are built once, on its first sample.
func (m *Metrics) putCached(id seriesID, t api.Time, v float64) {
	sr := m.byID[id]
	if sr == nil {
		var labels map[string]string
		if id.l.k1 != "" {
			labels = map[string]string{id.l.k1: id.l.v1}
			if id.l.k2 != "" {
				labels[id.l.k2] = id.l.v2
			}
		}
		k := seriesKey(id.name, labels)
		if sr = m.series[k]; sr == nil {
			sr = &Series{Name: id.name, Labels: labels, key: k}
			m.series[k] = sr
			m.version++
		}
		if m.byID == nil {
			m.byID = map[seriesID]*Series{}
		}
		m.byID[id] = sr
	}
	sr.stamp = m.stamp
	m.putSeries(sr, t, v)
}

func (m *Metrics) put(k, name string, labels map[string]string, t api.Time, v float64) {
	sr := m.series[k]
	if sr == nil {
		sr = &Series{Name: name, Labels: labels, key: k}
		m.series[k] = sr
		m.version++
	}
	m.putSeries(sr, t, v)
}

func (m *Metrics) putSeries(sr *Series, t api.Time, v float64) {
	if n := len(sr.Points); n > 0 {
		last := &sr.Points[n-1]
		if last.V == v {
			return
		}
		if last.T == t {
			// the same instant again (a command after the tick): the
			// later value is what the instant ended with
			last.V = v
			if n > 1 && sr.Points[n-2].V == v {
				sr.Points = sr.Points[:n-1]
			}
			return
		}
	}
	sr.Points = append(sr.Points, Point{T: t, V: v})
	if len(sr.Points) > m.maxPoints {
		sr.Points = thin(sr.Points)
	}
}

// thin drops every other point of the older half.
func thin(ps []Point) []Point {
	half := len(ps) / 2
	out := ps[:0:0]
	for i := 0; i < half; i += 2 {
		out = append(out, ps[i])
	}
	return append(out, ps[half:]...)
}

// truncate forgets every point after t.
func (m *Metrics) truncate(t api.Time) {
	for k, sr := range m.series {
		i := sort.Search(len(sr.Points), func(i int) bool { return sr.Points[i].T > t })
		sr.Points = sr.Points[:i]
		if i == 0 {
			delete(m.series, k)
			m.version++
		}
	}
	m.byID = nil // it may name deleted series
	m.sampled = false
}

// clone copies the recorded series; the copy goes on recording for
// another session (a fork's lane b).
func (m *Metrics) clone() *Metrics {
	c := *m
	c.series = make(map[string]*Series, len(m.series))
	for k, sr := range m.series {
		c.series[k] = &Series{Name: sr.Name, Labels: sr.Labels, key: k, Points: append([]Point(nil), sr.Points...)}
	}
	c.lastEngine = nil
	c.byID = nil // it points to m's series
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
