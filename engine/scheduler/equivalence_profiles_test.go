package scheduler

import (
	"fmt"
	"math/rand"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
)

// TestConfiguredFastPathsMatchReferencePaths is TestFastPathsMatchReferencePaths
// with configured profiles: the configured scorers' batch path (allocation
// index entries and their per-node memo) against per-node Score calls,
// including two profiles whose scorers take turns on the same memo.
func TestConfiguredFastPathsMatchReferencePaths(t *testing.T) {
	fit := func(typ string, rs []noderesources.ResourceSpec, shape ...noderesources.ShapePoint) *noderesources.FitArgs {
		return &noderesources.FitArgs{ScoringStrategy: noderesources.ScoringStrategy{Type: typ, Resources: rs, Shape: shape}}
	}
	cpu2 := []noderesources.ResourceSpec{{Name: "cpu", Weight: 2}, {Name: "memory", Weight: 1}}
	memOnly := []noderesources.ResourceSpec{{Name: "memory", Weight: 1}}
	profiles := [][]ProfileConfig{
		{{Args: PluginArgs{NodeResourcesFit: fit(noderesources.MostAllocated, cpu2)}}},
		{{Args: PluginArgs{NodeResourcesFit: fit(noderesources.RequestedToCapacityRatio, cpu2,
			noderesources.ShapePoint{Utilization: 0, Score: 10}, noderesources.ShapePoint{Utilization: 70, Score: 2}, noderesources.ShapePoint{Utilization: 100, Score: 5})}}},
		{{Args: PluginArgs{NodeResourcesFit: fit(noderesources.LeastAllocated, memOnly),
			NodeResourcesBalancedAllocation: &noderesources.BalancedAllocationArgs{Resources: memOnly}}}},
		{
			{Args: PluginArgs{NodeResourcesFit: fit(noderesources.MostAllocated, cpu2)}},
			{SchedulerName: "other", Args: PluginArgs{NodeResourcesFit: fit(noderesources.LeastAllocated, cpu2)}},
		},
	}
	for seed := int64(1); seed <= 8; seed++ {
		rng := rand.New(rand.NewSource(seed))
		numNodes := 20 + rng.Intn(200)
		fastSnap := randomEquivCluster(rand.New(rand.NewSource(seed)), numNodes)
		refSnap := randomEquivCluster(rand.New(rand.NewSource(seed)), numNodes)
		cfg := Config{Seed: seed, Profiles: profiles[int(seed)%len(profiles)]}
		fast, err := Build(cfg, fastSnap)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := Build(cfg, refSnap)
		ref.referencePaths = true
		for i := 0; i < 120; i++ {
			p := randomEquivPod(rng, fmt.Sprintf("pod-%d", i), rng.Intn(10) == 0)
			if len(cfg.Profiles) > 1 && rng.Intn(2) == 0 {
				p.Spec.SchedulerName = "other"
			}
			a, b := fast.ScheduleOne(framework.NewPodInfo(p)), ref.ScheduleOne(framework.NewPodInfo(p))
			if a.Node != b.Node || a.Message != b.Message || a.NominatedNode != b.NominatedNode {
				t.Fatalf("seed %d pod %d: fast %q %q %q, reference %q %q %q", seed, i, a.Node, a.Message, a.NominatedNode, b.Node, b.Message, b.NominatedNode)
			}
			if i%20 == 0 {
				e1, e2 := fast.Explain(framework.NewPodInfo(p)), ref.Explain(framework.NewPodInfo(p))
				for k := range e1.Nodes {
					v1, v2 := e1.Nodes[k], e2.Nodes[k]
					v1.Details, v2.Details = nil, nil
					if fmt.Sprint(v1) != fmt.Sprint(v2) {
						t.Fatalf("seed %d pod %d: verdicts differ: %+v vs %+v", seed, i, v1, v2)
					}
				}
			}
			if a.Node != "" {
				bindCopy(fastSnap, framework.NewPodInfo(p), a.Node)
				bindCopy(refSnap, framework.NewPodInfo(p), b.Node)
			}
		}
	}
}
