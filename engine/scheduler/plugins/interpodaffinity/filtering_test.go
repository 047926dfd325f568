package interpodaffinity

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// verdict is an expected Filter result; the zero value is success.
type verdict struct {
	code   framework.Code
	reason string
}

var (
	ok           = verdict{}
	affinityFail = verdict{framework.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch}
	antiFail     = verdict{framework.Unschedulable, ErrReasonAntiAffinityRulesNotMatch}
	existingFail = verdict{framework.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch}
)

type filterCase struct {
	name     string
	pod      *api.Pod
	pods     []*api.Pod
	nodes    []*api.Node
	wantSkip bool
	want     []verdict // per node, in the order given
}

func runFilterCases(t *testing.T, cases []filterCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			snap := snapshot(tc.nodes, tc.pods)
			pl := New()
			state := framework.NewCycleState()
			pi := framework.NewPodInfo(tc.pod)
			_, st := pl.PreFilter(state, pi, snap)
			if tc.wantSkip {
				if !st.IsSkip() {
					t.Fatalf("PreFilter = %v, want Skip", st)
				}
				return
			}
			if !st.IsSuccess() {
				t.Fatalf("PreFilter = %+v", st)
			}
			for i, n := range tc.nodes {
				got := pl.Filter(state, pi, snap.Get(n.Name))
				w := tc.want[i]
				if w == ok {
					if !got.IsSuccess() {
						t.Errorf("%s: Filter = %v %v, want success", n.Name, got.Code, got.Reasons)
					}
					continue
				}
				if got.CodeOf() != w.code || got.Message() != w.reason {
					t.Errorf("%s: Filter = %v %q, want %v %q", n.Name, got.CodeOf(), got.Message(), w.code, w.reason)
				}
			}
		})
	}
}

