package lab

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// TestChunkedSeriesMatchesSlice puts random values into series of several
// bounds (below, at and far past a chunk) and truncates them at random,
// and checks every time that the chunked series holds what the single
// growing slice it replaced would: the same points (putPoint's same-instant
// rule, thinning at the bound, truncation), its invariant (every chunk
// before the last full), At, Last and the store's byte count against a
// recount.
func TestChunkedSeriesMatchesSlice(t *testing.T) {
	for _, maxPoints := range []int{8, 255, 256, 257, 600, 4096} {
		r := rand.New(rand.NewPCG(uint64(maxPoints), 7))
		m := newMetrics(maxPoints)
		sr := m.newSeries("x", "x", nil)
		var want []Point // the model: the old slice
		now := api.Time(0)
		longest, maxFull := 0, 0
		for step := range 30_000 {
			switch k := r.IntN(10_000); {
			case k < 3 && len(want) > 0:
				// truncate at a random instant (as going back in time does)
				at := want[r.IntN(len(want))].T
				i := sr.search(at)
				m.truncateTo(sr, i)
				want = want[:i]
				now = at
				m.recount()
			case k < 20:
				c := cloneSeries(sr)
				if !slices.Equal(c.Points(), sr.Points()) {
					t.Fatalf("max %d, step %d: a clone differs", maxPoints, step)
				}
			default:
				if r.IntN(4) > 0 {
					now += api.Time(time.Second)
				}
				v := float64(r.IntN(3))
				before := m.bytes
				m.putPoint(sr, now, v)
				want = putModel(want, now, v, maxPoints)
				b := m.bytes
				m.recount()
				if m.bytes != b {
					t.Fatalf("max %d, step %d: bytes %d after a put (from %d), recount %d", maxPoints, step, b, before, m.bytes)
				}
			}
			longest, maxFull = max(longest, len(want)), max(maxFull, len(sr.full))
			if got := sr.Points(); !slices.Equal(got, want) {
				t.Fatalf("max %d, step %d: %d points, want %d\n got %v\nwant %v", maxPoints, step, len(got), len(want), got, want)
			}
			for i, c := range sr.full {
				if len(c) != chunkPoints || cap(c) != chunkPoints {
					t.Fatalf("max %d, step %d: chunk %d holds %d of %d", maxPoints, step, i, len(c), cap(c))
				}
			}
			if len(sr.full) > 0 && len(sr.cur) == 0 {
				t.Fatalf("max %d, step %d: an empty last chunk after full ones", maxPoints, step)
			}
			if last, ok := sr.Last(); ok != (len(want) > 0) || ok && last != want[len(want)-1] {
				t.Fatalf("max %d, step %d: last %v %v", maxPoints, step, last, ok)
			}
			if len(want) > 0 {
				p := want[r.IntN(len(want))]
				if got := sr.At(p.T); got != p.V {
					t.Fatalf("max %d, step %d: At(%v) = %v, want %v", maxPoints, step, p.T, got, p.V)
				}
			}
		}
		if longest < min(maxPoints, 4*chunkPoints) || maxPoints > chunkPoints && maxFull < 1 {
			t.Fatalf("max %d: the longest series had %d points in %d full chunks: the test does not reach the bound", maxPoints, longest, maxFull)
		}
		if len(m.free) > maxFreeChunks {
			t.Fatalf("free list %d chunks", len(m.free))
		}
	}
}

// putModel is putPoint on one slice, as the store did before chunks.
func putModel(ps []Point, t api.Time, v float64, maxPoints int) []Point {
	if n := len(ps); n > 0 {
		last := ps[n-1]
		if last.V == v {
			return ps
		}
		if last.T == t {
			ps[n-1].V = v
			if n > 1 && ps[n-2].V == v {
				ps = ps[:n-1]
			}
			return ps
		}
	}
	ps = append(ps, Point{T: t, V: v})
	if len(ps) > maxPoints {
		ps = thin(ps)
	}
	return ps
}
