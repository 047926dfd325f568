package ui

import (
	"strings"
	"testing"

	"podlab.dev/podlab/lab"
)

func TestRoundTime(t *testing.T) {
	for secs, want := range map[float64]string{0: "0s", 10: "10s", 15: "15s", 60: "1m", 90: "1m30s", 3600: "1h", 3720: "1h2m", 29.6: "30s"} {
		if got := roundTime(secs); got != want {
			t.Errorf("roundTime(%g) = %q, want %q", secs, got, want)
		}
	}
}

// The axis is labelled at round times, a multiple of a round step, and
// labels are never cut.
func TestAxisTicks(t *testing.T) {
	for _, c := range []struct {
		start float64
		per   float64
		width int
		want  []string
	}{
		{0, 1, 60, []string{"┆0s", "┆10s", "┆20s", "┆30s", "┆40s", "┆50s"}},
		{7, 0.5, 40, []string{"┆10s", "┆15s", "┆20s", "┆25s"}},
		{0, 2, 52, []string{"┆0s", "┆30s", "┆1m", "┆1m30s"}},
		{0, 2, 50, []string{"┆0s", "┆30s", "┆1m"}}, // "┆1m30s" would be cut
	} {
		got := strings.Fields(axisTicks(lab.Time(c.start*1e9), c.per, c.width))
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("axisTicks(%gs, %gs/cell, %d) = %q, want %q", c.start, c.per, c.width, got, c.want)
		}
	}
}

func TestFitZoom(t *testing.T) {
	for _, c := range []struct {
		secs  float64
		width int
		want  float64
	}{
		{10, 60, 0.25}, {30, 60, 0.5}, {100, 60, 2}, {3000, 60, 60},
	} {
		if got := zooms[fitZoom(c.secs, c.width)]; got != c.want {
			t.Errorf("fitZoom(%gs in %d cells) = %gs/cell, want %g", c.secs, c.width, got, c.want)
		}
	}
}