// Cases from upstream filtering_test.go TestRequiredAffinitySingleNode
// (v1.36), one node labelled region=r1, zone=z11 and an existing pod
// service=securityscan on it.
func TestRequiredAffinitySingleNode(t *testing.T) {
	node1 := func() []*api.Node {
		return []*api.Node{node("node1", map[string]string{"region": "r1", "zone": "z11"})}
	}
	existing := func() []*api.Pod {
		return []*api.Pod{pod().Label("service", "securityscan").Node("node1").Obj()}
	}
	s2 := map[string]string{"security": "S1"}
	cases := []filterCase{
		{name: "no required affinity: Skip", pod: pod().Obj(), nodes: node1(), wantSkip: true},
		{
			name:  "In operator matches the existing pod",
			pod:   pod().Labels(s2).PodAffinityTerm(false, term("region", in("service", "securityscan", "value2"))).Obj(),
			pods:  existing(),
			nodes: node1(), want: []verdict{ok},
		},
		{
			name:  "NotIn operator matches the existing pod",
			pod:   pod().Labels(s2).PodAffinityTerm(false, term("region", notIn("service", "securityscan3", "value3"))).Obj(),
			pods:  existing(),
			nodes: node1(), want: []verdict{ok},
		},
		{
			name:  "different namespace does not match",
			pod:   pod().Labels(s2).PodAffinityTerm(false, nsTerm("region", in("service", "securityscan", "value2"), nil, "DiffNameSpace")).Obj(),
			pods:  existing(),
			nodes: node1(), want: []verdict{affinityFail},
		},
		{
			name:  "unmatching labelSelector",
			pod:   pod().Labels(s2).PodAffinityTerm(false, term("region", in("service", "antivirusscan", "value2"))).Obj(),
			pods:  existing(),
			nodes: node1(), want: []verdict{affinityFail},
		},
		{
			name: "matchExpressions are ANDed: one item does not match",
			pod: pod().Labels(s2).PodAffinityTerm(false, term("region", exprs(
				api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpExists},
				api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist},
			))).PodAffinityTerm(false, term("region", exprs(
				api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpIn, Values: []string{"securityscan2"}},
				api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpNotIn, Values: []string{"WrongValue"}},
			))).Obj(),
			pods:  existing(),
			nodes: node1(), want: []verdict{affinityFail},
		},
		{
			name: "affinity and anti-affinity both satisfied",
			pod: pod().Labels(s2).PodAffinityTerm(false, term("region", in("service", "securityscan", "value2"))).
				PodAffinityTerm(true, term("node", in("service", "antivirusscan", "value2"))).Obj(),
			pods:  existing(),
			nodes: node1(), want: []verdict{ok},
		},
		{
			name: "affinity satisfied, anti-affinity not",
			pod: pod().Labels(s2).PodAffinityTerm(false, term("region", in("service", "securityscan", "value2"))).
				PodAffinityTerm(true, term("zone", in("service", "securityscan", "value2"))).Obj(),
			pods:  existing(),
			nodes: node1(), want: []verdict{antiFail},
		},
		{
			name: "existing pod's anti-affinity (symmetry) rejects",
			pod: pod().Label("service", "securityscan").PodAffinityTerm(false, term("region", in("service", "securityscan", "value2"))).
				PodAffinityTerm(true, term("node", in("service", "antivirusscan", "value2"))).Obj(),
			pods: []*api.Pod{pod().Label("service", "securityscan").Node("node1").
				PodAffinityTerm(true, term("zone", in("service", "securityscan", "value2"))).Obj()},
			nodes: node1(), want: []verdict{existingFail},
		},
		{
			name: "pod matches its own terms but a matching pod exists elsewhere: no self-match exemption",
			pod:  pod().Label("service", "securityscan").PodAffinityTerm(false, term("region", notIn("service", "securityscan", "value2"))).Obj(),
			// upstream puts this pod on node2, which is absent from the snapshot; here node2 exists in another region.
			pods:  []*api.Pod{pod().Label("service", "securityscan").Node("node2").Obj()},
			nodes: append(node1(), node("node2", map[string]string{"region": "r2"})), want: []verdict{affinityFail, affinityFail},
		},
		{
			name: "existing pod's anti-affinity respected when the pod has none",
			pod:  pod().Label("service", "securityscan").Obj(),
			pods: []*api.Pod{pod().Label("service", "securityscan").Node("node1").
				PodAffinityTerm(true, term("zone", in("service", "securityscan", "value2"))).Obj()},
			nodes: node1(), want: []verdict{existingFail},
		},
		{
			name: "existing pod's anti-affinity not matching: Skip",
			pod:  pod().Label("service", "securityscan").Obj(),
			pods: []*api.Pod{pod().Label("service", "securityscan").Node("node1").
				PodAffinityTerm(true, term("zone", notIn("service", "securityscan", "value2"))).Obj()},
			nodes: node1(), wantSkip: true,
		},
		{
			name: "anti-affinity a1: partial mutual match, incoming pod's term wins the order",
			pod: pod().Label("service", "securityscan").PodAffinityTerm(true, term("zone", exists("service"))).
				PodAffinityTerm(true, term("zone", exists("security"))).Obj(),
			pods:  []*api.Pod{pod().Labels(s2).Node("node1").PodAffinityTerm(true, term("zone", exists("security"))).Obj()},
			nodes: node1(), want: []verdict{antiFail},
		},
		{
			name:  "anti-affinity a2: existing pod's terms match",
			pod:   pod().Labels(s2).PodAffinityTerm(true, term("zone", exists("security"))).Obj(),
			pods:  []*api.Pod{pod().Label("service", "securityscan").Node("node1").PodAffinityTerm(true, term("zone", exists("service"))).PodAffinityTerm(true, term("zone", exists("security"))).Obj()},
			nodes: node1(), want: []verdict{existingFail},
		},
		{
			name:  "affinity with namespaceSelector matching the pod's namespace",
			pod:   pod().Labels(s2).PodAffinityTerm(false, nsTerm("region", in("service", "securityscan", "value2"), in("team", "team1"))).Obj(),
			pods:  []*api.Pod{pod().Namespace("subteam1.team1").Label("service", "securityscan").Node("node1").Obj()},
			nodes: node1(), want: []verdict{ok},
		},
		{
			name:  "affinity with non-matching namespaceSelector",
			pod:   pod().Labels(s2).PodAffinityTerm(false, nsTerm("region", in("service", "securityscan", "value2"), in("team", "team1"))).Obj(),
			pods:  []*api.Pod{pod().Namespace("subteam1.team2").Label("service", "securityscan").Node("node1").Obj()},
			nodes: node1(), want: []verdict{affinityFail},
		},
		{
			name:  "anti-affinity with matching namespaceSelector",
			pod:   pod().Namespace("subteam1.team1").Labels(s2).PodAffinityTerm(true, nsTerm("zone", in("service", "securityscan", "value2"), in("team", "team1"))).Obj(),
			pods:  []*api.Pod{pod().Namespace("subteam2.team1").Label("service", "securityscan").Node("node1").Obj()},
			nodes: node1(), want: []verdict{antiFail},
		},
		{
			name:  "anti-affinity with empty namespaceSelector (all namespaces)",
			pod:   pod().Namespace("subteam1.team1").Labels(s2).PodAffinityTerm(true, nsTerm("zone", in("service", "securityscan", "value2"), &api.LabelSelector{})).Obj(),
			pods:  []*api.Pod{pod().Namespace("subteam2.team1").Label("service", "securityscan").Node("node1").Obj()},
			nodes: node1(), want: []verdict{antiFail},
		},
		{
			name:  "anti-affinity with non-matching namespaceSelector",
			pod:   pod().Namespace("subteam1.team1").Labels(s2).PodAffinityTerm(true, nsTerm("zone", in("service", "securityscan", "value2"), in("team", "team1"))).Obj(),
			pods:  []*api.Pod{pod().Namespace("subteam1.team2").Label("service", "securityscan").Node("node1").Obj()},
			nodes: node1(), want: []verdict{ok},
		},
	}
	runFilterCases(t, cases)
}

