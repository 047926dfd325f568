package lab

import (
	"fmt"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"podlab.dev/podlab/engine/api"
)

func TestMetricsRecordsTheClustersHistory(t *testing.T) {
	s := presetSession(t, "spread-basics")
	s.EnableMetrics(0)
	mustApply(t, s, "scale deployment/web --replicas=6")
	if err := s.Advance(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	mustApply(t, s, "cordon node3", "cordon node4", "scale deployment/web --replicas=8")
	if err := s.Advance(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	m := s.Metrics()
	pending := m.Get("pending", nil)
	if pending == nil {
		t.Fatal("no pending series")
	}
	if got := pending.At(s.Now()); got != 1 {
		// zoneA 4, zoneB 3 with zoneB cordoned: one more fits zoneA (skew 1)
		t.Errorf("pending now = %v, want 1", got)
	}
	if got := pending.At(api.Time(29 * time.Second)); got != 0 {
		t.Errorf("pending at 29s = %v, want 0 (six pods fit)", got)
	}
	zoneA := m.Get("pods", map[string]string{"workload": "deployment/web", "zone": "zoneA"})
	if zoneA == nil || zoneA.At(s.Now()) != 4 || zoneA.At(0) != 3 {
		t.Fatalf("pods{deployment/web, zoneA} = %+v", zoneA)
	}
	skew := m.Get("skew", map[string]string{"workload": "deployment/web", "key": "zone"})
	if skew == nil || skew.At(s.Now()) != 1 {
		t.Fatalf("skew series %+v", skew)
	}
	// step storage: a quiet minute adds no points
	n := pending.Len()
	if err := s.Advance(time.Minute); err != nil {
		t.Fatal(err)
	}
	if pending.Len() != n {
		t.Errorf("a quiet minute added %d points", pending.Len()-n)
	}
	// every point is on a whole second or at a command's instant, in order
	for _, sr := range m.Series() {
		ps := sr.Points()
		for i := 1; i < len(ps); i++ {
			if ps[i].T <= ps[i-1].T || ps[i].V == ps[i-1].V {
				t.Fatalf("%s: points %v", sr.Key(), ps)
			}
		}
	}
}

func TestMetricsFollowUndo(t *testing.T) {
	s := presetSession(t, "spread-basics")
	s.EnableMetrics(0)
	if err := s.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	mustApply(t, s, "cordon node3", "cordon node4", "scale deployment/web --replicas=8")
	if err := s.Advance(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	pending := func() float64 { return s.Metrics().Get("pending", nil).At(s.Now()) }
	if pending() == 0 {
		t.Fatal("no pending pods: the test does not exercise undo")
	}
	mustApply(t, s, "undo") // the scale-up
	if got := pending(); got != 0 {
		t.Fatalf("pending after undo = %v, want 0", got)
	}
	for _, sr := range s.Metrics().Series() {
		if last := sr.Points()[sr.Len()-1]; last.T > s.Now() {
			t.Fatalf("%s keeps a point at %s after undo to %s", sr.Key(), last.T, s.Now())
		}
	}
}

func TestMetricsBoundedPoints(t *testing.T) {
	m := &Metrics{maxPoints: 8, series: map[string]*Series{}}
	for i := range 100 {
		m.put("x", "x", nil, api.Time(time.Duration(i)*time.Second), float64(i%2))
	}
	sr := m.Get("x", nil)
	if sr.Len() > 8 {
		t.Fatalf("%d points kept, max 8", sr.Len())
	}
	if last := sr.Points()[sr.Len()-1]; last.T != api.Time(99*time.Second) {
		t.Fatalf("the newest point was dropped: %v", sr.Points())
	}
}

func TestMetricsLaneB(t *testing.T) {
	s := presetSession(t, "spread-basics")
	s.EnableMetrics(0)
	mustApply(t, s, "scale deployment/web --replicas=4")
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	// the same commands after the fork record the same history in both
	mustApply(t, f, "scale deployment/web --replicas=7", "cordon node1")
	if err := f.Advance(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	a, b := f.Lane(LaneA).Metrics(), f.Lane(LaneB).Metrics()
	if a.Get("running", nil).At(f.Now()) == a.Get("running", nil).At(f.At()) {
		t.Fatal("nothing changed after the fork: the test compares nothing")
	}
	if b == nil {
		t.Fatal("lane b records no metrics")
	}
	for _, sa := range a.Series() {
		sb := b.Get(sa.Name, sa.Labels)
		if sb == nil || sb.Len() != sa.Len() {
			t.Fatalf("%s: lane b %+v, lane a %+v", sa.Key(), sb, sa)
		}
		pa, pb := sa.Points(), sb.Points()
		for i := range pa {
			if pa[i] != pb[i] {
				t.Fatalf("%s differs at %d: %v vs %v", sa.Key(), i, pa[i], pb[i])
			}
		}
	}
}

// TestMetricsStoreHeapWithinBudget fills a store with its maximum number
// of series and keeps every series changing until the store has been
// thinned several times: the heap it holds stays under 50 MB, its
// estimate within the budget and close to the heap, and the newest points
// stay.
func TestMetricsStoreHeapWithinBudget(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m := newMetrics(DefaultMetricsPoints)
	const rounds = 150
	shrunk := 0
	for r := range rounds {
		m.stamp++
		at := api.Time(time.Duration(r) * time.Second)
		for i := range DefaultMetricsSeries {
			l := labelPair{k1: "node", v1: fmt.Sprintf("node-%05d", i)}
			if i%2 == 1 {
				l = labelPair{k1: "workload", v1: fmt.Sprintf("deployment/app-%d", i), k2: "zone", v2: "zone-1"}
			}
			m.putCached(seriesID{"pods", l}, at, float64((r+i)%7))
		}
		b := m.Bytes()
		m.shrink()
		if m.Bytes() < b {
			shrunk++
		}
		if m.Bytes() > DefaultMetricsBytes {
			t.Fatalf("round %d: store %d bytes, budget %d", r, m.Bytes(), DefaultMetricsBytes)
		}
	}
	if shrunk < 2 {
		t.Fatalf("the store was thinned %d times: the test does not reach the budget", shrunk)
	}
	if m.Dropped() != 0 || len(m.series) != DefaultMetricsSeries {
		t.Fatalf("%d series, %d dropped", len(m.series), m.Dropped())
	}
	m.putCached(seriesID{"pods", labelPair{k1: "node", v1: "one-more"}}, 0, 1)
	if m.Dropped() != 1 {
		t.Fatalf("a series past the maximum was recorded (%d dropped)", m.Dropped())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if heap >= 50_000_000 {
		t.Fatalf("the store holds %d bytes of heap, over 50 MB", heap)
	}
	if est := int64(m.Bytes()); heap > est*5/4 || heap < est*3/4 {
		t.Fatalf("the estimate %d is not within 25%% of the heap held, %d", est, heap)
	}
	sr := m.Get("pods", map[string]string{"node": "node-00000"})
	if last := sr.Points()[sr.Len()-1]; last.T != api.Time(time.Duration(rounds-1)*time.Second) {
		t.Fatalf("the newest point was thinned: %v", last)
	}
	t.Logf("%d series, heap %d, estimate %d, thinned %d times", len(m.series), heap, m.Bytes(), shrunk)
	runtime.KeepAlive(m)
}

// TestSeriesHotFieldsShareALine pins Series' layout: what a sample reads
// and writes (cur, tail, stamp, and full's length) within its first 64
// bytes, and
// a size (128) whose allocations start on a 64-byte line.
func TestSeriesHotFieldsShareALine(t *testing.T) {
	var s Series
	if end := unsafe.Offsetof(s.full) + 16; end > 64 {
		t.Errorf("hot fields end at byte %d, want ≤ 64", end)
	}
	if size := unsafe.Sizeof(s); size != 128 {
		t.Errorf("Series is %d bytes, want 128", size)
	}
}

// TestPodSeenIsOneLine pins podSeen at 64 bytes: a pod's change reads all
// of it, one cache line (a size class whose objects start on a line).
func TestPodSeenIsOneLine(t *testing.T) {
	if size := unsafe.Sizeof(podSeen{}); size != 64 {
		t.Errorf("podSeen is %d bytes, want 64", size)
	}
}

// TestNodeSeriesIsOneLine pins nodeSeries at 64 bytes: the tracker keeps
// them in a slice by node id, and reporting a node reads one line.
func TestNodeSeriesIsOneLine(t *testing.T) {
	if size := unsafe.Sizeof(nodeSeries{}); size != 64 {
		t.Errorf("nodeSeries is %d bytes, want 64", size)
	}
}
