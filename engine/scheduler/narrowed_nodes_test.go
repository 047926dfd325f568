package scheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// narrowedNodes gives the nodes a pass over every node keeps, in the same
// (snapshot) order, whether it looks the names up or passes over the
// nodes: one name, a few, names of no node, most nodes.
func TestNarrowedNodesMatchesAPassOverEveryNode(t *testing.T) {
	snap := framework.NewSnapshot()
	for i := 0; i < 200; i++ {
		// added out of name order: positions are by name
		snap.AddNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("n%03d", (i*37)%200)}})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 2, 5, 24, 25, 26, 100, 200} {
		for trial := 0; trial < 20; trial++ {
			names := map[string]struct{}{}
			for len(names) < size {
				names[fmt.Sprintf("n%03d", rng.IntN(200))] = struct{}{}
			}
			names["ghost"] = struct{}{} // a PreFilter may name a node that does not exist
			var want []string
			for _, ni := range snap.Nodes() {
				if _, ok := names[ni.Node.Name]; ok {
					want = append(want, ni.Node.Name)
				}
			}
			var got []string
			for _, ni := range narrowedNodes(snap, names) {
				got = append(got, ni.Node.Name)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d names: got %v, want %v", size, got, want)
			}
		}
	}
}
