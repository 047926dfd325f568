package noderesources

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

type scoreCase struct {
	name     string
	pod      *tu.PodWrapper
	nodes    []tu.Res           // allocatable per node
	existing [][]*tu.PodWrapper // pods per node
	want     []int64
	// wantSkip: PreScore returns Skip.
	wantSkip bool
}

func runScoreCases(t *testing.T, pl framework.ScorePlugin, cases []scoreCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var nodes []*api.Node
			var pods []*api.Pod
			for i, r := range c.nodes {
				name := "node" + string(rune('1'+i))
				nw := tu.MakeNode().Name(name)
				if r != nil {
					nw.Capacity(r)
				}
				nodes = append(nodes, nw.Obj())
				if i < len(c.existing) {
					for j, p := range c.existing[i] {
						pods = append(pods, p.Name(name+"-"+string(rune('a'+j))).Node(name).Obj())
					}
				}
			}
			res := tu.RunScore(pl, c.pod.Name("p").Info(), tu.NewSnapshot(nodes, pods), nil)
			if c.wantSkip {
				if !res.PreScore.IsSkip() {
					t.Fatalf("PreScore %+v, want Skip", res.PreScore)
				}
				return
			}
			if res.PreScore != nil || res.Err != nil {
				t.Fatalf("status %+v %+v", res.PreScore, res.Err)
			}
			if !reflect.DeepEqual(res.Normalized, c.want) {
				t.Fatalf("scores %v, want %v", res.Normalized, c.want)
			}
		})
	}
}

// Cases and numbers from upstream least_allocated_test.go
// TestLeastAllocatedScoringStrategy (default resources cpu=1, memory=1;
// "cpu": "1000" there means 1000 cores).
func TestFitScoreLeastAllocated(t *testing.T) {
	node := func(cpu, mem string) tu.Res { return tu.Res{"cpu": cpu, "memory": mem} }
	twoContainers := func() *tu.PodWrapper { return usage(cm("1000", "2000"), cm("2000", "3000")) }
	runScoreCases(t, NewFit(), []scoreCase{
		{name: "nothing scheduled, nothing requested", pod: tu.MakePod(),
			nodes: []tu.Res{node("4000", "10000"), node("4000", "10000")}, want: []int64{100, 100}},
		{name: "nothing scheduled, resources requested, differently sized nodes", pod: twoContainers(),
			nodes: []tu.Res{node("4000", "10000"), node("6000", "10000")}, want: []int64{37, 50}},
		{name: "no resources requested, pods scheduled", pod: tu.MakePod(),
			nodes:    []tu.Res{node("4000", "10000"), node("4000", "10000")},
			existing: [][]*tu.PodWrapper{{tu.MakePod(), tu.MakePod()}, {tu.MakePod(), tu.MakePod()}},
			want:     []int64{100, 100}},
		{name: "no resources requested, pods scheduled with resources", pod: tu.MakePod(),
			nodes: []tu.Res{node("10000", "20000"), node("10000", "20000")},
			existing: [][]*tu.PodWrapper{
				{usage(cm("3000", "0")), usage(cm("3000", "0"))},
				{usage(cm("3000", "0")), usage(cm("3000", "5000"))},
			},
			want: []int64{70, 57}},
		{name: "resources requested, pods scheduled with resources", pod: twoContainers(),
			nodes:    []tu.Res{node("10000", "20000"), node("10000", "20000")},
			existing: [][]*tu.PodWrapper{{usage(cm("3000", "0"))}, {usage(cm("3000", "5000"))}},
			want:     []int64{57, 45}},
		{name: "resources requested, pods scheduled with resources, differently sized nodes", pod: twoContainers(),
			nodes:    []tu.Res{node("10000", "20000"), node("10000", "50000")},
			existing: [][]*tu.PodWrapper{{usage(cm("3000", "0"))}, {usage(cm("3000", "5000"))}},
			want:     []int64{57, 60}},
		{name: "requested resources exceed node capacity", pod: usage(cm("3000", "0")),
			nodes:    []tu.Res{node("4000", "10000"), node("4000", "10000")},
			existing: [][]*tu.PodWrapper{{usage(cm("3000", "0"))}, {usage(cm("3000", "5000"))}},
			want:     []int64{50, 25}},
		{name: "zero node resources", pod: tu.MakePod(), nodes: []tu.Res{nil, nil},
			existing: [][]*tu.PodWrapper{{usage(cm("3000", "0"))}, {usage(cm("3000", "5000"))}},
			want:     []int64{0, 0}},
		// A pod without requests counts 100m / 200Mi (non-zero requests):
		// cpu (4000−100)·100/4000 = 97, memory (8Gi−200Mi)·100/8Gi = 97.
		{name: "containers without requests count 100m and 200Mi", pod: tu.MakePod().Container("nginx"),
			nodes: []tu.Res{node("4", "8Gi")}, want: []int64{97}},
		// Only memory allocatable: the cpu entry is skipped, not scored 0.
		{name: "a resource the node lacks is skipped", pod: usage(cm("0", "1Gi")),
			nodes: []tu.Res{{"memory": "4Gi"}}, want: []int64{75}},
	})
}
