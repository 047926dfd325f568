package scheduler

import "testing"

// Cases follow framework.FitError.Error (pkg/scheduler/framework/types.go).
func TestFitErrorMessage(t *testing.T) {
	cases := []struct {
		name      string
		numNodes  int
		preFilter string
		reasons   map[string]int
		post      string
		want      string
	}{
		{
			name:     "histogram uses a plain string sort so 10 sorts before 2",
			numNodes: 12,
			reasons:  map[string]int{"node(s) had untolerated taint(s)": 2, "Insufficient cpu": 10},
			want:     "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had untolerated taint(s).",
		},
		{
			name:     "equal counts sort by reason",
			numNodes: 3,
			reasons:  map[string]int{"node(s) didn't match pod anti-affinity rules": 2, "node(s) had untolerated taint(s)": 1},
			post:     "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
			want:     "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
		},
		{
			name:      "a PreFilter rejection replaces the histogram",
			numNodes:  4,
			preFilter: "node(s) didn't match Pod's node affinity/selector",
			reasons:   map[string]int{"node(s) didn't match Pod's node affinity/selector": 4},
			want:      "0/4 nodes are available: node(s) didn't match Pod's node affinity/selector.",
		},
		{
			name:      "PreFilter rejection then the preemption message",
			numNodes:  2,
			preFilter: "node(s) didn't satisfy plugin NodeAffinity",
			post:      "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
			want:      "0/2 nodes are available: node(s) didn't satisfy plugin NodeAffinity. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
		},
		{
			name:     "no reasons: just the header",
			numNodes: 0,
			want:     "0/0 nodes are available:",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := fitErrorMessage(c.numNodes, c.preFilter, c.reasons, c.post); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
