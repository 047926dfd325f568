package scheduler

import (
	"math/rand/v2"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

func TestSelectHost(t *testing.T) {
	nodes := make([]*framework.NodeInfo, 5)
	for i := range nodes {
		nodes[i] = &framework.NodeInfo{Index: i}
	}
	cases := []struct {
		name   string
		totals []int64
		tb     TieBreak
		want   []int // acceptable results
	}{
		{"highest total wins", []int64{10, 50, 20, 49, 0}, TieBreakRandom, []int{1}},
		{"by name takes the first best", []int64{7, 9, 9, 1, 9}, TieBreakByName, []int{1}},
		{"random stays among the best", []int64{7, 9, 9, 1, 9}, TieBreakRandom, []int{1, 2, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			seen := map[int]bool{}
			for i := 0; i < 200; i++ {
				got := selectHost(nodes, c.totals, c.tb, rng)
				ok := false
				for _, w := range c.want {
					ok = ok || got == w
				}
				if !ok {
					t.Fatalf("chose %d, want one of %v", got, c.want)
				}
				seen[got] = true
			}
			if len(seen) != len(c.want) {
				t.Errorf("over 200 draws chose %v, want every one of %v", seen, c.want)
			}
		})
	}
}
