package scheduler

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

func TestNumFeasibleNodesToFind(t *testing.T) {
	cases := []struct {
		percentage, nodes, want int32
	}{
		{0, 10, 10},     // fewer than 100 nodes: all
		{0, 99, 99},     //
		{0, 100, 100},   // adaptive 50 % = 50, raised to 100
		{0, 1000, 420},  // 50 − 8 = 42 %
		{0, 5000, 500},  // 50 − 40 = 10 %
		{0, 6000, 300},  // 50 − 48 = 2 %, raised to 5 %
		{0, 10000, 500}, // 50 − 80 < 5: 5 %
		{10, 500, 100},  // 50, raised to 100
		{10, 5000, 500}, //
		{100, 5000, 5000},
		{1, 20000, 200},
	}
	for _, c := range cases {
		if got := numFeasibleNodesToFind(c.percentage, c.nodes); got != c.want {
			t.Errorf("numFeasibleNodesToFind(%d, %d) = %d, want %d", c.percentage, c.nodes, got, c.want)
		}
	}
}

func TestPercentageOfNodesToScoreIsValidated(t *testing.T) {
	for _, p := range []int32{-1, 101} {
		if _, err := Build(Config{PercentageOfNodesToScore: &p}, framework.NewSnapshot()); err == nil {
			t.Errorf("percentage %d accepted", p)
		}
	}
	for _, p := range []int32{0, 1, 100} {
		if _, err := Build(Config{PercentageOfNodesToScore: &p}, framework.NewSnapshot()); err != nil {
			t.Errorf("percentage %d: %v", p, err)
		}
	}
}

// TestFullPercentageDecidesAsAllNodes: 100 % (and any percentage below
// 100 nodes) evaluates every node, so every decision equals the default
// mode's.
func TestFullPercentageDecidesAsAllNodes(t *testing.T) {
	for _, c := range []struct {
		percentage int32
		nodes      int
	}{{100, 260}, {0, 90}, {30, 60}} {
		rng := rand.New(rand.NewSource(int64(c.nodes)))
		allSnap := randomEquivCluster(rand.New(rand.NewSource(9)), c.nodes)
		someSnap := randomEquivCluster(rand.New(rand.NewSource(9)), c.nodes)
		p := c.percentage
		all := New(Config{Seed: 4}, allSnap)
		some := New(Config{Seed: 4, PercentageOfNodesToScore: &p}, someSnap)
		for i := 0; i < 120; i++ {
			pod := randomEquivPod(rng, fmt.Sprintf("pod-%d", i), rng.Intn(10) == 0)
			a, b := all.ScheduleOne(framework.NewPodInfo(pod)), some.ScheduleOne(framework.NewPodInfo(pod))
			if a.Node != b.Node || a.Message != b.Message || a.NominatedNode != b.NominatedNode {
				t.Fatalf("%d%% of %d nodes, pod %d: all nodes %q %q, percentage %q %q", p, c.nodes, i, a.Node, a.Message, b.Node, b.Message)
			}
			if a.Node != "" {
				bindCopy(allSnap, framework.NewPodInfo(pod), a.Node)
				bindCopy(someSnap, framework.NewPodInfo(pod), b.Node)
			}
		}
	}
}

// TestPercentageWindowIsUpstreamsSequentialSearch checks filterSome
// against findNodesThatPassFilters run with one goroutine: walking the
// nodes from nextStartNodeIndex in rotated order, the first
// numFeasibleNodesToFind nodes that pass every filter are scored, and the
// start index advances by the number of nodes walked. Per-node verdicts
// come from an all-nodes Explain on an identical cluster.
func TestPercentageWindowIsUpstreamsSequentialSearch(t *testing.T) {
	for _, percentage := range []int32{0, 7, 40} {
		rng := rand.New(rand.NewSource(int64(percentage) + 1))
		const numNodes = 700
		refSnap := randomEquivCluster(rand.New(rand.NewSource(21)), numNodes)
		snap := randomEquivCluster(rand.New(rand.NewSource(21)), numNodes)
		p := percentage
		ref := New(Config{Seed: 2}, refSnap)
		s := New(Config{Seed: 2, PercentageOfNodesToScore: &p}, snap)
		need := int(numFeasibleNodesToFind(p, numNodes))
		start := 0
		for i := 0; i < 80; i++ {
			pod := randomEquivPod(rng, fmt.Sprintf("pod-%d", i), false)
			ex := ref.Explain(framework.NewPodInfo(pod))
			var want []string
			walked := 0
			for walked < numNodes && len(want) < need {
				v := ex.Nodes[(start+walked)%numNodes]
				walked++
				if v.Feasible {
					want = append(want, v.Node)
				}
			}
			slices.Sort(want)
			if s.nextStartNodeIndex != start {
				t.Fatalf("%d%% pod %d: start index %d, want %d", p, i, s.nextStartNodeIndex, start)
			}
			o := s.run(framework.NewPodInfo(pod), false, s.rng)
			var got []string
			for _, ni := range o.feasible {
				got = append(got, ni.Node.Name)
			}
			if len(want) > 1 && !slices.Equal(got, want) {
				t.Fatalf("%d%% pod %d: scored %d nodes %v…, want %d %v…", p, i, len(got), head(got), len(want), head(want))
			}
			start = (start + walked) % numNodes
			if o.chosen < 0 {
				continue
			}
			node := o.feasible[o.chosen].Node.Name
			if !slices.Contains(want, node) {
				t.Fatalf("%d%% pod %d: chose %s outside the window", p, i, node)
			}
			bindCopy(snap, framework.NewPodInfo(pod), node)
			bindCopy(refSnap, framework.NewPodInfo(pod), node)
		}
	}
}

func head(x []string) []string { return x[:min(len(x), 5)] }

// TestExplainEvaluatesAllNodesInPercentageMode: Explain is complete and
// leaves the rotating start index alone.
func TestExplainEvaluatesAllNodesInPercentageMode(t *testing.T) {
	p := int32(0)
	snap := randomEquivCluster(rand.New(rand.NewSource(5)), 400)
	s := New(Config{PercentageOfNodesToScore: &p}, snap)
	all := New(Config{}, randomEquivCluster(rand.New(rand.NewSource(5)), 400))
	pod := framework.NewPodInfo(benchPod("x", 100, 100*mi, nil))
	s.ScheduleOne(pod)
	startBefore := s.nextStartNodeIndex
	e1, e2 := s.Explain(pod), all.Explain(pod)
	if s.nextStartNodeIndex != startBefore || startBefore == 0 {
		t.Fatalf("start index %d → %d", startBefore, s.nextStartNodeIndex)
	}
	if !slices.Equal(e1.Feasible, e2.Feasible) || len(e1.Feasible) < 300 || e1.Chosen != e2.Chosen {
		t.Fatalf("explain in percentage mode: %d feasible, chosen %q; all nodes: %d, %q", len(e1.Feasible), e1.Chosen, len(e2.Feasible), e2.Chosen)
	}
}