// Cases from upstream filtering_test.go TestRequiredAffinityMultipleNodes.
func TestRequiredAffinityMultipleNodes(t *testing.T) {
	china := map[string]string{"region": "China"}
	chinaAz1 := map[string]string{"region": "China", "az": "az1"}
	india := map[string]string{"region": "India"}
	three := func() []*api.Node {
		return []*api.Node{node("nodeA", china), node("nodeB", chinaAz1), node("nodeC", india)}
	}
	r1 := func(zone, host string) map[string]string {
		return map[string]string{"region": "r1", "zone": zone, "hostname": host}
	}
	cases := []filterCase{
		{
			name:  "every node of the matching pod's domain passes",
			pod:   pod().PodAffinityTerm(false, term("region", in("foo", "bar"))).Obj(),
			pods:  []*api.Pod{pod().Name("p1").Node("nodeA").Label("foo", "bar").Obj()},
			nodes: three(), want: []verdict{ok, ok, affinityFail},
		},
		{
			name: "first pod of a self-affine collection may go anywhere with the keys",
			pod: pod().Labels(map[string]string{"foo": "bar", "service": "securityscan"}).
				PodAffinityTerm(false, term("zone", in("foo", "bar"))).PodAffinityTerm(false, term("zone", in("service", "securityscan"))).Obj(),
			pods: []*api.Pod{pod().Name("p1").Node("nodeA").Label("foo", "bar").Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"zone": "az1", "hostname": "h1"}),
				node("nodeB", map[string]string{"zone": "az2", "hostname": "h2"})},
			want: []verdict{ok, ok},
		},
		{
			name:  "self-affine pod once a matching pod exists: only that domain",
			pod:   pod().Label("app", "web").PodAffinityTerm(false, term("zone", in("app", "web"))).Obj(),
			pods:  []*api.Pod{pod().Name("w1").Node("nodeA").Label("app", "web").Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"zone": "az1"}), node("nodeB", map[string]string{"zone": "az2"})},
			want:  []verdict{ok, affinityFail},
		},
		{
			name: "first pod of the collection needs the topology keys",
			pod: pod().Labels(map[string]string{"foo": "bar", "service": "securityscan"}).
				PodAffinityTerm(false, term("zone", in("foo", "bar"))).PodAffinityTerm(false, term("zone", in("service", "securityscan"))).Obj(),
			pods: []*api.Pod{pod().Name("p1").Node("nodeA").Label("foo", "bar").Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"zoneLabel": "az1", "hostname": "h1"}),
				node("nodeB", map[string]string{"zoneLabel": "az2", "hostname": "h2"})},
			want: []verdict{affinityFail, affinityFail},
		},
		{
			name:  "anti-affinity rejects the whole domain",
			pod:   pod().PodAffinityTerm(true, term("region", in("foo", "abc"))).Obj(),
			pods:  []*api.Pod{pod().Node("nodeA").Label("foo", "abc").Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "hostname": "nodeA"}), node("nodeB", map[string]string{"region": "r1", "hostname": "nodeB"})},
			want:  []verdict{antiFail, antiFail},
		},
		{
			name:  "anti-affinity: other domain passes",
			pod:   pod().PodAffinityTerm(true, term("region", in("foo", "abc"))).Obj(),
			pods:  []*api.Pod{pod().Node("nodeA").Label("foo", "abc").Obj()},
			nodes: three(), want: []verdict{antiFail, antiFail, ok},
		},
		{
			name: "anti-affinity counts only the term's namespaces",
			pod:  pod().Namespace("NS1").Label("foo", "123").PodAffinityTerm(true, term("region", in("foo", "bar"))).Obj(),
			pods: []*api.Pod{
				pod().Node("nodeA").Namespace("NS1").Label("foo", "bar").Obj(),
				pod().Node("nodeC").Namespace("NS2").PodAffinityTerm(true, term("region", in("foo", "123"))).Obj(),
			},
			nodes: three(), want: []verdict{antiFail, antiFail, ok},
		},
		{
			name:     "existing pod's term with a key no node has: Skip",
			pod:      pod().Label("foo", "").Obj(),
			pods:     []*api.Pod{pod().Node("nodeA").PodAffinityTerm(true, term("invalid-node-label", exists("foo"))).Obj()},
			nodes:    []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z1", "nodeB"))},
			wantSkip: true,
		},
		{
			name:  "incoming anti-affinity with a key no node has passes",
			pod:   pod().Node("nodeA").PodAffinityTerm(true, term("invalid-node-label", exists("foo"))).Obj(),
			pods:  []*api.Pod{pod().Node("nodeA").Label("foo", "").Obj()},
			nodes: []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z1", "nodeB"))},
			want:  []verdict{ok, ok},
		},
		{
			name: "existing pods' terms on every node",
			pod:  pod().Label("foo", "").Label("bar", "").Obj(),
			pods: []*api.Pod{
				pod().Node("nodeA").PodAffinityTerm(true, term("zone", exists("foo"))).Obj(),
				pod().Node("nodeA").PodAffinityTerm(true, term("region", exists("bar"))).Obj(),
			},
			nodes: []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z2", "nodeB"))},
			want:  []verdict{existingFail, existingFail},
		},
		{
			name: "incoming anti-affinity: any term violated",
			pod:  pod().PodAffinityTerm(true, term("zone", exists("foo"))).PodAffinityTerm(true, term("region", exists("bar"))).Obj(),
			pods: []*api.Pod{
				pod().Node("nodeA").Label("foo", "").Obj(),
				pod().Node("nodeB").Label("bar", "").Obj(),
			},
			nodes: []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z2", "nodeB"))},
			want:  []verdict{antiFail, antiFail},
		},
		{
			name: "existing anti-affinity: a term counts only where its key exists",
			pod:  pod().Label("foo", "").Label("bar", "").Obj(),
			pods: []*api.Pod{pod().Node("nodeA").PodAffinityTerm(true, term("invalid-node-label", exists("foo"))).
				PodAffinityTerm(true, term("zone", exists("bar"))).Obj()},
			nodes: []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z2", "nodeB"))},
			want:  []verdict{existingFail, ok},
		},
		{
			name:  "incoming anti-affinity: a term counts only where its key exists",
			pod:   pod().PodAffinityTerm(true, term("invalid-node-label", exists("foo"))).PodAffinityTerm(true, term("zone", exists("bar"))).Obj(),
			pods:  []*api.Pod{pod().Name("podA").Node("nodeA").Label("foo", "").Label("bar", "").Obj()},
			nodes: []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z2", "nodeB"))},
			want:  []verdict{antiFail, ok},
		},
		{
			name: "existing anti-affinity with two valid keys",
			pod:  pod().Label("foo", "").Label("bar", "").Obj(),
			pods: []*api.Pod{pod().Node("nodeA").PodAffinityTerm(true, term("region", exists("foo"))).
				PodAffinityTerm(true, term("zone", exists("bar"))).Obj()},
			nodes: []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z2", "nodeB"))},
			want:  []verdict{existingFail, existingFail},
		},
		{
			name: "existing pods on nodeA and nodeB each match: only nodeC",
			pod:  pod().Label("foo", "").Label("bar", "").Obj(),
			pods: []*api.Pod{
				pod().Node("nodeA").PodAffinityTerm(true, term("zone", exists("foo"))).PodAffinityTerm(true, term("zone", exists("labelA"))).Obj(),
				pod().Node("nodeB").PodAffinityTerm(true, term("zone", exists("bar"))).PodAffinityTerm(true, term("zone", exists("labelB"))).Obj(),
			},
			nodes: []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z2", "nodeB")), node("nodeC", r1("z3", "nodeC"))},
			want:  []verdict{existingFail, existingFail, ok},
		},
		{
			name:  "affinity: all terms matched by one pod",
			pod:   pod().PodAffinityTerm(false, term("region", exists("foo"))).PodAffinityTerm(false, term("zone", exists("bar"))).Obj(),
			pods:  []*api.Pod{pod().Name("pod1").Label("foo", "").Label("bar", "").Node("nodeA").Obj()},
			nodes: []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z1", "nodeB"))},
			want:  []verdict{ok, ok},
		},
		{
			name: "affinity: terms matched by different pods do not count",
			pod:  pod().PodAffinityTerm(false, term("region", exists("foo"))).PodAffinityTerm(false, term("zone", exists("bar"))).Obj(),
			pods: []*api.Pod{
				pod().Name("pod1").Label("foo", "").Node("nodeA").Obj(),
				pod().Name("pod2").Label("bar", "").Node("nodeB").Obj(),
			},
			nodes: []*api.Node{node("nodeA", r1("z1", "nodeA")), node("nodeB", r1("z2", "nodeB"))},
			want:  []verdict{affinityFail, affinityFail},
		},
	}
	runFilterCases(t, cases)
}

