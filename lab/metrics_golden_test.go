package lab

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// storeDigest is a hash of every series (key, then each point's time and
// value bits) in key order, and the store's estimated bytes: two stores
// with the same digest recorded the same history.
func storeDigest(m *Metrics) string {
	h := sha256.New()
	var buf [16]byte
	for _, sr := range m.Series() {
		h.Write([]byte(sr.Key()))
		h.Write([]byte{0})
		for _, p := range sr.Points() {
			binary.LittleEndian.PutUint64(buf[:8], uint64(p.T))
			binary.LittleEndian.PutUint64(buf[8:], math.Float64bits(p.V))
			h.Write(buf[:])
		}
		h.Write([]byte{1})
	}
	points, bytes := m.size()
	return fmt.Sprintf("%x %d series %d points %d bytes", h.Sum(nil)[:12], len(m.Series()), points, bytes)
}

// TestMetricsDayGolden pins what the recorder stores over two virtual
// hours of BenchmarkMetricsDay's engine, against digests recorded with the
// recorder before its points went through a pending log
// (metrics_log.go): the store's representation may change, the series
// may not. "budget" runs with a store small enough to be thinned by its
// byte budget and its per-series bound many times, so the moment the
// budget is checked is pinned too ("points" is the same bound per series
// without the budget: the two must differ).
func TestMetricsDayGolden(t *testing.T) {
	for _, tc := range []struct {
		name      string
		maxPoints int
		maxBytes  int
		want      string
	}{
		// the points as before; the bytes 1,200 more since a series' points
		// are kept in chunks (metrics_chunks.go): a series past 256 points
		// holds whole chunks instead of a slice's doubled capacity
		{"default", DefaultMetricsPoints, DefaultMetricsBytes, "ed345a58eb58f999e22cfcf3 1304 series 68475 points 2544246 bytes"},
		{"points", 48, 0, "461a9b42089cdc2db82e3141 1304 series 40347 points 1911350 bytes"},
		{"budget", 48, 1_200_000, "ce4c32c720b8f7adb914f702 1304 series 7499 points 1080358 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, live := dayEngine(t)
			source := func() metricsSource { return engineMetricsSource(e) }
			m := newMetrics(tc.maxPoints)
			m.maxBytes = tc.maxBytes
			m.sample(e, source)
			engineDay(t, e, live, 7200, func() { m.sample(e, source) })
			if got := storeDigest(m); got != tc.want {
				t.Errorf("store after 2 virtual hours:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}
