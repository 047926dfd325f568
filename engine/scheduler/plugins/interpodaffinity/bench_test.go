package interpodaffinity

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// benchCluster: nodes in 3 zones, two pods per node labelled app=app-<i%50>;
// every tenth pod has a required anti-affinity on its own app per hostname.
func benchCluster(b *testing.B, numNodes int) *framework.Snapshot {
	b.Helper()
	var nodes []*api.Node
	var pods []*api.Pod
	for i := 0; i < numNodes; i++ {
		name := fmt.Sprintf("node-%05d", i)
		nodes = append(nodes, node(name, map[string]string{
			api.LabelHostname: name, api.LabelTopologyZone: fmt.Sprintf("zone-%d", i%3),
		}))
		for j := 0; j < 2; j++ {
			k := 2*i + j
			w := pod().Name(fmt.Sprintf("p%d", k)).Label("app", fmt.Sprintf("app-%d", k%50)).Node(name)
			if k%10 == 0 {
				w = w.PodAffinityTerm(true, term(api.LabelHostname, in("app", fmt.Sprintf("app-%d", k%50))))
			}
			pods = append(pods, w.Obj())
		}
	}
	return snapshot(nodes, pods)
}

func benchFilter(b *testing.B, numNodes int, incoming *api.Pod) {
	snap := benchCluster(b, numNodes)
	pl := New()
	pi := framework.NewPodInfo(incoming)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		state := framework.NewCycleState()
		if _, st := pl.PreFilter(state, pi, snap); st.IsSkip() {
			continue
		}
		for _, ni := range snap.Nodes() {
			pl.Filter(state, pi, ni)
		}
	}
}

func benchScore(b *testing.B, numNodes int, incoming *api.Pod) {
	snap := benchCluster(b, numNodes)
	pl := New()
	pi := framework.NewPodInfo(incoming)
	scores := make([]framework.NodeScore, len(snap.Nodes()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		state := framework.NewCycleState()
		if st := pl.PreScore(state, pi, snap, snap.Nodes()); st.IsSkip() {
			continue
		}
		for j, ni := range snap.Nodes() {
			scores[j].Score, _ = pl.Score(state, pi, ni)
		}
		pl.NormalizeScore(state, pi, scores)
	}
}

// A pod without affinity: only existing pods' anti-affinity is scanned.
func BenchmarkFilterPlainPod5000(b *testing.B) {
	benchFilter(b, 5000, pod().Label("app", "other").Obj())
}

// A pod with zone affinity and hostname anti-affinity: every pod is scanned.
func BenchmarkFilterAffinityPod5000(b *testing.B) {
	benchFilter(b, 5000, pod().Label("app", "app-7").
		PodAffinityTerm(false, term(api.LabelTopologyZone, in("app", "app-3"))).
		PodAffinityTerm(true, term(api.LabelHostname, in("app", "app-7"))).Obj())
}

func BenchmarkScorePlainPod5000(b *testing.B) {
	benchScore(b, 5000, pod().Label("app", "app-1").Obj())
}

func BenchmarkScorePreferredPod5000(b *testing.B) {
	benchScore(b, 5000, pod().Label("app", "app-7").
		PreferredPodAffinityTerm(false, 10, term(api.LabelTopologyZone, in("app", "app-3"))).
		PreferredPodAffinityTerm(true, 5, term(api.LabelHostname, in("app", "app-7"))).Obj())
}
