package nodeaffinity

import (
	"reflect"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

func expr(key, op string, vals ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: key, Operator: op, Values: vals}
}

func exprs(rs ...api.NodeSelectorRequirement) api.NodeSelectorTerm {
	return api.NodeSelectorTerm{MatchExpressions: rs}
}

func fields(rs ...api.NodeSelectorRequirement) api.NodeSelectorTerm {
	return api.NodeSelectorTerm{MatchFields: rs}
}

var rejected = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPod)

// Cases follow upstream node_affinity_test.go TestNodeAffinity (the
// addedAffinity cases are out of scope).
func TestFilter(t *testing.T) {
	cases := []struct {
		name          string
		pod           *tu.PodWrapper
		nodeName      string
		labels        map[string]string
		wantPreFilter *framework.Status
		wantResult    map[string]struct{}
		want          *framework.Status
		noPreFilter   bool
	}{
		{name: "missing labels", pod: tu.MakePod().NodeSelector(map[string]string{"foo": "bar"}), want: rejected},
		{name: "same labels", pod: tu.MakePod().NodeSelector(map[string]string{"foo": "bar"}), labels: map[string]string{"foo": "bar"}},
		{name: "node labels are superset", pod: tu.MakePod().NodeSelector(map[string]string{"foo": "bar"}),
			labels: map[string]string{"foo": "bar", "baz": "blah"}},
		{name: "node labels are subset", pod: tu.MakePod().NodeSelector(map[string]string{"foo": "bar", "baz": "blah"}),
			labels: map[string]string{"foo": "bar"}, want: rejected},
		{name: "In matches", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("foo", "In", "bar", "value2"))),
			labels: map[string]string{"foo": "bar"}},
		{name: "Gt matches", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("kernel-version", "Gt", "0204"))),
			labels: map[string]string{"kernel-version": "0206"}},
		{name: "Gt on a non-integer label fails", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("kernel-version", "Gt", "0204"))),
			labels: map[string]string{"kernel-version": "v2"}, want: rejected},
		{name: "Lt matches", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("gen", "Lt", "5"))),
			labels: map[string]string{"gen": "4"}},
		{name: "NotIn matches", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("mem-type", "NotIn", "DDR", "DDR2"))),
			labels: map[string]string{"mem-type": "DDR3"}},
		{name: "NotIn matches a node without the key", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("mem-type", "NotIn", "DDR"))),
			labels: map[string]string{}},
		{name: "Exists matches", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("GPU", "Exists"))),
			labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}},
		{name: "DoesNotExist rejects", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("GPU", "DoesNotExist"))),
			labels: map[string]string{"GPU": "x"}, want: rejected},
		{name: "affinity that doesn't match the labels", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("foo", "NotIn", "bar", "value2"))),
			labels: map[string]string{"foo": "bar"}, want: rejected},
		{name: "empty matchExpressions term matches nothing", pod: tu.MakePod().RequiredNodeTerms(api.NodeSelectorTerm{}),
			labels: map[string]string{"foo": "bar"}, want: rejected},
		{name: "required affinity with no terms matches nothing", pod: func() *tu.PodWrapper {
			p := tu.MakePod()
			p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{}}}
			return p
		}(), labels: map[string]string{"foo": "bar"}, want: rejected},
		{name: "no affinity schedules anywhere", pod: tu.MakePod(), labels: map[string]string{"foo": "bar"},
			wantPreFilter: framework.NewStatus(framework.Skip)},
		{name: "affinity without required selector schedules anywhere", pod: tu.MakePod().PreferredNodeIn(1, "foo", "x"),
			labels: map[string]string{"foo": "bar"}, wantPreFilter: framework.NewStatus(framework.Skip)},
		{name: "multiple expressions ANDed match", pod: tu.MakePod().RequiredNodeTerms(exprs(
			expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER"))),
			labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}},
		{name: "multiple expressions ANDed don't match", pod: tu.MakePod().RequiredNodeTerms(exprs(
			expr("GPU", "Exists"), expr("GPU", "In", "AMD", "INTER"))),
			labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}, want: rejected},
		{name: "terms ORed, one matches", pod: tu.MakePod().RequiredNodeTerms(
			exprs(expr("foo", "In", "bar", "value2")), exprs(expr("diffkey", "In", "wrong", "value2"))),
			labels: map[string]string{"foo": "bar"}},
		{name: "affinity and nodeSelector both match", pod: tu.MakePod().NodeSelector(map[string]string{"foo": "bar"}).
			RequiredNodeTerms(exprs(expr("foo", "Exists"))), labels: map[string]string{"foo": "bar"}},
		{name: "affinity matches but nodeSelector does not", pod: tu.MakePod().NodeSelector(map[string]string{"foo": "bar"}).
			RequiredNodeTerms(exprs(expr("foo", "Exists"))), labels: map[string]string{"foo": "barrrrrr"}, want: rejected},
		{name: "an invalid value makes the term match nothing", pod: tu.MakePod().RequiredNodeTerms(exprs(
			expr("foo", "NotIn", "invalid value: ___@#$%^"))), labels: map[string]string{"foo": "bar"}, want: rejected},
		{name: "an invalid term does not spoil a valid one", pod: tu.MakePod().RequiredNodeTerms(
			exprs(expr("foo", "Gt", "x")), exprs(expr("foo", "In", "bar"))), labels: map[string]string{"foo": "bar"}},
		{name: "matchFields In matches", pod: tu.MakePod().RequiredNodeTerms(fields(expr("metadata.name", "In", "node1"))),
			nodeName: "node1", wantResult: map[string]struct{}{"node1": {}}},
		{name: "matchFields In does not match", pod: tu.MakePod().RequiredNodeTerms(fields(expr("metadata.name", "In", "node1"))),
			nodeName: "node2", wantResult: map[string]struct{}{"node1": {}}, want: rejected},
		{name: "two terms: fields fail, expressions match", pod: tu.MakePod().RequiredNodeTerms(
			fields(expr("metadata.name", "In", "node1")), exprs(expr("foo", "In", "bar"))),
			nodeName: "node2", labels: map[string]string{"foo": "bar"}},
		{name: "one term: fields fail, expressions match", pod: tu.MakePod().RequiredNodeTerms(api.NodeSelectorTerm{
			MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", "In", "node1")}, MatchExpressions: []api.NodeSelectorRequirement{expr("foo", "In", "bar")}}),
			nodeName: "node2", labels: map[string]string{"foo": "bar"}, wantResult: map[string]struct{}{"node1": {}}, want: rejected},
		{name: "one term: fields and expressions match", pod: tu.MakePod().RequiredNodeTerms(api.NodeSelectorTerm{
			MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", "In", "node1")}, MatchExpressions: []api.NodeSelectorRequirement{expr("foo", "In", "bar")}}),
			nodeName: "node1", labels: map[string]string{"foo": "bar"}, wantResult: map[string]struct{}{"node1": {}}},
		{name: "two terms of node names", pod: tu.MakePod().RequiredNodeTerms(
			fields(expr("metadata.name", "In", "node1")), fields(expr("metadata.name", "In", "node2"))),
			nodeName: "node2", wantResult: map[string]struct{}{"node1": {}, "node2": {}}},
		{name: "conflicting field requirements", pod: tu.MakePod().RequiredNodeTerms(
			fields(expr("metadata.name", "In", "node1"), expr("metadata.name", "In", "node2"))),
			nodeName: "node2", labels: map[string]string{"foo": "bar"},
			wantPreFilter: framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonConflict)},
		{name: "matchFields NotIn on another field compares with empty", pod: tu.MakePod().RequiredNodeTerms(
			fields(expr("spec.other", "NotIn", "x"))), nodeName: "node1"},
		{name: "nodeSelector without PreFilter", pod: tu.MakePod().NodeSelector(map[string]string{"foo": "bar"}),
			labels: map[string]string{"foo": "bar"}, noPreFilter: true},
		{name: "affinity without PreFilter", pod: tu.MakePod().RequiredNodeTerms(exprs(expr("foo", "In", "x"))),
			labels: map[string]string{"foo": "bar"}, noPreFilter: true, want: rejected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			name := c.nodeName
			if name == "" {
				name = "node1"
			}
			nw := tu.MakeNode().Name(name)
			for k, v := range c.labels {
				nw.Label(k, v)
			}
			snap := tu.NewSnapshot([]*api.Node{nw.Obj()}, nil)
			pod := c.pod.Name("p").Info()
			pl := New()
			state := framework.NewCycleState()
			if !c.noPreFilter {
				res, st := pl.PreFilter(state, pod, snap)
				if !reflect.DeepEqual(st, c.wantPreFilter) {
					t.Fatalf("PreFilter status %+v, want %+v", st, c.wantPreFilter)
				}
				if got := res.AllNodes(); got != (c.wantResult == nil) || (!got && !reflect.DeepEqual(res.NodeNames, c.wantResult)) {
					t.Fatalf("PreFilter result %+v, want %v", res, c.wantResult)
				}
				if !st.IsSuccess() {
					return
				}
			}
			if got := pl.Filter(state, pod, snap.Nodes()[0]); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Filter %+v, want %+v", got, c.want)
			}
			// A copy of the NodeInfo (as a preemption dry run uses) must
			// get the same verdict through the label path.
			clone := *snap.Nodes()[0]
			if got := pl.Filter(state, pod, &clone); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Filter on a copy %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestFilterManyNodesUsesTheSnapshotTables(t *testing.T) {
	var nodes []*api.Node
	for i, zone := range []string{"a", "b", "c", "", "b"} {
		nw := tu.MakeNode().Name(string(rune('p' + i)))
		if zone != "" {
			nw.Label("zone", zone)
		}
		nodes = append(nodes, nw.Obj())
	}
	snap := tu.NewSnapshot(nodes, nil)
	cases := []struct {
		req  api.NodeSelectorRequirement
		want []bool // nodes p..t
	}{
		{expr("zone", "In", "b", "z"), []bool{false, true, false, false, true}},
		{expr("zone", "NotIn", "b"), []bool{true, false, true, true, false}},
		{expr("zone", "Exists"), []bool{true, true, true, false, true}},
		{expr("zone", "DoesNotExist"), []bool{false, false, false, true, false}},
	}
	for _, c := range cases {
		pod := tu.MakePod().Name("p").RequiredNodeTerms(exprs(c.req)).Info()
		res := tu.RunFilter(New(), pod, snap)
		var got []bool
		for _, st := range res.Nodes {
			got = append(got, st.IsSuccess())
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s %v: got %v, want %v", c.req.Key, c.req.Operator, c.req.Values, got, c.want)
		}
	}
}

// Cases follow upstream node_affinity_test.go TestNodeAffinityPriority.
func TestScore(t *testing.T) {
	label1 := map[string]string{"foo": "bar"}
	label2 := map[string]string{"key": "value"}
	label3 := map[string]string{"az": "az1"}
	label4 := map[string]string{"abc": "az11", "def": "az22"}
	label5 := map[string]string{"foo": "bar", "key": "value", "az": "az1"}
	affinity1 := func(p *tu.PodWrapper) *tu.PodWrapper { return p.PreferredNodeIn(2, "foo", "bar") }
	affinity2 := func(p *tu.PodWrapper) *tu.PodWrapper {
		return p.PreferredNodeIn(2, "foo", "bar").PreferredNodeIn(4, "key", "value").
			PreferredNodeTerm(5, exprs(expr("foo", "In", "bar"), expr("key", "In", "value"), expr("az", "In", "az1")))
	}
	cases := []struct {
		name         string
		pod          *tu.PodWrapper
		labels       []map[string]string
		wantPreScore *framework.Status
		raw, norm    []int64
	}{
		{name: "no affinity: PreScore skips", pod: tu.MakePod(), labels: []map[string]string{label1},
			wantPreScore: framework.NewStatus(framework.Skip)},
		{name: "no node matches: all zero", pod: affinity1(tu.MakePod()), labels: []map[string]string{label4, label2, label3},
			raw: []int64{0, 0, 0}, norm: []int64{0, 0, 0}},
		{name: "only node1 matches", pod: affinity1(tu.MakePod()), labels: []map[string]string{label1, label2, label3},
			raw: []int64{2, 0, 0}, norm: []int64{100, 0, 0}},
		{name: "different priorities", pod: affinity2(tu.MakePod()), labels: []map[string]string{label1, label5, label2},
			raw: []int64{2, 11, 4}, norm: []int64{18, 100, 36}},
		{name: "weight 0 and empty terms are ignored", pod: tu.MakePod().PreferredNodeIn(0, "foo", "bar").
			PreferredNodeTerm(7, api.NodeSelectorTerm{}).PreferredNodeIn(3, "key", "value"),
			labels: []map[string]string{label1, label2}, raw: []int64{0, 3}, norm: []int64{0, 100}},
		{name: "all nodes equal", pod: affinity1(tu.MakePod()), labels: []map[string]string{label1, label1},
			raw: []int64{2, 2}, norm: []int64{100, 100}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var nodes []*api.Node
			for i, l := range c.labels {
				nw := tu.MakeNode().Name(string(rune('a' + i)))
				for k, v := range l {
					nw.Label(k, v)
				}
				nodes = append(nodes, nw.Obj())
			}
			res := tu.RunScore(New(), c.pod.Name("p").Info(), tu.NewSnapshot(nodes, nil), nil)
			if !reflect.DeepEqual(res.PreScore, c.wantPreScore) || res.Err != nil {
				t.Fatalf("PreScore %+v (err %+v), want %+v", res.PreScore, res.Err, c.wantPreScore)
			}
			if !reflect.DeepEqual(res.Raw, c.raw) || !reflect.DeepEqual(res.Normalized, c.norm) {
				t.Fatalf("raw %v norm %v, want %v %v", res.Raw, res.Normalized, c.raw, c.norm)
			}
		})
	}
}

func TestPreScoreRejectsABrokenPreferredTerm(t *testing.T) {
	pod := tu.MakePod().Name("p").PreferredNodeIn(2, "invalid key", "bar").Info()
	snap := tu.NewSnapshot([]*api.Node{tu.MakeNode().Name("n").Obj()}, nil)
	st := New().PreScore(framework.NewCycleState(), pod, snap, snap.Nodes())
	if st.CodeOf() != framework.Error || !strings.Contains(st.Message(), `[0].matchExpressions[0].key: Invalid value: "invalid key"`) {
		t.Fatalf("got %+v", st)
	}
}

func TestScoreWithoutPreScore(t *testing.T) {
	pod := tu.MakePod().Name("p").PreferredNodeIn(2, "foo", "bar").Info()
	node := tu.NodeInfo(tu.MakeNode().Name("n").Label("foo", "bar").Obj())
	if s, st := New().Score(framework.NewCycleState(), pod, node); s != 2 || !st.IsSuccess() {
		t.Fatalf("got %d %+v", s, st)
	}
}
