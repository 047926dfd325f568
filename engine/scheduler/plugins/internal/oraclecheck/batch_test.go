package oraclecheck

import (
	"fmt"
	"math/rand"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

// randomCluster builds a small random cluster exercising every node
// plugin: cordons, taints of every effect, labels for affinity, images,
// host ports, extended resources and pod counts.
func randomCluster(rng *rand.Rand) *framework.Snapshot {
	var nodes []*api.Node
	var pods []*api.Pod
	n := 3 + rng.Intn(10)
	effects := []string{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("n%02d", i)
		nw := tu.MakeNode().Name(name).Label("zone", string(rune('a'+rng.Intn(3)))).Label("gen", fmt.Sprint(rng.Intn(10))).
			Capacity(tu.Res{"cpu": []string{"1", "2", "4"}[rng.Intn(3)], "memory": []string{"1Gi", "4Gi"}[rng.Intn(2)],
				"pods": []string{"2", "110"}[rng.Intn(2)], "example.com/gpu": fmt.Sprint(rng.Intn(3))}).
			Unschedulable(rng.Intn(8) == 0)
		if rng.Intn(2) == 0 {
			nw.Label("disk", "ssd")
		}
		for t := rng.Intn(3); t > 0; t-- {
			nw.Taint([]string{"spot", "gpu", "slow"}[rng.Intn(3)], "x", effects[rng.Intn(3)])
		}
		if rng.Intn(3) == 0 {
			nw.Image(int64(50+rng.Intn(900))<<20, "app:v1")
		}
		nodes = append(nodes, nw.Obj())
		for j := rng.Intn(3); j > 0; j-- {
			p := tu.MakePod().Name(fmt.Sprintf("%s-%d", name, j)).Node(name).Req(tu.Res{"cpu": "300m", "memory": "256Mi"})
			if rng.Intn(4) == 0 {
				p.HostPort(8080)
			}
			pods = append(pods, p.Obj())
		}
	}
	return tu.NewSnapshot(nodes, pods)
}

func randomPod(rng *rand.Rand) *framework.PodInfo {
	p := tu.MakePod().Name("incoming")
	p.Req(tu.Res{"cpu": []string{"0", "500m", "2"}[rng.Intn(3)], "memory": "128Mi"})
	p.Spec.Containers[0].Image = "app:v1"
	if rng.Intn(3) == 0 {
		p.Req(tu.Res{"example.com/gpu": "1"})
	}
	if rng.Intn(3) == 0 {
		p.HostPort(8080)
	}
	if rng.Intn(2) == 0 {
		p.Tolerations(api.Toleration{Key: []string{"spot", "gpu", ""}[rng.Intn(3)], Operator: "Exists"})
	}
	if rng.Intn(3) == 0 {
		p.NodeSelector(map[string]string{"zone": "a"})
	}
	if rng.Intn(3) == 0 {
		p.RequiredNodeTerms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "gen", Operator: "Gt", Values: []string{"3"}}}})
	}
	if rng.Intn(2) == 0 {
		p.PreferredNodeIn(int32(1+rng.Intn(50)), "disk", "ssd")
	}
	if rng.Intn(5) == 0 {
		p.Node(fmt.Sprintf("n%02d", rng.Intn(4)))
	}
	return p.Info()
}

// TestBatchPathsMatchPerNodeCalls checks the batch fast paths
// (framework.BatchFilterPlugin / BatchScorePlugin) against the per-node
// Filter and Score, which stay the reference.
func TestBatchPathsMatchPerNodeCalls(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	batches := 0
	for iter := 0; iter < 300; iter++ {
		snap := randomCluster(rng)
		pod := randomPod(rng)
		for _, f := range filters() {
			bf, ok := f.(framework.BatchFilterPlugin)
			if !ok {
				continue
			}
			state := framework.NewCycleState()
			if pf, ok := f.(framework.PreFilterPlugin); ok {
				if _, st := pf.PreFilter(state, pod, snap); !st.IsSuccess() {
					continue
				}
			}
			batches++
			cand := make([]int32, len(snap.Nodes()))
			for k := range cand {
				cand[k] = int32(k)
			}
			got := map[int32]*framework.Status{}
			kept := bf.FilterBatch(state, pod, snap.Nodes(), cand, func(k int32, st *framework.Status) { got[k] = st })
			keptSet := map[int32]bool{}
			for _, k := range kept {
				keptSet[k] = true
			}
			for k, ni := range snap.Nodes() {
				want := f.Filter(state, pod, ni)
				g := got[int32(k)]
				if want.IsSuccess() != keptSet[int32(k)] || (want != nil && (g == nil || g.Code != want.Code || fmt.Sprint(g.Reasons) != fmt.Sprint(want.Reasons) || g.Plugin != f.Name())) {
					t.Fatalf("iter %d %s on %s: batch %+v (kept %v), per-node %+v", iter, f.Name(), ni.Node.Name, g, keptSet[int32(k)], want)
				}
			}
		}
		for _, s := range scorers() {
			bs, ok := s.(framework.BatchScorePlugin)
			if !ok {
				continue
			}
			state := framework.NewCycleState()
			if ps, ok := s.(framework.PreScorePlugin); ok {
				if st := ps.PreScore(state, pod, snap, snap.Nodes()); !st.IsSuccess() {
					continue
				}
			}
			batches++
			// A sub-range, as one worker of the runtime sees it.
			lo := rng.Intn(len(snap.Nodes()))
			nodes := snap.Nodes()[lo:]
			scores := make([]framework.NodeScore, len(nodes))
			if st := bs.ScoreBatch(state, pod, nodes, scores); !st.IsSuccess() {
				t.Fatalf("%s ScoreBatch: %+v", s.Name(), st)
			}
			for i, ni := range nodes {
				want, _ := s.Score(state, pod, ni)
				if scores[i].Score != want {
					t.Fatalf("iter %d %s on %s: batch %d, per-node %d", iter, s.Name(), ni.Node.Name, scores[i].Score, want)
				}
			}
		}
	}
	if batches < 1000 {
		t.Fatalf("only %d batch calls checked", batches)
	}
}
