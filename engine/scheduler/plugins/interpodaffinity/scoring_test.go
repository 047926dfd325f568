package interpodaffinity

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

// Affinities of upstream scoring_test.go TestPreferredAffinity (v1.36).
type affinityFn func(*tu.PodWrapper) *tu.PodWrapper

var (
	stayWithS1InRegion = func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PreferredPodAffinityTerm(false, 5, term("region", in("security", "S1")))
	}
	stayWithS2InRegion = func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PreferredPodAffinityTerm(false, 6, term("region", in("security", "S2")))
	}
	affinity3 = func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PreferredPodAffinityTerm(false, 8, term("region", exprs(
			api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpNotIn, Values: []string{"S1"}},
			api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpIn, Values: []string{"S2"}},
		))).PreferredPodAffinityTerm(false, 2, term("region", exprs(
			api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpExists},
			api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist},
		)))
	}
	hardAffinity = func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PodAffinityTerm(false, term("region", in("security", "S1", "value2"))).
			PodAffinityTerm(false, term("region", exprs(
				api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpExists},
				api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist},
			)))
	}
	awayFromS1InAz = func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PreferredPodAffinityTerm(true, 5, term("az", in("security", "S1")))
	}
	awayFromS2InAz = func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PreferredPodAffinityTerm(true, 5, term("az", in("security", "S2")))
	}
	stayWithS1InRegionAwayFromS2InAz = func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PreferredPodAffinityTerm(false, 8, term("region", in("security", "S1"))).
			PreferredPodAffinityTerm(true, 5, term("az", in("security", "S2")))
	}
	affinityNamespaceSelector = func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PreferredPodAffinityTerm(false, 5, nsTerm("region", in("security", "S1"), in("team", "team1"), "subteam2.team2"))
	}
	antiAffinityNamespaceSelector = func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PreferredPodAffinityTerm(true, 5, nsTerm("region", in("security", "S1"), in("team", "team1"), "subteam2.team2"))
	}
)

var (
	china    = map[string]string{"region": "China"}
	india    = map[string]string{"region": "India"}
	az1      = map[string]string{"az": "az1"}
	az2      = map[string]string{"az": "az2"}
	chinaAz1 = map[string]string{"region": "China", "az": "az1"}
	s1       = map[string]string{"security": "S1"}
	s2       = map[string]string{"security": "S2"}
)

// placed is an existing pod: node, labels, affinity.
type placed struct {
	node   string
	labels map[string]string
	aff    affinityFn
	ns     string
}

type scoreCase struct {
	name     string
	pod      *api.Pod
	pods     []placed
	nodes    []*api.Node
	wantSkip bool
	want     []int64 // normalised, per node
}

func runScoreCases(t *testing.T, cases []scoreCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var pods []*api.Pod
			for i, p := range tc.pods {
				w := pod().Name(fmt.Sprintf("e%d", i)).Labels(p.labels).Node(p.node)
				if p.ns != "" {
					w = w.Namespace(p.ns)
				}
				if p.aff != nil {
					w = p.aff(w)
				}
				pods = append(pods, w.Obj())
			}
			snap := snapshot(tc.nodes, pods)
			pl := New()
			state := framework.NewCycleState()
			pi := framework.NewPodInfo(tc.pod)
			st := pl.PreScore(state, pi, snap, snap.Nodes())
			if tc.wantSkip {
				if !st.IsSkip() {
					t.Fatalf("PreScore = %v, want Skip", st)
				}
				return
			}
			if !st.IsSuccess() {
				t.Fatalf("PreScore = %+v", st)
			}
			var scores []framework.NodeScore
			for _, n := range tc.nodes {
				ni := snap.Get(n.Name)
				s, st := pl.Score(state, pi, ni)
				if !st.IsSuccess() {
					t.Fatalf("Score(%s) = %v", n.Name, st)
				}
				scores = append(scores, framework.NodeScore{Name: n.Name, Index: ni.Index, Score: s})
			}
			if st := pl.NormalizeScore(state, pi, scores); !st.IsSuccess() {
				t.Fatalf("NormalizeScore = %v", st)
			}
			for i, s := range scores {
				if s.Score != tc.want[i] {
					t.Errorf("%s: score %d, want %d", s.Name, s.Score, tc.want[i])
				}
			}
		})
	}
}

