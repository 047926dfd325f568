package ui

import (
	"strings"
	"testing"
	"time"
)

func TestSparkline(t *testing.T) {
	tests := []struct {
		vals   []float64
		lo, hi float64
		want   string
	}{
		{[]float64{0, 1, 2, 3, 4, 5, 6, 7}, 0, 7, "▁▂▃▄▅▆▇█"},
		{[]float64{5, 5, 5}, 5, 5, "▁▁▁"},
		{[]float64{-3, 10}, 0, 7, "▁█"},
		{nil, 0, 1, ""},
	}
	for _, tt := range tests {
		if got := sparkline(tt.vals, tt.lo, tt.hi); got != tt.want {
			t.Errorf("sparkline(%v, %v, %v) = %q, want %q", tt.vals, tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestBounds(t *testing.T) {
	for _, tt := range []struct {
		in     [][]float64
		lo, hi float64
	}{
		{nil, 0, 1},
		{[][]float64{{3, 3}}, 0, 3},
		{[][]float64{{2, 5}, {9}}, 0, 9},
		{[][]float64{{0, 0}}, 0, 1},
		{[][]float64{{-2, 4}}, -2, 4},
	} {
		if lo, hi := bounds(tt.in...); lo != tt.lo || hi != tt.hi {
			t.Errorf("bounds(%v) = %v, %v; want %v, %v", tt.in, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestBrailleChart(t *testing.T) {
	// a rising step on a 2×1 grid: 4 dot columns, 4 dot rows
	cells, owners := brailleChart([][]float64{{0, 0, 3, 3}}, 0, 3, 2, 1)
	got := string(cells[0])
	// cell 0: both dot columns on the bottom row (dots 7, 8: ⣀); cell 1:
	// the step's vertical run in its left column (dots 1, 2, 3, 7) and the
	// top dot of its right column (dot 4): ⡏
	if got != "⣀⡏" {
		t.Fatalf("chart = %q, want %q", got, "⣀⡏")
	}
	if owners[0][0] != 1 || owners[0][1] != 1 {
		t.Fatalf("owners %v", owners)
	}
	// two series in one cell: both bits
	_, owners = brailleChart([][]float64{{0, 0}, {1, 1}}, 0, 1, 1, 1)
	if owners[0][0] != 3 {
		t.Fatalf("overlay owners = %v, want 3", owners[0][0])
	}
}

func TestTimeAxis(t *testing.T) {
	// the 1m label would run past the edge: only its tick is drawn
	ticks, labels := timeAxis(0, time.Minute, 61, 8)
	if !strings.HasPrefix(labels, "0s") || !strings.Contains(labels, "10s") || !strings.Contains(labels, "50s") || strings.Contains(labels, "1m") {
		t.Fatalf("labels %q", labels)
	}
	if len([]rune(ticks)) != 61 || strings.Count(ticks, "┴") != 7 {
		t.Fatalf("ticks %q", ticks)
	}
	// a long span picks a coarser round step
	_, labels = timeAxis(0, 2*time.Hour, 40, 8)
	if !strings.Contains(labels, "30m") || strings.Contains(labels, "10s") {
		t.Fatalf("2h labels %q", labels)
	}
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{{0, "0s"}, {15 * time.Second, "15s"}, {time.Minute, "1m"}, {90 * time.Second, "1m30s"}, {2 * time.Hour, "2h"}} {
		if got := fmtAxis(tt.d); got != tt.want {
			t.Errorf("fmtAxis(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
