package nodeunschedulable

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

const benchNodes = 5000

// BenchmarkFilter: one Filter pass over 5,000 nodes (none cordoned).
func BenchmarkFilter(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := tu.MakePod().Name("p").Req(tu.Res{"cpu": "100m"}).Info()
	pl, state := New(), framework.NewCycleState()
	pl.PreFilter(state, pod, snap)
	tu.PerNode(b, benchNodes, func() {
		for _, ni := range snap.Nodes() {
			pl.Filter(state, pod, ni)
		}
	})
}

// BenchmarkFilterBatch: the batch fast path over the same nodes.
func BenchmarkFilterBatch(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := tu.MakePod().Name("p").Req(tu.Res{"cpu": "100m"}).Info()
	pl, state := New(), framework.NewCycleState()
	pl.PreFilter(state, pod, snap)
	tu.PerNode(b, benchNodes, tu.FilterBatchPass(pl, state, pod, snap))
}
