package autoscaler

import (
	"testing"
)

func sizes(infos []ScaleUpInfo) map[string]int {
	out := map[string]int{}
	for _, i := range infos {
		out[i.Group] = i.NewSize
	}
	return out
}

// Ported from processors/nodegroupset/balancing_processor_test.go
// (commit 0488efb8): TestBalanceSingleGroup, TestBalanceUnderMaxSize and
// TestBalanceHittingMaxSize, group sizes and maxima as upstream's test
// provider sets them.
func TestBalanceScaleUp(t *testing.T) {
	g := func(name string, max, size int) ScaleUpInfo {
		return ScaleUpInfo{Group: name, CurrentSize: size, MaxSize: max}
	}
	ng1, ng2, ng3, ng4 := g("ng1", 10, 1), g("ng2", 10, 3), g("ng3", 10, 5), g("ng4", 10, 5)
	hit1, hit2, hit3, hit4, hit5 := g("ng1", 1, 1), g("ng2", 3, 1), g("ng3", 10, 3), g("ng4", 7, 5), g("ng5", 3, 6)
	for _, tc := range []struct {
		name   string
		groups []ScaleUpInfo
		add    int
		want   map[string]int
	}{
		{"single group, one node", []ScaleUpInfo{ng1}, 1, map[string]int{"ng1": 2}},
		{"single group, multiple nodes", []ScaleUpInfo{ng1}, 4, map[string]int{"ng1": 5}},
		{"under max: a single node", []ScaleUpInfo{ng1, ng2, ng3, ng4}, 1, map[string]int{"ng1": 2}},
		{"under max: multiple nodes to a single group", []ScaleUpInfo{ng1, ng2, ng3, ng4}, 2, map[string]int{"ng1": 3}},
		{"under max: different sizes, divisible", []ScaleUpInfo{ng1, ng2, ng3, ng4}, 4, map[string]int{"ng1": 4, "ng2": 4}},
		{"under max: all groups, divisible", []ScaleUpInfo{ng1, ng2, ng3, ng4}, 10, map[string]int{"ng1": 6, "ng2": 6, "ng3": 6, "ng4": 6}},
		{"one maxed-out group", []ScaleUpInfo{hit1}, 1, map[string]int{}},
		{"smallest group maxed out, add one", []ScaleUpInfo{hit1, hit2}, 1, map[string]int{"ng2": 2}},
		{"smallest group maxed out, too many nodes: capped", []ScaleUpInfo{hit1, hit2}, 5, map[string]int{"ng2": 3}},
		{"first group maxes out before the next", []ScaleUpInfo{hit2, hit3}, 4, map[string]int{"ng2": 3, "ng3": 5}},
		{"last group maxes out before the previous", []ScaleUpInfo{hit2, hit3, hit4}, 9, map[string]int{"ng2": 3, "ng3": 8, "ng4": 7}},
		{"use all capacity, cap to max", []ScaleUpInfo{hit2, hit3, hit4}, 900, map[string]int{"ng2": 3, "ng3": 10, "ng4": 7}},
		{"one group exceeds max", []ScaleUpInfo{hit2, hit5}, 1, map[string]int{"ng2": 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sizes(balanceScaleUp(tc.groups, tc.add))
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
	// non-divisible: 5 nodes over ng1 (1) and ng2 (3) give 4 and 5
	got := sizes(balanceScaleUp([]ScaleUpInfo{ng1, ng2, ng3, ng4}, 5))
	if len(got) != 2 || got["ng1"]+got["ng2"] != 9 || (got["ng1"] != 4 && got["ng1"] != 5) {
		t.Fatalf("non-divisible: %v", got)
	}
}

// After processors/nodegroupset/compare_nodegroups_test.go and
// balancing_processor_test.go TestFindSimilarNodeGroups: same resources
// and labels are similar whatever the zone and hostname; different CPU
// or an extra label are not; memory may differ by 1.5 %.
func TestSimilarTemplates(t *testing.T) {
	base := template("1", "1000Mi", "zone-a")
	if !similarTemplates(base, template("1", "1000Mi", "zone-b"), "") {
		t.Error("same shape in another zone should be similar")
	}
	if similarTemplates(base, template("2", "2000Mi", "zone-b"), "") {
		t.Error("twice the size should not be similar")
	}
	if similarTemplates(base, template("1", "1000Mi", "zone-b", "disk", "ssd"), "") {
		t.Error("an extra label should not be similar")
	}
	if !similarTemplates(base, template("1", "1010Mi", "zone-b"), "") {
		t.Error("memory within 1.5 % should be similar")
	}
	if similarTemplates(base, template("1", "1100Mi", "zone-b"), "") {
		t.Error("memory 10 % larger should not be similar")
	}
	if !similarTemplates(template("1", "1000Mi", "", "pool-zone", "x"), template("1", "1000Mi", "", "pool-zone", "y"), "pool-zone") {
		t.Error("the scenario's zone label is ignored too")
	}
}
