package nodeaffinity

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

const benchNodes = 5000

// BenchmarkFilter: PreFilter and one Filter pass over 5,000 nodes for a
// pod with a required zone term (In, two of three zones).
func BenchmarkFilter(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := tu.MakePod().Name("p").NodeAffinityIn(api.LabelTopologyZone, "zone-a", "zone-b").Info()
	pl, state := New(), framework.NewCycleState()
	tu.PerNode(b, benchNodes, func() {
		pl.PreFilter(state, pod, snap)
		for _, ni := range snap.Nodes() {
			pl.Filter(state, pod, ni)
		}
	})
}

// BenchmarkFilterNodeSelector: the same with a nodeSelector matching every
// node (no rejections, so no statuses are allocated).
func BenchmarkFilterNodeSelector(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := tu.MakePod().Name("p").NodeSelector(map[string]string{api.LabelTopologyZone: "zone-a"}).
		NodeAffinityNotIn("disk", "hdd").Info()
	pl, state := New(), framework.NewCycleState()
	pl.PreFilter(state, pod, snap)
	var nodes []*framework.NodeInfo
	for _, ni := range snap.Nodes() {
		if pl.Filter(state, pod, ni).IsSuccess() {
			nodes = append(nodes, ni)
		}
	}
	tu.PerNode(b, len(nodes), func() {
		pl.PreFilter(state, pod, snap)
		for _, ni := range nodes {
			pl.Filter(state, pod, ni)
		}
	})
}

// BenchmarkScore: PreScore, Score over 5,000 nodes for two preferred
// terms, and NormalizeScore.
func BenchmarkScore(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := tu.MakePod().Name("p").PreferredNodeIn(3, api.LabelTopologyZone, "zone-a").PreferredNodeIn(1, "disk", "ssd").Info()
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

// BenchmarkFilterBatch: PreFilter and the batch filter (required zone
// term rejecting a third of the nodes with a shared status).
func BenchmarkFilterBatch(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := tu.MakePod().Name("p").NodeAffinityIn(api.LabelTopologyZone, "zone-a", "zone-b").Info()
	pl, state := New(), framework.NewCycleState()
	pass := tu.FilterBatchPass(pl, state, pod, snap)
	tu.PerNode(b, benchNodes, func() {
		pl.PreFilter(state, pod, snap)
		pass()
	})
}

// BenchmarkScoreBatch: PreScore and the batch score for two preferred terms.
func BenchmarkScoreBatch(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := tu.MakePod().Name("p").PreferredNodeIn(3, api.LabelTopologyZone, "zone-a").PreferredNodeIn(1, "disk", "ssd").Info()
	pl, state := New(), framework.NewCycleState()
	pass := tu.ScoreBatchPass(pl, state, pod, snap)
	tu.PerNode(b, benchNodes, func() {
		pl.PreScore(state, pod, snap, snap.Nodes())
		pass()
	})
}