const maxScore = framework.MaxNodeScore

// Cases from upstream scoring_test.go TestPreferredAffinity (v1.36);
// upstream pods without a namespace are in "" — here in "default".
func TestPreferredAffinity(t *testing.T) {
	cases := []scoreCase{
		{
			name:     "no affinity anywhere: Skip",
			pod:      pod().Labels(s1).Obj(),
			nodes:    []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			wantSkip: true,
		},
		{
			name:  "affinity: matching pod in the node's region scores high",
			pod:   stayWithS1InRegion(pod().Labels(s1)).Obj(),
			pods:  []placed{{"node1", s1, nil, ""}, {"node2", s2, nil, ""}, {"node3", s1, nil, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  []int64{maxScore, 0, 0},
		},
		{
			name:  "affinity: every node of the region gets the same score",
			pod:   stayWithS1InRegion(pod()).Obj(),
			pods:  []placed{{"node1", s1, nil, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", chinaAz1), node("node3", india)},
			want:  []int64{maxScore, maxScore, 0},
		},
		{
			name: "affinity: the region with more matches wins",
			pod:  stayWithS2InRegion(pod().Labels(s1)).Obj(),
			pods: []placed{{"node1", s2, nil, ""}, {"node1", s2, nil, ""}, {"node2", s2, nil, ""},
				{"node3", s2, nil, ""}, {"node4", s2, nil, ""}, {"node5", s2, nil, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", china), node("node4", china), node("node5", india)},
			want:  []int64{maxScore, 0, maxScore, maxScore, 0},
		},
		{
			name:  "affinity: operators, weights and failed matches",
			pod:   affinity3(pod().Labels(s1)).Obj(),
			pods:  []placed{{"node1", s1, nil, ""}, {"node2", s2, nil, ""}, {"node3", s1, nil, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  []int64{20, maxScore, 0},
		},
		{
			name:  "symmetry: existing pods' preferred affinity",
			pod:   pod().Labels(s2).Obj(),
			pods:  []placed{{"node1", s1, stayWithS1InRegion, ""}, {"node2", s2, stayWithS2InRegion, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  []int64{0, maxScore, 0},
		},
		{
			name:  "symmetry with namespace selector",
			pod:   pod().Namespace("subteam1.team1").Labels(s1).Obj(),
			pods:  []placed{{"node1", s1, affinityNamespaceSelector, ""}, {"node2", s2, stayWithS2InRegion, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  []int64{maxScore, 0, 0},
		},
		{
			name:  "anti-affinity symmetry with namespace selector",
			pod:   pod().Namespace("subteam1.team1").Labels(s1).Obj(),
			pods:  []placed{{"node1", s1, antiAffinityNamespaceSelector, ""}, {"node2", s2, stayWithS2InRegion, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  []int64{0, maxScore, maxScore},
		},
		{
			name:  "symmetry: existing pods' required affinity counts with weight 1",
			pod:   pod().Labels(s1).Obj(),
			pods:  []placed{{"node1", s1, hardAffinity, ""}, {"node2", s2, hardAffinity, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  []int64{maxScore, maxScore, 0},
		},
		{
			name:  "anti-affinity: node without matching pods scores high",
			pod:   awayFromS1InAz(pod().Labels(s1)).Obj(),
			pods:  []placed{{"node1", s1, nil, ""}, {"node2", s2, nil, ""}},
			nodes: []*api.Node{node("node1", az1), node("node2", china)},
			want:  []int64{0, maxScore},
		},
		{
			name:  "anti-affinity: node without the key scores high",
			pod:   awayFromS1InAz(pod().Labels(s1)).Obj(),
			pods:  []placed{{"node1", s1, nil, ""}, {"node2", s1, nil, ""}},
			nodes: []*api.Node{node("node1", az1), node("node2", china)},
			want:  []int64{0, maxScore},
		},
		{
			name:  "anti-affinity: more matching pods scores lower",
			pod:   awayFromS1InAz(pod().Labels(s1)).Obj(),
			pods:  []placed{{"node1", s1, nil, ""}, {"node1", s1, nil, ""}, {"node2", s2, nil, ""}},
			nodes: []*api.Node{node("node1", az1), node("node2", india)},
			want:  []int64{0, maxScore},
		},
		{
			name:  "anti-affinity symmetry",
			pod:   pod().Labels(s2).Obj(),
			pods:  []placed{{"node1", s1, awayFromS2InAz, ""}, {"node2", s2, awayFromS1InAz, ""}},
			nodes: []*api.Node{node("node1", az1), node("node2", az2)},
			want:  []int64{0, maxScore},
		},
		{
			name:  "affinity and anti-affinity",
			pod:   stayWithS1InRegionAwayFromS2InAz(pod().Labels(s1)).Obj(),
			pods:  []placed{{"node1", s1, nil, ""}, {"node2", s1, nil, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", az1)},
			want:  []int64{maxScore, 0},
		},
		{
			name: "affinity and anti-affinity, pods share labels",
			pod:  stayWithS1InRegionAwayFromS2InAz(pod().Labels(s1)).Obj(),
			pods: []placed{{"node1", s1, nil, ""}, {"node1", s1, nil, ""}, {"node2", s1, nil, ""},
				{"node3", s1, nil, ""}, {"node3", s1, nil, ""}, {"node4", s1, nil, ""}, {"node5", s1, nil, ""}},
			nodes: []*api.Node{node("node1", chinaAz1), node("node2", india), node("node3", china), node("node4", china), node("node5", india)},
			want:  []int64{maxScore, 0, maxScore, maxScore, 0},
		},
		{
			name: "affinity, anti-affinity and symmetry",
			pod:  stayWithS1InRegionAwayFromS2InAz(pod().Labels(s1)).Obj(),
			pods: []placed{{"node1", s1, nil, ""}, {"node2", s2, nil, ""},
				{"node3", nil, stayWithS1InRegionAwayFromS2InAz, ""}, {"node4", nil, awayFromS1InAz, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", az1), node("node3", india), node("node4", az2)},
			want:  []int64{maxScore, 0, maxScore, 0},
		},
		{
			name:  "partial nodes of a topology without pods with affinity (issue 82796)",
			pod:   pod().Labels(s1).Obj(),
			pods:  []placed{{"node1", s1, nil, ""}, {"node2", nil, stayWithS1InRegionAwayFromS2InAz, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", china)},
			want:  []int64{0, 0},
		},
		{
			name: "affinity with pods matching the namespaceSelector",
			pod:  affinityNamespaceSelector(pod().Namespace("subteam1.team1").Labels(s1)).Obj(),
			pods: []placed{{"node1", s1, nil, "subteam1.team1"}, {"node1", s1, nil, "subteam1.team1"},
				{"node1", s1, nil, "subteam1.team2"}, {"node2", s1, nil, "subteam2.team1"}},
			nodes: []*api.Node{node("node1", china), node("node2", india)},
			want:  []int64{maxScore, 0},
		},
		{
			name: "affinity with pods matching namespaceSelector and namespaces",
			pod:  affinityNamespaceSelector(pod().Namespace("subteam1.team1").Labels(s1)).Obj(),
			pods: []placed{{"node1", s1, nil, "subteam1.team1"}, {"node1", s1, nil, "subteam1.team1"},
				{"node1", s1, nil, "subteam2.team2"}, {"node2", s1, nil, "subteam2.team1"}},
			nodes: []*api.Node{node("node1", china), node("node2", india)},
			want:  []int64{maxScore, 0},
		},
		{
			name: "anti-affinity with pods matching the namespaceSelector",
			pod:  antiAffinityNamespaceSelector(pod().Namespace("subteam1.team1").Labels(s1)).Obj(),
			pods: []placed{{"node1", s1, nil, "subteam1.team1"}, {"node1", s1, nil, "subteam1.team1"},
				{"node1", s1, nil, "subteam1.team2"}, {"node2", s1, nil, "subteam2.team1"}},
			nodes: []*api.Node{node("node1", china), node("node2", india)},
			want:  []int64{0, maxScore},
		},
		{
			name: "anti-affinity with pods matching namespaceSelector and namespaces",
			pod:  antiAffinityNamespaceSelector(pod().Namespace("subteam1.team1").Labels(s1)).Obj(),
			pods: []placed{{"node1", s1, nil, "subteam1.team1"}, {"node1", s1, nil, "subteam1.team1"},
				{"node1", s1, nil, "subteam2.team2"}, {"node2", s1, nil, "subteam2.team1"}},
			nodes: []*api.Node{node("node1", china), node("node2", india)},
			want:  []int64{0, maxScore},
		},
		{
			name:  "preferred terms of existing pods are not ignored",
			pod:   pod().Labels(s2).Obj(),
			pods:  []placed{{"node1", s1, stayWithS1InRegionAwayFromS2InAz, ""}, {"node2", s2, stayWithS2InRegion, ""}},
			nodes: []*api.Node{node("node1", china), node("node2", india)},
			want:  []int64{0, maxScore},
		},
	}
	runScoreCases(t, cases)
}

// Cases from upstream scoring_test.go TestPreferredAffinityWithHardPodAffinitySymmetricWeight
// with the default weight 1.
func TestHardPodAffinitySymmetricWeight(t *testing.T) {
	nsSelHard := func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PodAffinityTerm(false, nsTerm("region", in("security", "S1", "value2"), in("team", "team1")))
	}
	nsListHard := func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PodAffinityTerm(false, nsTerm("region", in("security", "S1", "value2"), nil, "subteam1.team1"))
	}
	nodes := func() []*api.Node {
		return []*api.Node{node("node1", china), node("node2", india), node("node3", az1)}
	}
	cases := []scoreCase{
		{
			name:  "with default weight",
			pod:   pod().Labels(s1).Obj(),
			pods:  []placed{{"node1", s1, hardAffinity, ""}, {"node2", s2, hardAffinity, ""}},
			nodes: nodes(), want: []int64{maxScore, maxScore, 0},
		},
		{
			name:     "no matching namespace: Skip",
			pod:      pod().Namespace("subteam1.team2").Labels(s1).Obj(),
			pods:     []placed{{"node1", s1, nsListHard, ""}, {"node2", s2, nsListHard, ""}},
			nodes:    nodes(),
			wantSkip: true,
		},
		{
			name:  "matching namespaceSelector",
			pod:   pod().Namespace("subteam1.team1").Labels(s1).Obj(),
			pods:  []placed{{"node1", s1, nsSelHard, ""}, {"node2", s2, nsSelHard, ""}},
			nodes: nodes(), want: []int64{maxScore, maxScore, 0},
		},
		{
			name:  "matching namespaces",
			pod:   pod().Namespace("subteam1.team1").Labels(s1).Obj(),
			pods:  []placed{{"node1", s1, nsListHard, ""}, {"node2", s2, nsListHard, ""}},
			nodes: nodes(), want: []int64{maxScore, maxScore, 0},
		},
	}
	runScoreCases(t, cases)
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		in, want []int64
	}{
		{[]int64{-5, 0, 5}, []int64{0, 50, 100}},
		{[]int64{3, 3}, []int64{0, 0}},
		{[]int64{0, 1, 2}, []int64{0, 50, 100}},
		{[]int64{0, 1, 3}, []int64{0, 33, 100}}, // truncation, as int64(float)
		{[]int64{-8, 0}, []int64{0, 100}},
	} {
		scores := make([]framework.NodeScore, len(tc.in))
		for i, s := range tc.in {
			scores[i].Score = s
		}
		normalize(scores)
		for i := range scores {
			if scores[i].Score != tc.want[i] {
				t.Errorf("normalize(%v)[%d] = %d, want %d", tc.in, i, scores[i].Score, tc.want[i])
			}
		}
	}
}
