package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMergeSortedKeys pins mergeSortedKeys to the plain answer (the set
// old − gone + add, sorted) on hand-picked edges and random sets.
func TestMergeSortedKeys(t *testing.T) {
	cases := []struct{ old, add, gone, want []string }{
		{nil, nil, nil, []string{}},
		{[]string{"b"}, []string{"a"}, nil, []string{"a", "b"}},
		{[]string{"b"}, []string{"c"}, nil, []string{"b", "c"}},
		{[]string{"a", "b", "c"}, nil, []string{"a", "c"}, []string{"b"}},
		{[]string{"a", "c"}, []string{"b"}, []string{"c"}, []string{"a", "b"}},
		{[]string{"a", "c"}, []string{"d"}, []string{"a", "c"}, []string{"d"}},
		{[]string{"b", "d"}, []string{"a", "c", "e"}, []string{"b", "d"}, []string{"a", "c", "e"}},
	}
	for _, c := range cases {
		if got := mergeSortedKeys(c.old, c.add, c.gone); !slices.Equal(got, c.want) {
			t.Errorf("merge(%v + %v − %v) = %v, want %v", c.old, c.add, c.gone, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 2000; n++ {
		var old, add, gone []string
		keep := map[string]bool{}
		for i := 0; i < r.IntN(40); i++ {
			k := fmt.Sprintf("ns/p-%03d", r.IntN(200))
			switch {
			case slices.Contains(old, k) || slices.Contains(add, k):
			case r.IntN(2) == 0:
				old = append(old, k)
				if r.IntN(3) == 0 {
					gone = append(gone, k)
				} else {
					keep[k] = true
				}
			default:
				add = append(add, k)
				keep[k] = true
			}
		}
		slices.Sort(old)
		slices.Sort(add)
		slices.Sort(gone)
		want := make([]string, 0, len(keep))
		for k := range keep {
			want = append(want, k)
		}
		slices.Sort(want)
		if got := mergeSortedKeys(old, add, gone); !slices.Equal(got, want) {
			t.Fatalf("merge(%v + %v − %v) = %v, want %v", old, add, gone, got, want)
		}
	}
}
