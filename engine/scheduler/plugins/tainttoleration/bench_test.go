package tainttoleration

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

const benchNodes = 5000

func benchPod() *framework.PodInfo {
	return tu.MakePod().Name("p").Tolerations(api.Toleration{Key: "dedicated", Operator: "Equal", Value: "batch", Effect: "NoSchedule"}).Info()
}

// BenchmarkFilter: one Filter pass over 5,000 nodes, 10% with a tolerated
// NoSchedule taint.
func BenchmarkFilter(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := New(), framework.NewCycleState()
	pl.PreFilter(state, pod, snap)
	tu.PerNode(b, benchNodes, func() {
		for _, ni := range snap.Nodes() {
			pl.Filter(state, pod, ni)
		}
	})
}

// BenchmarkScore: PreScore, one Score pass over 5,000 nodes (5% with an
// untolerated PreferNoSchedule taint) and NormalizeScore.
func BenchmarkScore(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := New(), framework.NewCycleState()
	scores := make([]framework.NodeScore, benchNodes)
	tu.PerNode(b, benchNodes, func() {
		pl.PreScore(state, pod, snap, snap.Nodes())
		for i, ni := range snap.Nodes() {
			scores[i].Score, _ = pl.Score(state, pod, ni)
		}
		pl.NormalizeScore(state, pod, scores)
	})
}

// BenchmarkFilterBatch: the batch fast path over the same nodes.
func BenchmarkFilterBatch(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := New(), framework.NewCycleState()
	pl.PreFilter(state, pod, snap)
	tu.PerNode(b, benchNodes, tu.FilterBatchPass(pl, state, pod, snap))
}

// BenchmarkScoreBatch: PreScore and the batch score over the same nodes.
func BenchmarkScoreBatch(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := New(), framework.NewCycleState()
	pl.PreScore(state, pod, snap, snap.Nodes())
	tu.PerNode(b, benchNodes, tu.ScoreBatchPass(pl, state, pod, snap))
}
