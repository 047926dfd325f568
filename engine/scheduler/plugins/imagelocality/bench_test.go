package imagelocality

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

const benchNodes = 5000

// BenchmarkScore: PreScore and Score over 5,000 nodes, a quarter holding
// one of the pod's two images.
func BenchmarkScore(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := podWith("app:v1", "sidecar").Name("p").Info()
	pl, state := New(), framework.NewCycleState()
	tu.PerNode(b, benchNodes, func() {
		pl.PreScore(state, pod, snap, snap.Nodes())
		for _, ni := range snap.Nodes() {
			pl.Score(state, pod, ni)
		}
	})
}

// BenchmarkScoreBatch: PreScore and the batch score.
func BenchmarkScoreBatch(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := podWith("app:v1", "sidecar").Name("p").Info()
	pl, state := New(), framework.NewCycleState()
	pass := tu.ScoreBatchPass(pl, state, pod, snap)
	tu.PerNode(b, benchNodes, func() {
		pl.PreScore(state, pod, snap, snap.Nodes())
		pass()
	})
}
