package lab

import (
	"sort"

	"podlab.dev/podlab/engine/api"
)

// A series' points are kept in chunks. While a series has at most
// chunkPoints points they are one slice growing as slices do (a small
// series costs what it did when the points were one slice); past that,
// in fixed chunks of chunkPoints points (4 KB, pointer-free), each taken
// from the store's short free list or allocated: nothing is ever copied
// when a series grows. One growing slice per series copied every point
// again at each doubling and cleared the unused half of every new array
// (805,297 points over BenchmarkDay's day: growslice and memclr were most
// of what putting the points cost, docs/benchmarks.md), and the largest
// arrays (64 KB and more) were large objects of their own. Thinning (the
// per-series bound, the byte budget) compacts the points in place and
// gives the emptied chunks back to the free list.
//
// Invariant: every chunk in full holds exactly chunkPoints points (len
// and cap); cur, the last chunk, holds 1..chunkPoints points (none only
// when the series is empty, then full is empty too).

// chunkPoints is the size of a full chunk: 256 points, 4,096 bytes (an
// allocation size class).
const chunkPoints = 256

// chunkBytes is a full chunk's size.
const chunkBytes = chunkPoints * pointBytes

// maxFreeChunks bounds the free list (256 KB; counted in the store's
// bytes while held).
const maxFreeChunks = 64

// Len is the series' number of points.
func (s *Series) Len() int { return len(s.full)*chunkPoints + len(s.cur) }

// point is the i-th point (0 ≤ i < Len).
func (s *Series) point(i int) Point {
	if f := len(s.full) * chunkPoints; i >= f {
		return s.cur[i-f]
	}
	return s.full[i/chunkPoints][i%chunkPoints]
}

// pointRef is where the i-th point is kept.
func (s *Series) pointRef(i int) *Point {
	if f := len(s.full) * chunkPoints; i >= f {
		return &s.cur[i-f]
	}
	return &s.full[i/chunkPoints][i%chunkPoints]
}

// Points is a copy of the series' change points, oldest first.
func (s *Series) Points() []Point {
	out := make([]Point, 0, s.Len())
	for _, c := range s.full {
		out = append(out, c...)
	}
	return append(out, s.cur...)
}

// Last is the newest point (false: none).
func (s *Series) Last() (Point, bool) {
	if len(s.cur) == 0 {
		return Point{}, false
	}
	return s.tail, true
}

// search is the number of points at or before t.
func (s *Series) search(t api.Time) int {
	return sort.Search(s.Len(), func(i int) bool { return s.point(i).T > t })
}

// heldBytes is what the series' points hold: its chunks by capacity and
// the list of full chunks.
func (s *Series) heldBytes() int {
	return cap(s.cur)*pointBytes + len(s.full)*chunkBytes + cap(s.full)*24
}

// getChunk is an empty full-size chunk, from the free list when it has
// one (the list's bytes move to the series that takes it).
func (m *Metrics) getChunk() []Point {
	if n := len(m.free); n > 0 {
		c := m.free[n-1]
		m.free[n-1] = nil
		m.free = m.free[:n-1]
		m.bytes -= chunkBytes
		return c[:0]
	}
	return make([]Point, 0, chunkPoints)
}

// putChunk gives a full-size chunk back (dropped when the list is full).
func (m *Metrics) putChunk(c []Point) {
	if cap(c) != chunkPoints || len(m.free) >= maxFreeChunks {
		return
	}
	m.free = append(m.free, c[:0])
	m.bytes += chunkBytes
}

// push appends a point (the caller keeps m.bytes).
func (m *Metrics) push(s *Series, p Point) {
	switch {
	case len(s.cur) < chunkPoints:
		// room in the last chunk, or the series' only chunk growing as
		// a slice does
		s.cur = append(s.cur, p)
	default:
		// the last chunk is full: it joins full (as a chunk of exactly
		// chunkPoints, copied once if it grew as a slice past it) and
		// a new chunk starts
		c := s.cur
		if cap(c) != chunkPoints {
			c = append(m.getChunk(), c...)
		}
		s.full = append(s.full, c)
		s.cur = append(m.getChunk(), p)
	}
	s.tail = p
}

// truncateTo keeps the first n points, giving emptied chunks back.
func (m *Metrics) truncateTo(s *Series, n int) {
	if n >= s.Len() {
		return
	}
	if len(s.full) == 0 {
		s.cur = s.cur[:n] // one slice: it keeps its capacity, as before
	} else {
		k := 0 // the chunk of the n-th point
		if n > 0 {
			k = (n - 1) / chunkPoints
		}
		if k < len(s.full) {
			m.putChunk(s.cur)
			for _, c := range s.full[k+1:] {
				m.putChunk(c)
			}
			s.cur = s.full[k]
			clear(s.full[k:])
			s.full = s.full[:k]
		}
		s.cur = s.cur[:n-k*chunkPoints]
		if n == 0 {
			m.putChunk(s.cur)
			s.cur = nil
		}
	}
	if len(s.cur) > 0 {
		s.tail = s.cur[len(s.cur)-1]
	}
}

// thinSeries drops every other point of the series' older half.
func (m *Metrics) thinSeries(s *Series) {
	if len(s.full) == 0 {
		// one slice: into a slice of the exact size, as before (the
		// dropped points' room is given back)
		s.cur = thin(s.cur)
		return
	}
	n := s.Len()
	half := n / 2
	w := 0
	for i := 0; i < half; i += 2 {
		*s.pointRef(w) = s.point(i)
		w++
	}
	for i := half; i < n; i++ {
		*s.pointRef(w) = s.point(i)
		w++
	}
	m.truncateTo(s, w)
}

// cloneSeries copies a series' points into fresh chunks of their own.
func cloneSeries(s *Series) *Series {
	c := &Series{Name: s.Name, Labels: s.Labels, key: s.key, tail: s.tail}
	if len(s.full) == 0 {
		c.cur = append([]Point(nil), s.cur...)
		return c
	}
	c.full = make([][]Point, len(s.full))
	for i, ch := range s.full {
		c.full[i] = append(make([]Point, 0, chunkPoints), ch...)
	}
	c.cur = append(make([]Point, 0, chunkPoints), s.cur...)
	return c
}
