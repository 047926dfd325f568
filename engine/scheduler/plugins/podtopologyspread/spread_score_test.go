package podtopologyspread

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// TestScoreUpstream ports upstream's TestPodTopologySpreadScore
// (scoring_test.go): same names, same normalised scores. feasible lists
// the nodes that passed filtering (upstream's nodes; the rest are its
// failedNodes).
func TestScoreUpstream(t *testing.T) {
	taint := " taint:node.kubernetes.io/unschedulable:NoSchedule"
	h := api.LabelHostname
	hostNodes := func(names ...string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n + " " + h + "=" + n
		}
		return out
	}
	spread2130 := []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-d1 @node-d foo=", "p-d2 @node-d foo=", "p-d3 @node-d foo="}
	spread4321 := []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-a3 @node-a foo=", "p-a4 @node-a foo=", "p-b1 @node-b foo=", "p-b2 @node-b foo=", "p-b3 @node-b foo=", "p-c1 @node-c foo=", "p-c2 @node-c foo=", "p-d1 @node-d foo="}
	spread4213 := []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-a3 @node-a foo=", "p-a4 @node-a foo=", "p-b1 @node-b foo=", "p-b2 @node-b foo=", "p-x1 @node-x foo=", "p-y1 @node-y foo=", "p-y2 @node-y foo=", "p-y3 @node-y foo="}
	zoneHost := []string{"node-a zone=zone1 " + h + "=node-a", "node-b zone=zone1 " + h + "=node-b", "node-x zone=zone2 " + h + "=node-x", "node-y zone=zone2 " + h + "=node-y"}
	policyNodes := []string{"node-a node=node-a foo=", "node-b node=node-b foo=", "node-c node=node-c"}
	policyPods := []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-c1 @node-c foo="}
	tests := []struct {
		name     string
		nodes    []string
		pods     []string
		feasible []string
		pod      *api.Pod
		args     Args
		want     map[string]int64
	}{
		{
			name:  "one constraint on node, no existing pods",
			nodes: hostNodes("node-a", "node-b"),
			pod:   makePod("p").Label("foo", "").Spread(1, h, anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 100, "node-b": 100},
		},
		{
			name:     "one constraint on node, only one node is candidate",
			nodes:    hostNodes("node-a", "node-b"),
			pods:     []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo="},
			feasible: []string{"node-a"},
			pod:      makePod("p").Label("foo", "").Spread(1, h, anyway, fooSelector).Obj(),
			want:     map[string]int64{"node-a": 100},
		},
		{
			name:  "one constraint on node, all nodes have the same number of matching pods",
			nodes: hostNodes("node-a", "node-b"),
			pods:  []string{"p-a1 @node-a foo=", "p-b1 @node-b foo="},
			pod:   makePod("p").Label("foo", "").Spread(1, h, anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 100, "node-b": 100},
		},
		{
			name:  "one constraint on node, all 4 nodes are candidates",
			nodes: hostNodes("node-a", "node-b", "node-c", "node-d"),
			pods:  spread2130,
			pod:   makePod("p").Label("foo", "").Spread(1, h, anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 20, "node-b": 60, "node-c": 100, "node-d": 0},
		},
		{
			name:  "one constraint on node, null selector",
			nodes: hostNodes("node-a", "node-b", "node-c", "node-d"),
			pods:  spread2130,
			pod:   makePod("p").Label("foo", "").Spread(1, h, anyway, nil).Obj(),
			want:  map[string]int64{"node-a": 100, "node-b": 100, "node-c": 100, "node-d": 100},
		},
		{
			name:  "one constraint on node, all 4 nodes are candidates, maxSkew=2",
			nodes: hostNodes("node-a", "node-b", "node-c", "node-d"),
			pods:  spread2130,
			pod:   makePod("p").Label("foo", "").Spread(2, h, anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 33, "node-b": 66, "node-c": 100, "node-d": 16},
		},
		{
			name:  "one constraint on node, all 4 nodes are candidates, maxSkew=3",
			nodes: hostNodes("node-a", "node-b", "node-c", "node-d"),
			pods:  spread4321,
			pod:   makePod("p").Label("foo", "").Spread(3, h, anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 44, "node-b": 66, "node-c": 77, "node-d": 100},
		},
		{
			// upstream selects the pods with a Service (foo=""); the lab's
			// Selectors hook plays that part.
			name:  "system defaulting, nodes don't have zone, pods match service",
			nodes: hostNodes("node-a", "node-b", "node-c", "node-d"),
			pods:  spread4321,
			pod:   makePod("p").Label("foo", "").Obj(),
			args:  Args{Selectors: func(*api.Pod) api.Selector { return api.SelectorFromSet(map[string]string{"foo": ""}) }},
			want:  map[string]int64{"node-a": 44, "node-b": 66, "node-c": 77, "node-d": 100},
		},
		{
			name:     "one constraint on node, 3 out of 4 nodes are candidates",
			nodes:    hostNodes("node-a", "node-b", "node-x", "node-y"),
			pods:     spread4213,
			feasible: []string{"node-a", "node-b", "node-x"},
			pod:      makePod("p").Label("foo", "").Spread(1, h, anyway, fooSelector).Obj(),
			want:     map[string]int64{"node-a": 33, "node-b": 83, "node-x": 100},
		},
		{
			name:     "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
			nodes:    []string{"node-a " + h + "=node-a", "node-b n=node-b", "node-x " + h + "=node-x", "node-y " + h + "=node-y"},
			pods:     spread4213,
			feasible: []string{"node-a", "node-b", "node-x"},
			pod:      makePod("p").Label("foo", "").Spread(1, h, anyway, fooSelector).Obj(),
			want:     map[string]int64{"node-a": 16, "node-b": 0, "node-x": 100},
		},
		{
			name:     "one constraint on zone, 3 out of 4 nodes are candidates",
			nodes:    zoneHost,
			pods:     spread4213,
			feasible: []string{"node-a", "node-b", "node-x"},
			pod:      makePod("p").Label("foo", "").Spread(1, "zone", anyway, fooSelector).Obj(),
			want:     map[string]int64{"node-a": 75, "node-b": 75, "node-x": 100},
		},
		{
			name:     "two Constraints on zone and node, 2 out of 4 nodes are candidates",
			nodes:    zoneHost,
			pods:     []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-x1 @node-x foo=", "p-x2 @node-x foo=", "p-y1 @node-y foo=", "p-y2 @node-y foo=", "p-y3 @node-y foo=", "p-y4 @node-y foo="},
			feasible: []string{"node-a", "node-x"},
			pod:      makePod("p").Label("foo", "").Spread(1, "zone", anyway, fooSelector).Spread(1, h, anyway, fooSelector).Obj(),
			want:     map[string]int64{"node-a": 100, "node-x": 63},
		},
		{
			name:     "two Constraints on zone, 2 out of 4 nodes are candidates",
			nodes:    []string{"node-a zone=zone1", "node-b zone=zone1", "node-x zone=zone2", "node-y zone=zone2"},
			pods:     []string{"p-a1 @node-a foo= bar=", "p-a2 @node-a foo=", "p-b1 @node-b foo= bar=", "p-y1 @node-y foo=", "p-y2 @node-y foo= bar=", "p-y3 @node-y foo="},
			feasible: []string{"node-a", "node-x"},
			pod:      makePod("p").Label("foo", "").Label("bar", "").Spread(1, "zone", anyway, fooSelector).Spread(1, "zone", anyway, barSelector).Obj(),
			want:     map[string]int64{"node-a": 85, "node-x": 100},
		},
		{
			name:  "two Constraints on zone and node, with different labelSelectors",
			nodes: zoneHost,
			pods:  []string{"p-a1 @node-a foo=", "p-b1 @node-b foo= bar=", "p-y1 @node-y foo=", "p-y2 @node-y bar="},
			pod:   makePod("p").Label("foo", "").Label("bar", "").Spread(1, "zone", anyway, fooSelector).Spread(1, h, anyway, barSelector).Obj(),
			want:  map[string]int64{"node-a": 60, "node-b": 20, "node-x": 100, "node-y": 60},
		},
		{
			name:  "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
			nodes: zoneHost,
			pods:  []string{"p-b1 @node-b bar=", "p-x1 @node-x foo=", "p-y1 @node-y foo= bar="},
			pod:   makePod("p").Label("foo", "").Label("bar", "").Spread(1, "zone", anyway, fooSelector).Spread(1, h, anyway, barSelector).Obj(),
			want:  map[string]int64{"node-a": 100, "node-b": 60, "node-x": 40, "node-y": 0},
		},
		{
			name:     "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates",
			nodes:    zoneHost,
			pods:     []string{"p-a1 @node-a foo=", "p-b1 @node-b foo= bar=", "p-y1 @node-y foo=", "p-y2 @node-y bar="},
			feasible: []string{"node-a", "node-b", "node-x"},
			pod:      makePod("p").Label("foo", "").Label("bar", "").Spread(1, "zone", anyway, fooSelector).Spread(1, h, anyway, barSelector).Obj(),
			want:     map[string]int64{"node-a": 50, "node-b": 25, "node-x": 100},
		},
		{
			name:  "existing pods in a different namespace do not count",
			nodes: hostNodes("node-a", "node-b"),
			pods:  []string{"p-a1 @node-a foo= ns:ns1", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-b2 @node-b foo="},
			pod:   makePod("p").Label("foo", "").Spread(1, h, anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 100, "node-b": 33},
		},
		{
			name:  "terminating Pods should be excluded",
			nodes: hostNodes("node-a", "node-b"),
			pods:  []string{"p-a @node-a foo= terminating", "p-b @node-b foo="},
			pod:   makePod("p").Label("foo", "").Spread(1, h, anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 100, "node-b": 0},
		},
		{
			name:  "minDomains has no effect when ScheduleAnyway",
			nodes: []string{"node-a node=node-a", "node-b node=node-b", "node-c node=node-c"},
			pods:  []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-b2 @node-b foo=", "p-c1 @node-c foo="},
			pod: makePod("p").Label("foo", "").Constraint(api.TopologySpreadConstraint{MaxSkew: 2, TopologyKey: "node",
				WhenUnsatisfiable: anyway, LabelSelector: fooSelector, MinDomains: ptr[int32](10)}).Obj(),
			want: map[string]int64{"node-a": 75, "node-b": 75, "node-c": 100},
		},
		{
			name:  "NodeAffinityPolicy honoed with labelSelectors",
			nodes: policyNodes,
			pods:  policyPods,
			pod:   makePod("p").Label("foo", "").NodeSelector(map[string]string{"foo": ""}).Spread(1, "node", anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 0, "node-b": 33, "node-c": 100},
		},
		{
			name:  "NodeAffinityPolicy ignored with labelSelectors",
			nodes: policyNodes,
			pods:  policyPods,
			pod: makePod("p").Label("foo", "").NodeSelector(map[string]string{"foo": ""}).Constraint(api.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: "node", WhenUnsatisfiable: anyway, LabelSelector: fooSelector, NodeAffinityPolicy: ignore}).Obj(),
			want: map[string]int64{"node-a": 66, "node-b": 100, "node-c": 100},
		},
		{
			name:  "NodeAffinityPolicy honoed with nodeAffinity",
			nodes: policyNodes,
			pods:  policyPods,
			pod:   makePod("p").Label("foo", "").NodeAffinityIn("foo", "").Spread(1, "node", anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 0, "node-b": 33, "node-c": 100},
		},
		{
			name:  "NodeTaintsPolicy honored",
			nodes: []string{"node-a node=node-a", "node-b node=node-b", "node-c node=node-c" + taint},
			pods:  policyPods,
			pod: makePod("p").Label("foo", "").Constraint(api.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: "node", WhenUnsatisfiable: anyway, LabelSelector: fooSelector, NodeTaintsPolicy: honor}).Obj(),
			want: map[string]int64{"node-a": 0, "node-b": 33, "node-c": 100},
		},
		{
			name:  "NodeTaintsPolicy ignored",
			nodes: []string{"node-a node=node-a", "node-b node=node-b", "node-c node=node-c" + taint},
			pods:  policyPods,
			pod:   makePod("p").Label("foo", "").Spread(1, "node", anyway, fooSelector).Obj(),
			want:  map[string]int64{"node-a": 66, "node-b": 100, "node-c": 100},
		},
		{
			name:  "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
			nodes: []string{"node-a zone=zone1 " + h + "=node-a", "node-b zone=zone1 " + h + "=node-b", "node-c zone=zone2 " + h + "=node-c", "node-d zone=zone2 " + h + "=node-d"},
			pods:  []string{"p-a1 @node-a foo=", "p-b1 @node-b foo= bar=", "p-y1 @node-c foo=", "p-y2 @node-c bar="},
			pod: makePod("p").Label("foo", "").Label("bar", "").
				Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: anyway, LabelSelector: &api.LabelSelector{}, MatchLabelKeys: []string{"foo"}}).
				Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: h, WhenUnsatisfiable: anyway, LabelSelector: &api.LabelSelector{}, MatchLabelKeys: []string{"bar"}}).Obj(),
			want: map[string]int64{"node-a": 60, "node-b": 20, "node-c": 60, "node-d": 100},
		},
		{
			name:  "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
			nodes: []string{"node-a zone=zone1 " + h + "=node-a", "node-b zone=zone1 " + h + "=node-b", "node-c zone=zone2 " + h + "=node-c", "node-d zone=zone2 " + h + "=node-d"},
			pods:  []string{"p-a1 @node-a foo=", "p-b1 @node-b foo= bar= baz=", "p-c1 @node-c foo=", "p-c2 @node-c bar=", "p-d3 @node-c bar= baz="},
			pod: makePod("p").Label("foo", "").Label("bar", "").Label("baz", "").
				Spread(1, "zone", anyway, fooSelector).
				Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: h, WhenUnsatisfiable: anyway, LabelSelector: barSelector, MatchLabelKeys: []string{"baz"}}).Obj(),
			want: map[string]int64{"node-a": 60, "node-b": 20, "node-c": 60, "node-d": 100},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if args.Selectors == nil {
				args = listArgs()
			}
			snap := newSnapshot(t, nodes(tt.nodes...), pods(tt.pods...))
			got := normalizedScores(t, mustNew(t, args), snap, tt.pod, tt.feasible)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("scores = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestScoreDocsExamples scores the docs' four-node cluster (zoneA 2 pods,
// zoneB 1) with ScheduleAnyway, by hand: weight log(2+2) = 1.386; zoneA
// round(2×1.386) = 3, zoneB round(1.386) = 1; normalised
// 100×(3+1−s)/3 → zoneA 33, zoneB 100. Cross-checked with the oracle.
func TestScoreDocsExamples(t *testing.T) {
	fooBar := matchLabels("foo", "bar")
	tests := []struct {
		name string
		pod  *api.Pod
		want map[string]int64
	}{
		{
			name: "zone ScheduleAnyway prefers the emptier zone",
			pod:  docsPod().Spread(1, "zone", anyway, fooBar).Obj(),
			want: map[string]int64{"node1": 33, "node2": 33, "node3": 100, "node4": 100},
		},
		{
			// hostname-like key "node" is not kubernetes.io/hostname, so it
			// counts per domain: 4 domains, weight log 6 = 1.79; counts
			// 1/1/1/0 → raw 2/2/2/0 → 100×(2+0−s)/2.
			name: "node ScheduleAnyway prefers the empty node",
			pod:  docsPod().Spread(1, "node", anyway, fooBar).Obj(),
			want: map[string]int64{"node1": 0, "node2": 0, "node3": 0, "node4": 100},
		},
		{
			name: "only DoNotSchedule constraints: PreScore skips, every node 0",
			pod:  docsPod().Spread(1, "zone", dns, fooBar).Obj(),
			want: map[string]int64{"node1": 0, "node2": 0, "node3": 0, "node4": 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := newSnapshot(t, nodes(docsNodes...), pods(docsPods...))
			got := normalizedScores(t, mustNew(t, Args{}), snap, tt.pod, nil)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("scores = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name    string
		scores  []int64
		ignored []int // positions of ignored nodes
		want    []int64
	}{
		{name: "all zero: every node gets MaxNodeScore", scores: []int64{0, 0, 0}, want: []int64{100, 100, 100}},
		{name: "all equal and non-zero: every node gets MaxNodeScore", scores: []int64{4, 4}, want: []int64{100, 100}},
		{name: "fewer matches score higher: 100×(max+min−s)/max", scores: []int64{3, 1, 2}, want: []int64{33, 100, 66}},
		{name: "integer division truncates", scores: []int64{7, 0}, want: []int64{0, 100}},
		{name: "ignored nodes score 0 and do not set min or max", scores: []int64{0, 5, 2}, ignored: []int{0}, want: []int64{0, 40, 100}},
		{name: "all ignored: all 0", scores: []int64{1, 2}, ignored: []int{0, 1}, want: []int64{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := make([]framework.NodeScore, len(tt.scores))
			var ignored map[string]struct{}
			for i, s := range tt.scores {
				ns[i] = framework.NodeScore{Name: string(rune('a' + i)), Score: s}
			}
			for _, i := range tt.ignored {
				if ignored == nil {
					ignored = map[string]struct{}{}
				}
				ignored[ns[i].Name] = struct{}{}
			}
			normalize(ns, ignored)
			for i := range ns {
				if ns[i].Score != tt.want[i] {
					t.Errorf("node %s: %d, want %d", ns[i].Name, ns[i].Score, tt.want[i])
				}
			}
		})
	}
}

// TestSystemDefaults pins the built-in defaults (hostname maxSkew 3, zone
// maxSkew 5, ScheduleAnyway) for a ReplicaSet-owned pod, as upstream's
// "system default constraints and a replicaset" PreScore case: nodes
// without a zone are not ignored but form a "" zone, so the zone weight is
// log(2 + 2) and the hostname weight log(4 + 2).
func TestSystemDefaults(t *testing.T) {
	h := api.LabelHostname
	z := api.LabelTopologyZone
	ns := nodes("node-a "+h+"=node-a "+z+"=mars", "node-b "+h+"=node-b "+z+"=mars", "node-c "+h+"=node-c", "node-d "+h+"=node-d")
	rsSelector := api.MustCompileSelector(fooSelector)
	owned := func(p *api.Pod) api.Selector {
		if ref := p.ControllerRef(); ref != nil && ref.Kind == "ReplicaSet" && ref.Name == "rs1" {
			return rsSelector
		}
		return api.Nothing()
	}
	pod := makePod("p").Label("foo", "tar").Label("baz", "sup").OwnedBy("ReplicaSet", "rs1").Obj()

	t.Run("PreScore state as upstream", func(t *testing.T) {
		snap := newSnapshot(t, ns, nil)
		pl := mustNew(t, Args{Selectors: owned})
		state := framework.NewCycleState()
		if st := pl.PreScore(state, framework.NewPodInfo(pod), snap, snap.Nodes()); !st.IsSuccess() {
			t.Fatalf("PreScore: %v", st.Message())
		}
		s := state.Read(preScoreStateKey).(*preScoreState)
		if len(s.constraints) != 2 || s.constraints[0].TopologyKey != h || s.constraints[0].MaxSkew != 3 ||
			s.constraints[1].TopologyKey != z || s.constraints[1].MaxSkew != 5 {
			t.Fatalf("constraints = %+v", s.constraints)
		}
		if s.constraints[0].Selector.String() != "foo" {
			t.Errorf("selector = %q, want the ReplicaSet's", s.constraints[0].Selector.String())
		}
		if s.ignored != nil {
			t.Errorf("ignored = %v, want none", s.ignored)
		}
		want := []float64{topologyNormalizingWeight(4), topologyNormalizingWeight(2)}
		if !reflect.DeepEqual(s.weights, want) {
			t.Errorf("weights = %v, want %v", s.weights, want)
		}
	})
	t.Run("defaults are soft: PreFilter skips", func(t *testing.T) {
		snap := newSnapshot(t, ns, nil)
		_, st := mustNew(t, Args{Selectors: owned}).PreFilter(framework.NewCycleState(), framework.NewPodInfo(pod), snap)
		if !st.IsSkip() {
			t.Errorf("PreFilter = %v, want Skip", st)
		}
	})
	t.Run("pod not selected by any workload gets no defaults", func(t *testing.T) {
		snap := newSnapshot(t, ns, nil)
		other := makePod("q").Label("foo", "").OwnedBy("ReplicaSet", "rs2").Obj()
		for _, args := range []Args{{Selectors: owned}, {}} {
			if st := mustNew(t, args).PreScore(framework.NewCycleState(), framework.NewPodInfo(other), snap, snap.Nodes()); !st.IsSkip() {
				t.Errorf("PreScore = %v, want Skip", st)
			}
		}
	})
	t.Run("pod with its own constraints ignores the defaults", func(t *testing.T) {
		snap := newSnapshot(t, ns, nil)
		own := makePod("q").Label("foo", "").OwnedBy("ReplicaSet", "rs1").Spread(1, "rack", dns, fooSelector).Obj()
		if st := mustNew(t, Args{Selectors: owned}).PreScore(framework.NewCycleState(), framework.NewPodInfo(own), snap, snap.Nodes()); !st.IsSkip() {
			t.Errorf("PreScore = %v, want Skip (its only constraint is hard)", st)
		}
	})
	t.Run("scores: hostname spreading also on nodes without a zone", func(t *testing.T) {
		// foo pods: node-a 2, node-b 0, node-c 1, node-d 0.
		snap := newSnapshot(t, ns, pods("r1 @node-a foo=x", "r2 @node-a foo=y", "r3 @node-c foo=z", "other @node-b bar="))
		// hostname weight log 6 = 1.792, maxSkew−1 = 2; zone weight log 4 =
		// 1.386, maxSkew−1 = 4 (node-c/node-d have no zone: no zone term).
		// node-a: 2×1.792+2 + 2×1.386+4 = 12.36 → 12
		// node-b: 0+2 + 2×1.386+4 = 8.77 → 9
		// node-c: 1.792+2 = 3.79 → 4
		// node-d: 2
		// normalised 100×(12+2−s)/12: 16, 41, 83, 100.
		got := normalizedScores(t, mustNew(t, Args{Selectors: owned}), snap, pod, nil)
		want := map[string]int64{"node-a": 16, "node-b": 41, "node-c": 83, "node-d": 100}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("scores = %v, want %v", got, want)
		}
	})
	t.Run("nodes without a zone share the \"\" zone with nodes labelled zone=\"\"", func(t *testing.T) {
		// upstream reads node.Labels[zone] as "" for node-b, so its 3 pods
		// count for node-a's explicit "" zone; node-b itself gets no zone
		// term. hostname: ln 5, +2; zone ("" and z1): ln 4, +4.
		// node-a: 2 + 3·1.386+4 = 10.16 → 10; node-b: 3·1.609+2 = 6.83 → 7;
		// node-c: 2 + 4 = 6; normalised 100·(16−s)/10.
		ns := nodes("node-a "+h+"=node-a "+z+"=", "node-b "+h+"=node-b", "node-c "+h+"=node-c "+z+"=z1")
		snap := newSnapshot(t, ns, pods("r1 @node-b foo=1", "r2 @node-b foo=2", "r3 @node-b foo=3"))
		got := normalizedScores(t, mustNew(t, Args{Selectors: owned}), snap, pod, nil)
		want := map[string]int64{"node-a": 60, "node-b": 90, "node-c": 100}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("scores = %v, want %v", got, want)
		}
	})
	t.Run("List with user defaults", func(t *testing.T) {
		snap := newSnapshot(t, ns, pods("r1 @node-a foo=x"))
		pl := mustNew(t, Args{DefaultingType: ListDefaulting, Selectors: owned, DefaultConstraints: []api.TopologySpreadConstraint{
			{MaxSkew: 1, TopologyKey: h, WhenUnsatisfiable: dns},
		}})
		got := filterCodes(t, pl, snap, pod)
		want := codes("node-a", unsch, "node-b", ok, "node-c", ok, "node-d", ok)
		if d := diffCodes(got, want); d != "" {
			t.Errorf("filter verdicts differ:\n%s", d)
		}
	})
}