// TestPreFilterStateAddRemovePod follows upstream's
// TestPreFilterStateAddRemovePod: removing a pod and adding it back through
// the extensions restores the Filter verdicts, and a clone is independent.
func TestPreFilterStateAddRemovePod(t *testing.T) {
	nodes := []*api.Node{
		node("nodeA", map[string]string{"region": "r1", "zone": "z1"}),
		node("nodeB", map[string]string{"region": "r1", "zone": "z2"}),
		node("nodeC", map[string]string{"region": "r2", "zone": "z3"}),
	}
	incoming := pod().Name("in").Label("app", "web").
		PodAffinityTerm(false, term("region", in("app", "db"))).
		PodAffinityTerm(true, term("zone", in("app", "web"))).Obj()
	db := pod().Name("db").Label("app", "db").Node("nodeA").Obj()
	web := pod().Name("web").Label("app", "web").Node("nodeB").Obj()
	hater := pod().Name("hater").Node("nodeC").PodAffinityTerm(true, term("region", in("app", "web"))).Obj()
	snap := snapshot(nodes, []*api.Pod{db, web, hater})
	pl := New()
	pi := framework.NewPodInfo(incoming)
	state := framework.NewCycleState()
	if _, st := pl.PreFilter(state, pi, snap); !st.IsSuccess() {
		t.Fatalf("PreFilter = %v", st)
	}
	verdicts := func(s *framework.CycleState) []verdict {
		var out []verdict
		for _, n := range nodes {
			st := pl.Filter(s, pi, snap.Get(n.Name))
			out = append(out, verdict{st.CodeOf(), st.Message()})
		}
		return out
	}
	base := verdicts(state)
	wantBase := []verdict{ok, antiFail, affinityFail}
	for i := range wantBase {
		if base[i] != wantBase[i] {
			t.Fatalf("base verdicts = %v, want %v", base, wantBase)
		}
	}
	clone := state.Clone()
	webInfo := snap.Get("nodeB").Pods[0]
	dbInfo := snap.Get("nodeA").Pods[0]
	pl.RemovePod(clone, pi, webInfo, snap.Get("nodeB"))
	pl.RemovePod(clone, pi, dbInfo, snap.Get("nodeA"))
	// Without db no pod matches the affinity anywhere, and the pod does not
	// match its own term: every node fails affinity.
	got := verdicts(clone)
	for i, v := range got {
		if v != affinityFail {
			t.Errorf("after removals node %s = %v, want affinity failure", nodes[i].Name, v)
		}
	}
	pl.AddPod(clone, pi, dbInfo, snap.Get("nodeA"))
	got = verdicts(clone)
	if got[1] != ok {
		t.Errorf("nodeB after removing web = %v, want success", got[1])
	}
	pl.AddPod(clone, pi, webInfo, snap.Get("nodeB"))
	got = verdicts(clone)
	for i := range base {
		if got[i] != base[i] {
			t.Errorf("after add back %s = %v, want %v", nodes[i].Name, got[i], base[i])
		}
	}
	// Existing pods' anti-affinity through AddPod on nodeA (region r1).
	hInfo := snap.Get("nodeC").Pods[0]
	pl.AddPod(clone, pi, hInfo, snap.Get("nodeA"))
	if v := verdicts(clone)[0]; v != existingFail {
		t.Errorf("nodeA after adding an anti-affine pod = %v, want %v", v, existingFail)
	}
	// The original state is untouched.
	again := verdicts(state)
	for i := range base {
		if again[i] != base[i] {
			t.Errorf("original state changed: %s = %v, want %v", nodes[i].Name, again[i], base[i])
		}
	}
}

