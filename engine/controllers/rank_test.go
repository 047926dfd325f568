package controllers

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

func TestCompareForScaleDown(t *testing.T) {
	now := sec(1000)
	cases := []struct {
		name       string
		a, b       *api.Pod
		colA, colB int
		wantLess   bool
		wantRule   RankRule
	}{
		{"unassigned before assigned", mkPod("a").obj(), mkPod("b").node("n1").readyAt(0).obj(), 0, 0, true, RuleUnassigned},
		{"assigned after unassigned", mkPod("a").node("n1").obj(), mkPod("b").obj(), 0, 0, false, RuleUnassigned},
		{"pending before running", mkPod("a").node("n1").obj(), mkPod("b").node("n2").running().obj(), 0, 0, true, RulePhase},
		{"unknown before running", mkPod("a").node("n1").phase(api.PodUnknown).obj(), mkPod("b").node("n2").running().obj(), 0, 0, true, RulePhase},
		{"pending before unknown", mkPod("a").node("n1").obj(), mkPod("b").node("n2").phase(api.PodUnknown).obj(), 0, 0, true, RulePhase},
		{"not ready before ready", mkPod("a").node("n1").running().obj(), mkPod("b").node("n2").readyAt(0).obj(), 0, 0, true, RuleNotReady},
		{"lower deletion cost first", mkPod("a").node("n1").readyAt(0).cost(100).obj(), mkPod("b").node("n2").readyAt(0).cost(-5).obj(), 0, 0, false, RuleDeletionCost},
		{"cost beats colocation", mkPod("a").node("n1").readyAt(0).cost(1).obj(), mkPod("b").node("n2").readyAt(0).obj(), 5, 1, false, RuleDeletionCost},
		{"more colocated first", mkPod("a").node("n1").readyAt(0).obj(), mkPod("b").node("n2").readyAt(0).obj(), 3, 2, true, RuleColocated},
		// ready 10s vs 1000s: buckets log2(1e10)=33 vs log2(1e12)=39.
		{"ready for less time first", mkPod("a").node("n1").readyAt(990).obj(), mkPod("b").node("n2").readyAt(0).obj(), 1, 1, true, RuleReadyTime},
		// ready 600s vs 700s: both in bucket 39 (2^39 ns = 549.8s .. 1099.5s): UID decides at once,
		// even though b has restarts and a is newer.
		{"same ready bucket: UID decides", mkPod("a").uid("z").node("n1").readyAt(400).createdAt(400).obj(), mkPod("b").uid("c").node("n2").readyAt(300).restarts(9).obj(), 1, 1, false, RuleReadyTimeUID},
		{"restarts when ready at the same instant", mkPod("a").node("n1").readyAt(5).restarts(1).obj(), mkPod("b").node("n2").readyAt(5).restarts(3).obj(), 1, 1, false, RuleRestarts},
		{"restarts for not-ready pods", mkPod("a").node("n1").running().restarts(4).obj(), mkPod("b").node("n2").running().restarts(3).obj(), 1, 1, true, RuleRestarts},
		{"newer first across buckets", mkPod("a").node("n1").createdAt(999).obj(), mkPod("b").node("n2").createdAt(0).obj(), 1, 1, true, RuleCreation},
		{"same creation bucket: UID", mkPod("a").uid("b").node("n1").createdAt(400).obj(), mkPod("b").uid("a").node("n2").createdAt(300).obj(), 1, 1, false, RuleCreationUID},
		{"full tie", mkPod("a").node("n1").obj(), mkPod("b").node("n2").obj(), 1, 1, false, RuleNone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			less, rule := compareForScaleDown(&rankInput{tc.a, tc.colA}, &rankInput{tc.b, tc.colB}, now)
			if less != tc.wantLess || rule != tc.wantRule {
				t.Fatalf("less=%v rule=%v, want less=%v rule=%v", less, rule, tc.wantLess, tc.wantRule)
			}
		})
	}
}

func TestLogBucket(t *testing.T) {
	for _, tc := range []struct {
		d    api.Time
		want int64
	}{{0, -1}, {-5, -1}, {1, 0}, {2, 1}, {3, 1}, {sec(1), 29}, {sec(600), 39}, {sec(549), 38}} {
		if got := logBucket(tc.d.Sub(0)); got != tc.want {
			t.Errorf("logBucket(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

// The seed's scale-down examples: a 4-replica set on 2 nodes scaled to 2
// deletes from the doubled-up node first unless pod-deletion-cost says
// otherwise.
func TestRankForScaleDown(t *testing.T) {
	now := sec(100)
	build := func(costs map[string]int) []*api.Pod {
		var pods []*api.Pod
		for _, s := range []struct{ name, node, uid string }{{"web-a", "n1", "u1"}, {"web-b", "n1", "u2"}, {"web-c", "n1", "u3"}, {"web-d", "n2", "u4"}} {
			b := mkPod(s.name).uid(s.uid).node(s.node).createdAt(0).readyAt(10)
			if c, ok := costs[s.name]; ok {
				b.cost(c)
			}
			pods = append(pods, b.obj())
		}
		return pods
	}
	order := func(r []RankedPod) []string {
		var out []string
		for _, x := range r {
			out = append(out, x.Pod.Name)
		}
		return out
	}
	pods := build(nil)
	got := RankForScaleDown(pods, pods, now)
	want := []string{"web-a", "web-b", "web-c", "web-d"}
	if !equalStrings(order(got), want) {
		t.Fatalf("order %v, want %v", order(got), want)
	}
	if got[2].Rule != RuleColocated || got[2].Colocated != 3 {
		t.Fatalf("web-c should precede web-d for colocation, got %v (%q)", got[2].Rule, got[2].Reason)
	}
	if got[0].Rule != RuleNone {
		t.Fatalf("web-a/web-b are identical (ready at the same instant), got %v", got[0].Rule)
	}
	pods = build(map[string]int{"web-d": -10, "web-a": 50})
	got = RankForScaleDown(pods, pods, now)
	want = []string{"web-d", "web-b", "web-c", "web-a"}
	if !equalStrings(order(got), want) {
		t.Fatalf("with costs: order %v, want %v", order(got), want)
	}
	if got[0].Reason != "lower pod-deletion-cost (-10 < 0)" {
		t.Fatalf("reason %q", got[0].Reason)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
