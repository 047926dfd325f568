package cowmap

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// A Map and its copies behave as independent maps: random sets and
// deletes on an original and two copies taken along the way (each with
// its own owner token, as Clone gives) are checked against plain maps
// after every step, and shared buckets are copied, never written.
func TestCowMapCopiesAreIndependent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	type side struct {
		m    Map[int]
		o    *Owner
		want map[string]int
	}
	sides := []*side{{o: &Owner{}, want: map[string]int{}}}
	for step := 0; step < 20000; step++ {
		if step == 5000 || step == 12000 {
			// a clone: both get new tokens, the buckets are shared
			from := sides[r.IntN(len(sides))]
			from.o = &Owner{}
			sides = append(sides, &side{m: from.m, o: &Owner{}, want: maps.Clone(from.want)})
		}
		s := sides[r.IntN(len(sides))]
		k := fmt.Sprintf("ns/pod-%d", r.IntN(3000))
		if r.IntN(3) == 0 {
			s.m.Delete(s.o, k)
			delete(s.want, k)
		} else {
			s.m.Set(s.o, k, step)
			s.want[k] = step
		}
		if step%997 != 0 && step != 19999 {
			continue
		}
		for i, s := range sides {
			if s.m.Len() != len(s.want) {
				t.Fatalf("step %d side %d: len %d, want %d", step, i, s.m.Len(), len(s.want))
			}
			got := map[string]int{}
			for k, v := range s.m.All() {
				got[k] = v
			}
			if !maps.Equal(got, s.want) {
				t.Fatalf("step %d side %d: entries differ from a plain map's", step, i)
			}
			for k, v := range s.want {
				if g, ok := s.m.Lookup(k); !ok || g != v || s.m.Get(k) != v {
					t.Fatalf("step %d side %d: %s = %d, %v; want %d", step, i, k, g, ok, v)
				}
			}
		}
	}
}
