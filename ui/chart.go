package ui

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Charts are drawn here rather than with a charting library: a sparkline
// is eight block heights, a line chart is braille dots (2×4 per cell),
// and both lanes of a fork overlay on one grid with a colour per lane —
// small pure functions that goldens pin, with no extra dependency.

var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws vals scaled to [lo, hi], one cell per value.
func sparkline(vals []float64, lo, hi float64) string {
	var b strings.Builder
	for _, v := range vals {
		i := 0
		if hi > lo {
			i = int(math.Round((v - lo) / (hi - lo) * float64(len(sparkBlocks)-1)))
		}
		b.WriteRune(sparkBlocks[max(0, min(i, len(sparkBlocks)-1))])
	}
	return b.String()
}

// bounds are the min and max of every value (0..1 when there are none;
// a flat series gets room above it).
func bounds(series ...[]float64) (lo, hi float64) {
	first := true
	for _, s := range series {
		for _, v := range s {
			if first {
				lo, hi, first = v, v, false
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if first {
		return 0, 1
	}
	lo = math.Min(lo, 0)
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// brailleChart plots each series (2·w values: two dot columns per cell)
// on a w×h grid of braille cells, joining consecutive values with a
// vertical run so steps read as lines. owners[y][x] has bit i set when
// series i drew in that cell (for colouring).
func brailleChart(series [][]float64, lo, hi float64, w, h int) (cells [][]rune, owners [][]uint8) {
	dots := make([][]uint8, h) // braille bits per cell
	owners = make([][]uint8, h)
	for y := range dots {
		dots[y] = make([]uint8, w)
		owners[y] = make([]uint8, w)
	}
	rows := h * 4
	level := func(v float64) int {
		if hi <= lo {
			return 0
		}
		r := int(math.Round((v - lo) / (hi - lo) * float64(rows-1)))
		return max(0, min(r, rows-1))
	}
	// bit of the dot at (column dx in 0..1, row dy in 0..3 from the top)
	bit := func(dx, dy int) uint8 {
		if dy == 3 {
			return []uint8{0x40, 0x80}[dx]
		}
		return uint8(1) << (uint(dx)*3 + uint(dy))
	}
	for si, vals := range series {
		prev := -1
		for x := 0; x < len(vals) && x < 2*w; x++ {
			r := level(vals[x])
			from, to := r, r
			if prev >= 0 {
				from, to = min(prev, r), max(prev, r)
			}
			for rr := from; rr <= to; rr++ {
				row := rows - 1 - rr // from the top
				cy, dy := row/4, row%4
				cx, dx := x/2, x%2
				dots[cy][cx] |= bit(dx, dy)
				owners[cy][cx] |= 1 << uint(si)
			}
			prev = r
		}
	}
	cells = make([][]rune, h)
	for y := range dots {
		cells[y] = make([]rune, w)
		for x, d := range dots[y] {
			if d == 0 {
				cells[y][x] = ' '
			} else {
				cells[y][x] = rune(0x2800 + int(d))
			}
		}
	}
	return cells, owners
}

// axisSteps are the round intervals a time axis labels.
var axisSteps = []time.Duration{
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour,
}

// timeAxis labels a w-cell axis spanning [from, to] with round times, a
// label at most every minGap cells: the tick line and the label line.
func timeAxis(from, to time.Duration, w, minGap int) (ticks, labels string) {
	if w <= 0 {
		return "", ""
	}
	span := to - from
	if span <= 0 {
		span = time.Second
	}
	step := axisSteps[len(axisSteps)-1]
	for _, s := range axisSteps {
		if float64(s)/float64(span)*float64(w) >= float64(minGap) {
			step = s
			break
		}
	}
	tk := []rune(strings.Repeat("─", w))
	lb := []rune(strings.Repeat(" ", w))
	first := (from + step - 1) / step * step
	for t := first; t <= to; t += step {
		x := int(float64(t-from) / float64(span) * float64(w-1))
		if x < 0 || x >= w {
			continue
		}
		tk[x] = '┴'
		s := []rune(fmtAxis(t))
		if x+len(s) > w {
			continue
		}
		free := true
		for i := max(0, x-1); i < x+len(s)+1 && i < w; i++ {
			if lb[i] != ' ' {
				free = false
			}
		}
		if free {
			copy(lb[x:], s)
		}
	}
	return string(tk), string(lb)
}

// fmtAxis is a round time as an axis shows it: 0s, 15s, 1m, 1m30s, 2h.
func fmtAxis(t time.Duration) string {
	if t == 0 {
		return "0s"
	}
	h, m, sec := int(t/time.Hour), int(t%time.Hour/time.Minute), int(t%time.Minute/time.Second)
	var b strings.Builder
	if h > 0 {
		fmt.Fprintf(&b, "%dh", h)
	}
	if m > 0 {
		fmt.Fprintf(&b, "%dm", m)
	}
	if sec > 0 || b.Len() == 0 {
		fmt.Fprintf(&b, "%ds", sec)
	}
	return b.String()
}

// fmtValue prints a metric value compactly (integers without decimals).
func fmtValue(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e9 {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.1f", v)
}
