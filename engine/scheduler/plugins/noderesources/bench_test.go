package noderesources

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

const benchNodes = 5000

func benchPod() *framework.PodInfo { return usage(cm("100m", "128Mi")).Name("p").Info() }

// BenchmarkFitFilter: PreFilter and one Filter pass over 5,000 nodes that
// all fit.
func BenchmarkFitFilter(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := NewFit(), framework.NewCycleState()
	tu.PerNode(b, benchNodes, func() {
		pl.PreFilter(state, pod, snap)
		for _, ni := range snap.Nodes() {
			pl.Filter(state, pod, ni)
		}
	})
}

// BenchmarkFitScore: PreScore and LeastAllocated Score over 5,000 nodes.
func BenchmarkFitScore(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := NewFit(), framework.NewCycleState()
	tu.PerNode(b, benchNodes, func() {
		pl.PreScore(state, pod, snap, snap.Nodes())
		for _, ni := range snap.Nodes() {
			pl.Score(state, pod, ni)
		}
	})
}

// BenchmarkBalancedAllocationScore: PreScore and Score over 5,000 nodes.
func BenchmarkBalancedAllocationScore(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := NewBalancedAllocation(), framework.NewCycleState()
	tu.PerNode(b, benchNodes, func() {
		pl.PreScore(state, pod, snap, snap.Nodes())
		for _, ni := range snap.Nodes() {
			pl.Score(state, pod, ni)
		}
	})
}

// BenchmarkBalancedAllocationScoreCopies: the same on NodeInfo copies,
// which bypass the allocation index (the cost without it).
func BenchmarkBalancedAllocationScoreCopies(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	var copies []*framework.NodeInfo
	for _, ni := range snap.Nodes() {
		copies = append(copies, ni.Clone())
	}
	pl, state := NewBalancedAllocation(), framework.NewCycleState()
	tu.PerNode(b, benchNodes, func() {
		pl.PreScore(state, pod, snap, snap.Nodes())
		for _, ni := range copies {
			pl.Score(state, pod, ni)
		}
	})
}

// BenchmarkFitFilterBatch: PreFilter and the batch filter.
func BenchmarkFitFilterBatch(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := NewFit(), framework.NewCycleState()
	pass := tu.FilterBatchPass(pl, state, pod, snap)
	tu.PerNode(b, benchNodes, func() {
		pl.PreFilter(state, pod, snap)
		pass()
	})
}

// BenchmarkFitScoreBatch: PreScore and the batch score.
func BenchmarkFitScoreBatch(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := NewFit(), framework.NewCycleState()
	pass := tu.ScoreBatchPass(pl, state, pod, snap)
	tu.PerNode(b, benchNodes, func() {
		pl.PreScore(state, pod, snap, snap.Nodes())
		pass()
	})
}

// BenchmarkBalancedAllocationScoreBatch: PreScore and the batch score.
func BenchmarkBalancedAllocationScoreBatch(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := benchPod()
	pl, state := NewBalancedAllocation(), framework.NewCycleState()
	pass := tu.ScoreBatchPass(pl, state, pod, snap)
	tu.PerNode(b, benchNodes, func() {
		pl.PreScore(state, pod, snap, snap.Nodes())
		pass()
	})
}
