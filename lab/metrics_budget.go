package lab

import (
	"cmp"
	"slices"
)

// The metric store's bound. Each series keeps at most maxPoints change
// points (its own older half thinned when it grows past them), and the
// store as a whole keeps within maxBytes: after a sample that left it
// larger, the longest series have their older half thinned (every other
// point dropped, the recent half kept whole) until it is back under three
// quarters of the budget. So a long run loses resolution in the distant
// past of its busiest series, never the present, and never grows past the
// budget by more than one sample's new points. The budget counts what the
// store holds: 16 bytes a point by capacity (a small series' slice, a
// larger one's 4 KB chunks, metrics_chunks.go), the chunks on the free
// list, and each series' key, labels and map entries (seriesBytes); a
// store already holding maxSeries series records no new ones (Dropped
// counts them).
const (
	// DefaultMetricsPoints bounds each series: 4,096 change points.
	DefaultMetricsPoints = 4096
	// DefaultMetricsBytes bounds one store (one lane): 40 MB.
	DefaultMetricsBytes = 40_000_000
	// DefaultMetricsSeries bounds the number of series: 2 a node and 3 +
	// zones + keys a workload, so 20,000 covers 5,000 nodes and 1,000
	// workloads; without their points they are ≈ 15 MB of the budget.
	DefaultMetricsSeries = 20_000
)

// pointBytes is the size of one Point (time and value).
const pointBytes = 16

func newMetrics(maxPoints int) *Metrics {
	return &Metrics{maxPoints: maxPoints, maxBytes: DefaultMetricsBytes, maxSeries: DefaultMetricsSeries, series: map[string]*Series{}}
}

// Bytes is the store's estimated size: what the budget bounds.
func (m *Metrics) Bytes() int {
	m.flush()
	return m.bytes
}

// Dropped counts the series not recorded because the store already held
// its maximum number of series.
func (m *Metrics) Dropped() int { return m.dropped }

// seriesBytes is a series' cost without its points: its key, the Series,
// its entries in the store's two indexes, and each label's strings and
// map (measured: ≈ 700 bytes for a series with one or two labels;
// TestMetricsStoreHeapWithinBudget holds the estimate to the heap).
func seriesBytes(sr *Series) int {
	n := len(sr.key) + 520
	for k, v := range sr.Labels {
		n += len(k) + len(v) + 110
	}
	return n
}

// recount sets bytes from the series (after a truncation or a copy).
func (m *Metrics) recount() {
	m.flush()
	m.bytes = len(m.free) * chunkBytes
	for _, sr := range m.series {
		m.bytes += seriesBytes(sr) + sr.heldBytes()
	}
}

// size is the store's points and estimated bytes.
func (m *Metrics) size() (points, bytes int) {
	m.flush()
	for _, sr := range m.series {
		points += sr.Len()
	}
	return points, m.bytes
}

// shrink thins the longest series until the store is within three
// quarters of its budget. It runs once a sample has been recorded, so
// which series are thinned depends only on the store, not on the order
// in which a sample reported its series: longest first, then by key.
func (m *Metrics) shrink() {
	if m.maxBytes <= 0 {
		return
	}
	if m.mayExceedBudget() {
		m.flush()
	}
	if m.bytes <= m.maxBytes {
		return
	}
	target := m.maxBytes / 4 * 3
	all := make([]*Series, 0, len(m.series))
	for _, sr := range m.series {
		all = append(all, sr)
	}
	for m.bytes > target {
		slices.SortFunc(all, func(a, b *Series) int {
			if c := cmp.Compare(b.Len(), a.Len()); c != 0 {
				return c
			}
			return cmp.Compare(a.key, b.key)
		})
		progress := false
		for _, sr := range all {
			if m.bytes <= target || sr.Len() < 4 {
				break
			}
			b := sr.heldBytes()
			m.thinSeries(sr)
			m.bytes += sr.heldBytes() - b
			progress = true
		}
		if !progress {
			return // only series of a few points left: nothing more to thin
		}
	}
}
