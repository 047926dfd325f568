package result

import (
	"strings"
	"testing"
)

func TestDiffExplain(t *testing.T) {
	want := &Explain{Pod: "default/p", Weights: map[string]int64{"A": 1},
		Nodes: []NodeVerdict{
			{Node: "n1", Feasible: true, Scores: map[string]int64{"A": 50}, Total: 50},
			{Node: "n2", Reasons: []string{"r1"}},
			{Node: "n3", Reasons: []string{"r1"}},
		}}
	same := &Explain{Pod: "default/p", Weights: map[string]int64{"A": 1},
		Nodes: []NodeVerdict{
			{Node: "n1", Feasible: true, Scores: map[string]int64{"A": 50, "B": 0}, Total: 50},
			{Node: "n2", Reasons: []string{"r1"}},
			{Node: "n3", Reasons: []string{"r1"}},
		}}
	if d := DiffExplain(want, same); len(d) != 0 {
		t.Errorf("identical outcomes differ: %v", d)
	}
	other := &Explain{Pod: "default/p", Weights: map[string]int64{"A": 1},
		Nodes: []NodeVerdict{
			{Node: "n1", Feasible: true, Scores: map[string]int64{"A": 40}, Total: 40},
			{Node: "n2", Reasons: []string{"r2"}},
			{Node: "n3", Feasible: true, Scores: map[string]int64{}},
		}}
	d := DiffExplain(want, other)
	wantLines := []string{
		"node n1: A score want 50, got 40",
		"node n1: total want 50, got 40",
		"node n2: reasons want [r1], got [r2]",
		"node n3: feasible want false ([r1]), got true (feasible)",
	}
	if strings.Join(d, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("diff =\n%s\nwant\n%s", strings.Join(d, "\n"), strings.Join(wantLines, "\n"))
	}
}

func TestDiffScheduleStopsAtFirstDivergence(t *testing.T) {
	want := &Schedule{Placements: []Placement{{Pod: "a", Node: "n1"}, {Pod: "b", Node: "n2"}, {Pod: "c", Message: "m1"}}}
	got := &Schedule{Placements: []Placement{{Pod: "a", Node: "n1"}, {Pod: "b", Node: "n3"}, {Pod: "c", Message: "m2"}}}
	d := DiffSchedule(want, got)
	if len(d) != 1 || d[0] != `pod b: node want "n2", got "n3"` {
		t.Errorf("diff = %q", d)
	}
	got.Placements[1].Node = "n2"
	if d := DiffSchedule(want, got); len(d) != 1 || !strings.Contains(d[0], "message") {
		t.Errorf("diff = %q", d)
	}
}