func TestPreFilterRejectsUnparsableTerms(t *testing.T) {
	p := pod().PodAffinityTerm(false, term("region", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "k", Operator: "Bogus"}}})).Obj()
	snap := snapshot([]*api.Node{node("n1", map[string]string{"region": "r"})}, nil)
	_, st := New().PreFilter(framework.NewCycleState(), framework.NewPodInfo(p), snap)
	if st.CodeOf() != framework.UnschedulableAndUnresolvable {
		t.Fatalf("PreFilter = %v, want UnschedulableAndUnresolvable", st)
	}
}

// A namespace the snapshot has not recorded still carries the
// kubernetes.io/metadata.name label the API server adds.
func TestNamespaceSelectorOnUnrecordedNamespace(t *testing.T) {
	nodes := []*api.Node{node("n1", map[string]string{"zone": "a"}), node("n2", map[string]string{"zone": "b"})}
	existing := pod().Namespace("other").Label("app", "db").Node("n1").Obj()
	p := pod().PodAffinityTerm(false, nsTerm("zone", in("app", "db"), in(api.LabelMetadataName, "other"))).Obj()
	runFilterCases(t, []filterCase{{name: "metadata.name selector", pod: p, pods: []*api.Pod{existing}, nodes: nodes, want: []verdict{ok, affinityFail}}})
}
