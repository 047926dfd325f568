package noderesources

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

func cpuOnly(cpu string) tu.Res { return tu.Res{"cpu": cpu} }

// Cases and numbers from upstream v1.36.3 balanced_allocation_test.go
// TestNodeResourcesBalancedAllocation (the improvement-of-balance score).
func TestBalancedAllocationScore(t *testing.T) {
	node := func(milliCPU, mem string) tu.Res { return tu.Res{"cpu": milliCPU, "memory": mem} }
	twoContainers := func() *tu.PodWrapper { return usage(cm("1000m", "2000"), cm("2000m", "3000")) }
	runScoreCases(t, NewBalancedAllocation(), []scoreCase{
		{name: "nothing scheduled, nothing requested, skip in PreScore", pod: tu.MakePod(),
			nodes: []tu.Res{node("4", "10000"), node("4", "10000")}, wantSkip: true},
		{name: "containers without requests are best effort too", pod: tu.MakePod().Container("nginx"),
			nodes: []tu.Res{node("4", "10000")}, wantSkip: true},
		// node1: with pod cpu 3/4, mem 5000/10000: std 0.125 → 87; without → 100;
		// 50 + (50 + 87 − 100)/2 = 68. node2: 3/6 and 1/2 → 100 and 100 → 75.
		{name: "nothing scheduled, resources requested, differently sized nodes", pod: twoContainers(),
			nodes: []tu.Res{node("4", "10000"), node("6", "10000")}, want: []int64{68, 75}},
		{name: "resources requested, pods scheduled with resources", pod: twoContainers(),
			nodes:    []tu.Res{node("10", "20000"), node("10", "20000")},
			existing: [][]*tu.PodWrapper{{usage(cpuOnly("1000m"), cpuOnly("2000m"))}, {twoContainers()}},
			want:     []int64{73, 74}},
		{name: "resources requested, pods scheduled with resources, differently sized nodes", pod: twoContainers(),
			nodes:    []tu.Res{node("10", "20000"), node("10", "50000")},
			existing: [][]*tu.PodWrapper{{usage(cpuOnly("1000m"), cpuOnly("2000m"))}, {twoContainers()}},
			want:     []int64{73, 70}},
		{name: "nodes to reach min/max score", pod: usage(tu.Res{"memory": "2000"}, tu.Res{"memory": "3000"}),
			nodes:    []tu.Res{node("3", "5000"), node("3", "5000")},
			existing: [][]*tu.PodWrapper{{usage(cpuOnly("1000m"), cpuOnly("2000m"))}},
			want:     []int64{100, 50}},
		{name: "requested resources at node capacity", pod: usage(cpuOnly("1000m"), cpuOnly("2000m")),
			nodes:    []tu.Res{node("6", "10000"), node("6", "10000")},
			existing: [][]*tu.PodWrapper{{usage(cpuOnly("1000m"), cpuOnly("2000m"))}, {twoContainers()}},
			want:     []int64{62, 62}},
		{name: "an extended resource is not scored by default", pod: twoContainers(),
			nodes: []tu.Res{{"cpu": "3500m", "memory": "40000", "nvidia.com/gpu": "8"}, node("3500m", "40000")},
			want:  []int64{56, 56}},
		// Fractions above 1 are capped: 3/2 → 1 and 0 → std 0.5 → 50;
		// without the pod 0 and 0 → 100: 50 + (50 + 50 − 100)/2 = 50.
		{name: "fractions above capacity are capped", pod: usage(cpuOnly("3")),
			nodes: []tu.Res{node("2", "1Gi")}, want: []int64{50}},
		// One resource only (no memory allocatable): std 0 both ways → 75.
		{name: "a single resource scores 75", pod: usage(cm("1", "1Gi")),
			nodes: []tu.Res{{"cpu": "4"}}, want: []int64{75}},
	})
}

func TestBalancedAllocationScoreWithoutPreScore(t *testing.T) {
	node := tu.NodeInfo(tu.MakeNode().Name("n").Capacity(tu.Res{"cpu": "4", "memory": "10000"}).Obj())
	pod := usage(cm("1000m", "2000"), cm("2000m", "3000")).Name("p").Info()
	if s, st := NewBalancedAllocation().Score(framework.NewCycleState(), pod, node); s != 68 || !st.IsSuccess() {
		t.Fatalf("got %d %+v, want 68", s, st)
	}
	if s, _ := NewBalancedAllocation().Score(framework.NewCycleState(), tu.MakePod().Name("b").Info(), node); s != 0 {
		t.Fatalf("best effort without PreScore: got %d, want 0", s)
	}
}

func TestExplain(t *testing.T) {
	node := tu.NodeInfo(tu.MakeNode().Name("n").Capacity(tu.Res{"cpu": "4", "memory": "10000"}).Obj())
	pod := usage(cm("1000m", "2000"), cm("2000m", "3000")).Name("p").Info()
	b := NewBalancedAllocation().ExplainNode(nil, pod, node).(BalancedExplanation)
	if b.ScoreWithPod != 87 || b.ScoreWithoutPod != 100 || b.Score != 68 || len(b.Resources) != 2 || b.Resources[0].Requested != 3000 {
		t.Fatalf("balanced: %+v", b)
	}
	f := NewFit().ExplainNode(nil, pod, node).(FitExplanation)
	// cpu (4000−3000)·100/4000 = 25, memory (10000−5000)·100/10000 = 50 → 37.
	if f.Score != 37 || len(f.PerResource) != 2 || f.PerResource[0] != 25 || f.PerResource[1] != 50 {
		t.Fatalf("fit: %+v", f)
	}
}
