package noderesources

import (
	"math/rand"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// TestStrategyScorers pins the strategies' vector arithmetic on upstream's
// own cases (pkg/scheduler/framework/plugins/noderesources/
// most_allocated_test.go "differently sized nodes": 62 and 50;
// least_allocated_test.go same nodes: 37 and 50; requested_to_capacity_ratio
// with the scaled shape of TestBrokenLinearFunction's second case).
func TestStrategyScorers(t *testing.T) {
	def := DefaultResources()
	shape := []ShapePoint{{Utilization: 0, Score: 2}, {Utilization: 40, Score: 10}, {Utilization: 100, Score: 0}}
	cases := []struct {
		name                   string
		s                      ScoringStrategy
		requested, allocatable []int64
		want                   int64
	}{
		{"most node1", ScoringStrategy{Type: MostAllocated, Resources: def}, []int64{3000, 5000}, []int64{4000, 10000}, 62},
		{"most node2", ScoringStrategy{Type: MostAllocated, Resources: def}, []int64{3000, 5000}, []int64{6000, 10000}, 50},
		{"most over capacity counts as full", ScoringStrategy{Type: MostAllocated, Resources: def}, []int64{5000, 0}, []int64{4000, 10000}, 50},
		{"least node1", ScoringStrategy{Type: LeastAllocated, Resources: def}, []int64{3000, 5000}, []int64{4000, 10000}, 37},
		{"least weighted 3:1", ScoringStrategy{Type: LeastAllocated, Resources: []ResourceSpec{{"cpu", 3}, {"memory", 1}}}, []int64{3000, 5000}, []int64{4000, 10000}, (25*3 + 50) / 4},
		{"rtcr 20%", ScoringStrategy{Type: RequestedToCapacityRatio, Resources: def, Shape: shape}, []int64{20, 20}, []int64{100, 100}, 60},
		{"rtcr 70%", ScoringStrategy{Type: RequestedToCapacityRatio, Resources: def, Shape: shape}, []int64{70, 70}, []int64{100, 100}, 50},
		// a resource scoring 0 leaves the mean: only cpu (60) counts
		{"rtcr zero score dropped", ScoringStrategy{Type: RequestedToCapacityRatio, Resources: def, Shape: shape}, []int64{20, 100}, []int64{100, 100}, 60},
		{"rtcr rounds", ScoringStrategy{Type: RequestedToCapacityRatio, Resources: def, Shape: []ShapePoint{{0, 0}, {100, 10}}}, []int64{25, 50}, []int64{100, 100}, 38},
		{"resource the node lacks is skipped", ScoringStrategy{Type: MostAllocated, Resources: def}, []int64{3000, 0}, []int64{4000, 0}, 75},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newFitScorer(c.s)
			var got int64
			switch r.strategy {
			case strategyMost:
				got = r.weighted(c.requested, c.allocatable, mostRequestedScore)
			case strategyRatio:
				got = r.ratio(c.requested, c.allocatable)
			default:
				got = r.weighted(c.requested, c.allocatable, leastRequestedScore)
			}
			if got != c.want {
				t.Fatalf("score = %d, want %d", got, c.want)
			}
		})
	}
}

// TestBalancedVectorScore: two resources agree with the cpu/memory
// scorer; three use the population standard deviation
// (balanced_allocation.go balancedResourceScore).
func TestBalancedVectorScore(t *testing.T) {
	req, alloc := [numResources]int64{3000, 5000}, [numResources]int64{4000, 10000}
	if got, want := balancedVectorScore(req[:], alloc[:]), balancedResourceScore(&req, &alloc); got != want {
		t.Fatalf("two resources: %d, want %d", got, want)
	}
	// fractions 0.5, 0.5, 1 (capped): mean 2/3, std = sqrt(((1/6)²·2 + (1/3)²)/3) ≈ 0.2357 → 76
	if got := balancedVectorScore([]int64{1, 1, 3}, []int64{2, 2, 2}); got != 76 {
		t.Fatalf("three resources: %d, want 76", got)
	}
}

func TestIgnoredResources(t *testing.T) {
	a := FitArgs{IgnoredResources: []string{"example.com/foo"}, IgnoredResourceGroups: []string{"vendor.io"}}
	for name, want := range map[string]bool{
		"example.com/foo": true, "example.com/bar": false, "vendor.io/gpu": true,
		"cpu": false, "hugepages-2Mi": false, "kubernetes.io/x": false,
	} {
		if got := a.ignored(name); got != want {
			t.Errorf("ignored(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestEntryScoreMatchesNodeScore: the configured scorers' index path
// (entryScore, from the dense allocation entry) gives the vector path's
// score on random nodes and pods, for every strategy and resource order.
func TestEntryScoreMatchesNodeScore(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	shape := []ShapePoint{{Utilization: 0, Score: 10}, {Utilization: 50, Score: 2}, {Utilization: 100, Score: 7}}
	scorers := []*resourceScorer{
		newFitScorer(ScoringStrategy{Type: MostAllocated, Resources: []ResourceSpec{{"memory", 3}, {"cpu", 1}}}),
		newFitScorer(ScoringStrategy{Type: LeastAllocated, Resources: []ResourceSpec{{"cpu", 2}, {"memory", 1}}}),
		newFitScorer(ScoringStrategy{Type: RequestedToCapacityRatio, Resources: []ResourceSpec{{"cpu", 1}}, Shape: shape}),
		newBalancedScorer([]ResourceSpec{{"memory", 1}}),
		newBalancedScorer([]ResourceSpec{{"memory", 1}, {"cpu", 1}}),
	}
	for i := 0; i < 100_000; i++ {
		var ni framework.NodeInfo
		ni.Allocatable.MilliCPU, ni.Allocatable.Memory = randomAmount(rng, 0)%(1<<40), randomAmount(rng, 0)%(1<<40)
		if rng.Intn(10) == 0 {
			ni.Allocatable.MilliCPU = 0
		}
		ni.Requested.MilliCPU, ni.Requested.Memory = randomAmount(rng, ni.Allocatable.MilliCPU)%(1<<40), randomAmount(rng, ni.Allocatable.Memory)%(1<<40)
		ni.NonZeroRequested.MilliCPU, ni.NonZeroRequested.Memory = ni.Requested.MilliCPU+100, ni.Requested.Memory+200<<20
		e := entryOf(&ni)
		for _, r := range scorers {
			if !r.cpuMemOnly {
				t.Fatal("cpu/memory scorer not cpuMemOnly")
			}
			req := make([]int64, len(r.resources))
			for j := range req {
				req[j] = randomAmount(rng, 0) % (1 << 40)
			}
			if got, want := r.entryScore(req, &e), r.nodeScore(req, &ni); got != want {
				t.Fatalf("%+v req %v: entry %d, vector %d", r, req, got, want)
			}
		}
	}
}
