package podtopologyspread

import (
	"fmt"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// renderState shows constraint i of a PreFilter state as
// "dom:count ... | paths dom:num dom:num" (eligible domains only; "-" for
// an empty critical path), the shape of upstream's TpValueToMatchNum and
// CriticalPaths.
func renderState(s *preFilterState, i int) string {
	var b strings.Builder
	for d, v := range s.topos[i].Domains {
		if s.eligible[i] == nil || s.eligible[i][d] {
			fmt.Fprintf(&b, "%s:%d ", v, s.matchNum[i][d])
		}
	}
	b.WriteString("| paths")
	for _, p := range s.paths[i] {
		if p.domain < 0 {
			b.WriteString(" -")
			continue
		}
		fmt.Fprintf(&b, " %s:%d", s.topos[i].Domains[p.domain], p.matchNum)
	}
	return b.String()
}

// TestPreFilterExtensions ports upstream's TestPreFilterStateAddPod and
// TestPreFilterStateRemovePod cases (filtering_test.go).
func TestPreFilterExtensions(t *testing.T) {
	twoNodes := []string{"node-a zone=zone1 node=node-a", "node-b zone=zone1 node=node-b"}
	nodePod := func() *api.Pod { return makePod("p").Label("foo", "").Spread(1, "node", dns, fooSelector).Obj() }
	zonePod := func() *podBuilder { return makePod("p").Label("foo", "") }
	tests := []struct {
		name      string
		nodes     []string
		pods      []string
		preemptor *api.Pod
		add       string // pod added, "" for none
		remove    string // name of an existing pod removed, "" for none
		want      []string
	}{
		{
			name: "node a and b both impact current min match", nodes: twoNodes,
			preemptor: nodePod(), add: "p-a1 @node-a foo=",
			want: []string{"node-a:1 node-b:0 | paths node-b:0 node-a:1"},
		},
		{
			name: "only node a impacts current min match", nodes: twoNodes, pods: []string{"p-b1 @node-b foo="},
			preemptor: nodePod(), add: "p-a1 @node-a foo=",
			want: []string{"node-a:1 node-b:1 | paths node-a:1 node-b:1"},
		},
		{
			name: "add a pod in a different namespace doesn't change topologyKeyToMinPodsMap", nodes: twoNodes, pods: []string{"p-b1 @node-b foo="},
			preemptor: nodePod(), add: "p-a1 @node-a foo= ns:ns1",
			want: []string{"node-a:0 node-b:1 | paths node-a:0 node-b:1"},
		},
		{
			name: "add pod on non-critical node won't trigger re-calculation", nodes: twoNodes, pods: []string{"p-b1 @node-b foo="},
			preemptor: nodePod(), add: "p-b2 @node-b foo=",
			want: []string{"node-a:0 node-b:2 | paths node-a:0 node-b:2"},
		},
		{
			name:      "add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled",
			nodes:     []string{"node-a zone=zone1 node=node-a foo=bar", "node-b zone=zone2 node=node-b foo="},
			pods:      []string{"p-a2 @node-a foo=", "p-b1 @node-b foo="},
			preemptor: zonePod().NodeAffinityNotIn("foo", "bar").Spread(1, "zone", dns, fooSelector).Obj(),
			add:       "p-a1 @node-a foo=",
			want:      []string{"zone2:1 | paths zone2:1 -"},
		},
		{
			name:      "add a pod when scheduling taint tolerated pod with NodeInclusionPolicy enabled",
			nodes:     []string{"node-a zone=zone1 node=node-a taint:node.kubernetes.io/unschedulable:NoSchedule", "node-b zone=zone2 node=node-b"},
			pods:      []string{"p-a1 @node-a foo=", "p-b2 @node-b foo="},
			preemptor: zonePod().Toleration("node.kubernetes.io/unschedulable", "").Spread(1, "zone", dns, fooSelector).Obj(),
			add:       "p-b1 @node-b foo=",
			want:      []string{"zone1:1 zone2:2 | paths zone1:1 zone2:2"},
		},
		{
			name:      "a label selector not matching the added pod changes nothing",
			nodes:     twoNodes,
			preemptor: nodePod(), add: "p-a1 @node-a bar=",
			want: []string{"node-a:0 node-b:0 | paths node-a:0 node-b:0"},
		},
		{
			// upstream's updateWithPod does not look at deletionTimestamp.
			name:      "an added terminating pod is counted, as upstream",
			nodes:     twoNodes,
			preemptor: nodePod(), add: "p-a1 @node-a foo= terminating",
			want: []string{"node-a:1 node-b:0 | paths node-b:0 node-a:1"},
		},
		{
			name:      "one spreadConstraint on node, topologyKeyToMinPodsMap changed (remove)",
			nodes:     []string{"node-a zone=zone1 node=node-a", "node-b zone=zone1 node=node-b", "node-x zone=zone2 node=node-x"},
			pods:      []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-x1 @node-x foo=", "p-x2 @node-x foo="},
			preemptor: nodePod(), remove: "p-b1",
			want: []string{"node-a:2 node-b:0 node-x:2 | paths node-b:0 node-a:2"},
		},
		{
			name:      "two spreadConstraints (remove)",
			nodes:     []string{"node-a zone=zone1 node=node-a", "node-b zone=zone1 node=node-b", "node-x zone=zone2 node=node-x", "node-y zone=zone2 node=node-y"},
			pods:      []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-x1 @node-x foo=", "p-y1 @node-y foo=", "p-y2 @node-y foo="},
			preemptor: zonePod().Spread(1, "zone", dns, fooSelector).Spread(1, "node", dns, fooSelector).Obj(),
			remove:    "p-x1",
			want: []string{
				"zone1:3 zone2:2 | paths zone2:2 zone1:3",
				"node-a:2 node-b:1 node-x:0 node-y:2 | paths node-x:0 node-b:1",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			existing := pods(tt.pods...)
			snap := newSnapshot(t, nodes(tt.nodes...), existing)
			pl := mustNew(t, listArgs())
			state := framework.NewCycleState()
			pre := framework.NewPodInfo(tt.preemptor)
			if _, st := pl.PreFilter(state, pre, snap); !st.IsSuccess() {
				t.Fatalf("PreFilter: %v", st.Message())
			}
			orig := state.Read(preFilterStateKey).(*preFilterState)
			clone := orig.Clone().(*preFilterState)
			var before []string
			for i := range tt.want {
				before = append(before, renderState(orig, i))
			}
			if tt.add != "" {
				p := pods(tt.add)[0]
				if st := pl.AddPod(state, pre, framework.NewPodInfo(p), snap.Get(p.Spec.NodeName)); !st.IsSuccess() {
					t.Fatalf("AddPod: %v", st.Message())
				}
			}
			if tt.remove != "" {
				ni := snap.NodeOfPod("default/" + tt.remove)
				var victim *framework.PodInfo
				for _, pi := range ni.Pods {
					if pi.Pod.Name == tt.remove {
						victim = pi
					}
				}
				if st := pl.RemovePod(state, pre, victim, ni); !st.IsSuccess() {
					t.Fatalf("RemovePod: %v", st.Message())
				}
			}
			s := state.Read(preFilterStateKey).(*preFilterState)
			for i, want := range tt.want {
				if got := renderState(s, i); got != want {
					t.Errorf("constraint %d: %q, want %q", i, got, want)
				}
			}
			// a clone taken before is not touched (preemption dry runs)
			for i := range tt.want {
				if got := renderState(clone, i); got != before[i] {
					t.Errorf("constraint %d: clone %q changed from %q", i, got, before[i])
				}
			}
		})
	}
}

// TestCriticalPathsUpdate pins upstream's update: [0] is the minimum, [1]
// is not always the second minimum once counts move.
func TestCriticalPathsUpdate(t *testing.T) {
	p := newCriticalPaths()
	for d, n := range []int{3, 1, 2} {
		p.update(int32(d), n)
	}
	if p[0].domain != 1 || p[0].matchNum != 1 || p[1].domain != 2 || p[1].matchNum != 2 {
		t.Fatalf("after fill: %+v", p)
	}
	p.update(1, 3) // the minimum grows: the paths swap
	if p[0].domain != 2 || p[0].matchNum != 2 || p[1].domain != 1 || p[1].matchNum != 3 {
		t.Fatalf("after growing the minimum: %+v", p)
	}
	p.update(2, 4) // domain 0 (3) is not tracked: [0] becomes 3 via domain 1, as upstream
	if p[0].domain != 1 || p[0].matchNum != 3 || p[1].domain != 2 || p[1].matchNum != 4 {
		t.Fatalf("after growing again: %+v", p)
	}
}
