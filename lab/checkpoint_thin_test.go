package lab

import "testing"

// thinningVictim keeps the root and the keepRecent newest, and otherwise
// drops the checkpoint between the two smallest neighbouring gaps (the
// smallest product left·right), so what stays is spread evenly.
func TestThinningVictim(t *testing.T) {
	for _, tc := range []struct {
		name string
		pos  []float64
		want int
	}{
		{"too few to drop", []float64{0, 1}, -1},
		{"only root and recent: the oldest after the root goes", []float64{0, 10, 11, 12, 13}, 1},
		// dropping 10 leaves gaps 11, 19 (squares 482), dropping 11 leaves 10, 20 (500)
		{"of a crowded pair, the one leaving more even gaps", []float64{0, 10, 11, 30, 50, 96, 97, 98, 99}, 1},
		{"evenly spread: the first of equals", []float64{0, 10, 20, 30, 40, 96, 97, 98, 99}, 1},
		{"a lone old checkpoint in a wide gap stays", []float64{0, 40, 41, 42, 60, 96, 97, 98, 99}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := thinningVictim(tc.pos); got != tc.want {
				t.Fatalf("thinningVictim(%v) = %d, want %d", tc.pos, got, tc.want)
			}
		})
	}
}
