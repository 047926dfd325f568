package scheduler

import (
	"fmt"
	"math/rand"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// randomEquivCluster builds a random cluster touching every default plugin:
// cordoned and tainted nodes, zones (some nodes without one), disk labels,
// images on some nodes, running pods with labels and (anti-)affinity.
func randomEquivCluster(rng *rand.Rand, numNodes int) *framework.Snapshot {
	snap := framework.NewSnapshot()
	for i := 0; i < numNodes; i++ {
		cpu := []int64{2, 4, 8}[rng.Intn(3)]
		n := benchNode(i, cpu)
		if rng.Intn(12) == 0 {
			delete(n.Labels, api.LabelTopologyZone)
		}
		if rng.Intn(3) == 0 {
			n.Labels["disktype"] = "ssd"
		}
		if rng.Intn(10) == 0 {
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "batch", Effect: []string{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule}[rng.Intn(2)]}}
		}
		n.Spec.Unschedulable = rng.Intn(25) == 0
		if rng.Intn(4) == 0 {
			n.Status.Images = []api.ContainerImage{{Names: []string{"app:v1"}, SizeBytes: int64(100+rng.Intn(800)) * mi}}
		}
		if rng.Intn(5) == 0 {
			n.Status.Allocatable[api.ResourceMemory] = api.Units(int64(1+rng.Intn(8)) * gi)
		}
		snap.AddNode(n)
	}
	for i := 0; i < numNodes*2; i++ {
		p := randomEquivPod(rng, fmt.Sprintf("run-%d", i), rng.Intn(8) == 0)
		p.Spec.NodeName = fmt.Sprintf("node-%04d", rng.Intn(numNodes))
		p.Status.Phase = api.PodRunning
		snap.AddPod(framework.NewPodInfo(p))
	}
	return snap
}

func randomEquivPod(rng *rand.Rand, name string, withPodAffinity bool) *api.Pod {
	app := fmt.Sprintf("app-%d", rng.Intn(4))
	p := benchPod(name, int64(rng.Intn(5)*100), int64(rng.Intn(4)*256)*mi, map[string]string{"app": app})
	if rng.Intn(3) == 0 {
		p.Spec.Containers[0].Image = "app:v1"
	}
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
	if rng.Intn(2) == 0 {
		when := []string{api.DoNotSchedule, api.ScheduleAnyway}[rng.Intn(2)]
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, api.TopologySpreadConstraint{
			MaxSkew: int32(1 + rng.Intn(3)), TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: when, LabelSelector: sel})
	}
	if rng.Intn(3) == 0 {
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, api.TopologySpreadConstraint{
			MaxSkew: int32(1 + rng.Intn(3)), TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway, LabelSelector: sel})
	}
	if rng.Intn(3) == 0 {
		p.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
	}
	aff := &api.Affinity{}
	if rng.Intn(3) == 0 {
		aff.NodeAffinity = &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{
			Weight: int32(1 + rng.Intn(20)), Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "disktype", Operator: "In", Values: []string{"ssd"}}}},
		}}}
		if rng.Intn(2) == 0 {
			aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelTopologyZone, Operator: "In", Values: benchZones[:1+rng.Intn(3)]}},
			}}}
		}
	}
	if withPodAffinity {
		t := api.PodAffinityTerm{LabelSelector: sel, TopologyKey: []string{api.LabelHostname, api.LabelTopologyZone}[rng.Intn(2)]}
		switch rng.Intn(3) {
		case 0:
			aff.PodAntiAffinity = &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{t}}
		case 1:
			aff.PodAffinity = &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 7, PodAffinityTerm: t}}}
		default:
			aff.PodAntiAffinity = &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 5, PodAffinityTerm: t}}}
		}
	}
	if aff.NodeAffinity != nil || aff.PodAffinity != nil || aff.PodAntiAffinity != nil {
		p.Spec.Affinity = aff
	}
	return p
}

// TestFastPathsMatchReferencePaths schedules random pods on random
// clusters twice: with the plugins' batch fast paths and the runtime's
// shortcuts, and with per-node Filter/Score calls only. Every decision,
// message and explanation must be the same.
func TestFastPathsMatchReferencePaths(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewSource(seed))
		numNodes := 20 + rng.Intn(300)
		fastSnap := randomEquivCluster(rand.New(rand.NewSource(seed)), numNodes)
		refSnap := randomEquivCluster(rand.New(rand.NewSource(seed)), numNodes)
		fast := New(Config{Seed: seed}, fastSnap)
		ref := New(Config{Seed: seed}, refSnap)
		ref.referencePaths = true
		for i := 0; i < 150; i++ {
			p := randomEquivPod(rng, fmt.Sprintf("pod-%d", i), rng.Intn(10) == 0)
			a, b := fast.ScheduleOne(framework.NewPodInfo(p)), ref.ScheduleOne(framework.NewPodInfo(p))
			if a.Node != b.Node || a.Message != b.Message || a.NominatedNode != b.NominatedNode {
				t.Fatalf("seed %d pod %d: fast %q %q %q, reference %q %q %q", seed, i, a.Node, a.Message, a.NominatedNode, b.Node, b.Message, b.NominatedNode)
			}
			if i%25 == 0 {
				e1, e2 := fast.Explain(framework.NewPodInfo(p)), ref.Explain(framework.NewPodInfo(p))
				if e1.Chosen != e2.Chosen || e1.Message != e2.Message || len(e1.Nodes) != len(e2.Nodes) {
					t.Fatalf("seed %d pod %d: explanations differ: %q %q, %q %q", seed, i, e1.Chosen, e1.Message, e2.Chosen, e2.Message)
				}
				for k := range e1.Nodes {
					v1, v2 := e1.Nodes[k], e2.Nodes[k]
					v1.Details, v2.Details = nil, nil // plugin arithmetic holds pointers
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
