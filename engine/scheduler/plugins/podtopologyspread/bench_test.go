package podtopologyspread

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// benchCluster is scheduler_perf's TopologySpreading shape: nodes with
// hostname and one of 3 zones, pods labelled app=spread bound round-robin.
func benchCluster(b *testing.B, numNodes, numPods int) *framework.Snapshot {
	b.Helper()
	snap := framework.NewSnapshot()
	for i := range numNodes {
		name := fmt.Sprintf("node-%05d", i)
		snap.AddNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{
			api.LabelHostname: name, api.LabelTopologyZone: fmt.Sprintf("zone-%c", 'a'+i%3),
		}}})
	}
	for i := range numPods {
		bindBench(snap, fmt.Sprintf("init-%d", i), snap.Nodes()[i%numNodes].Node.Name)
	}
	return snap
}

func bindBench(snap *framework.Snapshot, name, node string) {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "spread"}}}
	p.Spec.NodeName = node
	snap.AddPod(framework.NewPodInfo(p))
}

var spreadSelector = matchLabels("app", "spread")

func hardZonePod() *framework.PodInfo {
	return framework.NewPodInfo(makePod("incoming").Label("app", "spread").Spread(5, api.LabelTopologyZone, dns, spreadSelector).Obj())
}

func softZoneHostPod() *framework.PodInfo {
	return framework.NewPodInfo(makePod("incoming").Label("app", "spread").
		Spread(1, api.LabelTopologyZone, anyway, spreadSelector).Spread(1, api.LabelHostname, anyway, spreadSelector).Obj())
}

// BenchmarkFilter: PreFilter + Filter on every node for one pod with a
// zone DoNotSchedule constraint; the cost must not grow with the pods.
func BenchmarkFilter(b *testing.B) {
	for _, pods := range []int{0, 5000, 50000} {
		b.Run(fmt.Sprintf("5000nodes/%dpods", pods), func(b *testing.B) {
			snap := benchCluster(b, 5000, pods)
			pl := mustNew(b, Args{})
			pi := hardZonePod()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				state := framework.NewCycleState()
				if _, st := pl.PreFilter(state, pi, snap); !st.IsSuccess() {
					b.Fatal(st.Message())
				}
				for _, ni := range snap.Nodes() {
					pl.Filter(state, pi, ni)
				}
			}
		})
	}
}

// affinityPod has spreading on zone and hostname and a required node
// affinity (nodeAffinityPolicy Honor: only matching nodes count), as
// scheduler_perf's mixed workloads.
func affinityPod() *framework.PodInfo {
	return framework.NewPodInfo(makePod("incoming").Label("app", "spread").
		NodeAffinityIn(api.LabelTopologyZone, "zone-a", "zone-b").
		Spread(1, api.LabelTopologyZone, anyway, spreadSelector).Spread(1, api.LabelHostname, anyway, spreadSelector).
		Spread(5, api.LabelTopologyZone, dns, spreadSelector).Obj())
}

// BenchmarkAffinityPod: PreFilter, Filter, PreScore, Score and
// NormalizeScore on every node for a pod whose node affinity restricts
// the counted nodes (cached node sets).
func BenchmarkAffinityPod(b *testing.B) {
	snap := benchCluster(b, 5000, 50000)
	pl := mustNew(b, Args{})
	pi := affinityPod()
	scores := make([]framework.NodeScore, len(snap.Nodes()))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		state := framework.NewCycleState()
		if _, st := pl.PreFilter(state, pi, snap); !st.IsSuccess() {
			b.Fatal(st.Message())
		}
		for _, ni := range snap.Nodes() {
			pl.Filter(state, pi, ni)
		}
		if st := pl.PreScore(state, pi, snap, snap.Nodes()); !st.IsSuccess() {
			b.Fatal(st.Message())
		}
		for i, ni := range snap.Nodes() {
			s, _ := pl.Score(state, pi, ni)
			scores[i] = framework.NodeScore{Name: ni.Node.Name, Index: i, Score: s}
		}
		pl.NormalizeScore(state, pi, scores)
	}
}

// BenchmarkScore: PreScore + Score on every node + NormalizeScore for a
// pod with zone and hostname ScheduleAnyway constraints.
func BenchmarkScore(b *testing.B) {
	for _, pods := range []int{0, 50000} {
		b.Run(fmt.Sprintf("5000nodes/%dpods", pods), func(b *testing.B) {
			snap := benchCluster(b, 5000, pods)
			pl := mustNew(b, Args{})
			pi := softZoneHostPod()
			scores := make([]framework.NodeScore, len(snap.Nodes()))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				state := framework.NewCycleState()
				if st := pl.PreScore(state, pi, snap, snap.Nodes()); !st.IsSuccess() {
					b.Fatal(st.Message())
				}
				for i, ni := range snap.Nodes() {
					s, _ := pl.Score(state, pi, ni)
					scores[i] = framework.NodeScore{Name: ni.Node.Name, Index: i, Score: s}
				}
				pl.NormalizeScore(state, pi, scores)
			}
		})
	}
}

// BenchmarkScheduleAndBind runs the plugin's whole cycle (PreFilter,
// Filter, PreScore, Score, NormalizeScore on 5,000 nodes) and binds each
// pod to the best node, so the indexes are updated as the cluster fills
// from 50,000 pods: per-pod cost stays flat.
func BenchmarkScheduleAndBind(b *testing.B) {
	for _, tc := range []struct {
		name string
		pod  func() *framework.PodInfo
	}{{"zoneDoNotSchedule", hardZonePod}, {"zoneHostScheduleAnyway", softZoneHostPod}} {
		b.Run(tc.name, func(b *testing.B) {
			snap := benchCluster(b, 5000, 50000)
			pl := mustNew(b, Args{})
			scores := make([]framework.NodeScore, 0, len(snap.Nodes()))
			feasible := make([]*framework.NodeInfo, 0, len(snap.Nodes()))
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				pi := tc.pod()
				state := framework.NewCycleState()
				feasible = feasible[:0]
				if _, st := pl.PreFilter(state, pi, snap); st.IsSuccess() {
					for _, ni := range snap.Nodes() {
						if pl.Filter(state, pi, ni).IsSuccess() {
							feasible = append(feasible, ni)
						}
					}
				} else {
					feasible = append(feasible, snap.Nodes()...)
				}
				best := feasible[0]
				if st := pl.PreScore(state, pi, snap, feasible); st.IsSuccess() {
					scores = scores[:0]
					for _, ni := range feasible {
						s, _ := pl.Score(state, pi, ni)
						scores = append(scores, framework.NodeScore{Name: ni.Node.Name, Index: ni.Index, Score: s})
					}
					pl.NormalizeScore(state, pi, scores)
					top := scores[0]
					for _, s := range scores {
						if s.Score > top.Score {
							top = s
						}
					}
					best = snap.Nodes()[top.Index]
				}
				bindBench(snap, fmt.Sprintf("bench-%d", i), best.Node.Name)
			}
		})
	}
}

// BenchmarkIndexPodAdded is the Snapshot.AddPod + RemovePod cost with
// the plugin's index registered.
func BenchmarkIndexPodAdded(b *testing.B) {
	snap := benchCluster(b, 5000, 50000)
	pl := mustNew(b, Args{})
	pl.PreFilter(framework.NewCycleState(), hardZonePod(), snap) // registers the index
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		name := fmt.Sprintf("x-%d", i)
		bindBench(snap, name, snap.Nodes()[i%5000].Node.Name)
		snap.RemovePod("default/" + name)
	}
}
