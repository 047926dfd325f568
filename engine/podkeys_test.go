package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortedPodKeysCache checks the cached sorted keys against a fresh
// sort through random additions and removals, read at random moments
// (so both the merge of pending changes and the drop-and-rebuild path
// run).
func TestSortedPodKeysCache(t *testing.T) {
	e := &Engine{own: &owner{}}
	r := rand.New(rand.NewPCG(1, 1))
	for step := 0; step < 40000; step++ {
		k := fmt.Sprintf("ns-%d/pod-%04d", r.IntN(3), r.IntN(2000))
		if _, ok := e.pods.Lookup(k); ok {
			e.pods.Delete(e.own, k)
			e.podKeyRemoved(k)
		} else {
			e.pods.Set(e.own, k, &podState{})
			e.podKeyAdded(k)
		}
		// reads close together merge the pending changes; the last
		// stretch reads rarely, past the drop-and-rebuild threshold
		if (step < 15000 && r.IntN(1+step%200) == 0) || step%8000 == 0 {
			want := make([]string, 0, e.pods.Len())
			for k := range e.pods.All() {
				want = append(want, k)
			}
			slices.Sort(want)
			if got := e.sortedPodKeys(); !slices.Equal(got, want) {
				t.Fatalf("step %d: %d cached keys, want %d", step, len(got), len(want))
			}
		}
	}
}
