package nodename

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

const benchNodes = 5000

// BenchmarkFilter: one Filter pass over 5,000 nodes for a pod without
// spec.nodeName.
func BenchmarkFilter(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := tu.MakePod().Name("p").Info()
	pl, state := New(), framework.NewCycleState()
	tu.PerNode(b, benchNodes, func() {
		for _, ni := range snap.Nodes() {
			pl.Filter(state, pod, ni)
		}
	})
}
