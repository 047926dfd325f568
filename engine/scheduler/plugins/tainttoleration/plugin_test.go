package tainttoleration

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

func taint(k, v, e string) api.Taint { return api.Taint{Key: k, Value: v, Effect: e} }

// Cases follow upstream taint_toleration_test.go TestTaintTolerationFilter
// (the Gt/Lt cases are omitted: TaintTolerationComparisonOperators is an
// alpha gate, off in v1.36, and with it off they behave as "not tolerated").
func TestFilter(t *testing.T) {
	untolerated := framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUntoleratedTaints)
	cases := []struct {
		name  string
		tols  []api.Toleration
		taint []api.Taint
		want  *framework.Status
	}{
		{"a pod with no tolerations can't land on a node with taints", nil,
			[]api.Taint{taint("dedicated", "user1", "NoSchedule")}, untolerated},
		{"toleration matching key, value and effect", []api.Toleration{{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}},
			[]api.Taint{taint("dedicated", "user1", "NoSchedule")}, nil},
		{"toleration for another value", []api.Toleration{{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"}},
			[]api.Taint{taint("dedicated", "user1", "NoSchedule")}, untolerated},
		{"Exists tolerates any value", []api.Toleration{{Key: "foo", Operator: "Exists", Effect: "NoSchedule"}},
			[]api.Taint{taint("foo", "bar", "NoSchedule")}, nil},
		{"all of several taints tolerated", []api.Toleration{
			{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"},
			{Key: "foo", Operator: "Exists", Effect: "NoSchedule"},
		}, []api.Taint{taint("dedicated", "user2", "NoSchedule"), taint("foo", "bar", "NoSchedule")}, nil},
		{"toleration effect must match a non-empty effect", []api.Toleration{{Key: "foo", Operator: "Equal", Value: "bar", Effect: "PreferNoSchedule"}},
			[]api.Taint{taint("foo", "bar", "NoSchedule")}, untolerated},
		{"empty toleration effect matches every effect", []api.Toleration{{Key: "foo", Operator: "Equal", Value: "bar"}},
			[]api.Taint{taint("foo", "bar", "NoSchedule")}, nil},
		{"PreferNoSchedule taints never filter", []api.Toleration{{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"}},
			[]api.Taint{taint("dedicated", "user1", "PreferNoSchedule")}, nil},
		{"no tolerations, only a PreferNoSchedule taint", nil,
			[]api.Taint{taint("dedicated", "user1", "PreferNoSchedule")}, nil},
		{"NoExecute taints filter", nil, []api.Taint{taint(api.TaintNodeNotReady, "", "NoExecute")}, untolerated},
		{"a Gt toleration (alpha gate off) tolerates nothing", []api.Toleration{{Key: "sla", Operator: "Gt", Value: "750", Effect: "NoSchedule"}},
			[]api.Taint{taint("sla", "950", "NoSchedule")}, untolerated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pod := tu.MakePod().Name("p").Tolerations(c.tols...).Info()
			node := tu.NodeInfo(tu.MakeNode().Name("nodeA").Taints(c.taint).Obj())
			got := New().Filter(framework.NewCycleState(), pod, node)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			res := tu.RunFilter(New(), pod, tu.NewSnapshot([]*api.Node{tu.MakeNode().Name("nodeA").Taints(c.taint).Obj()}, nil))
			if res.PreFilter != nil || !reflect.DeepEqual(res.Nodes[0], c.want) {
				t.Fatalf("with PreFilter: got %+v %+v, want %+v", res.PreFilter, res.Nodes[0], c.want)
			}
		})
	}
}

// Cases follow upstream taint_toleration_test.go TestTaintTolerationScore.
func TestScore(t *testing.T) {
	prefer := func(k, v string) api.Taint { return taint(k, v, api.TaintEffectPreferNoSchedule) }
	cases := []struct {
		name          string
		tols          []api.Toleration
		taints        [][]api.Taint
		raw, wantNorm []int64
	}{
		{"tolerated taint beats an intolerable one",
			[]api.Toleration{{Key: "foo", Operator: "Equal", Value: "bar", Effect: "PreferNoSchedule"}},
			[][]api.Taint{{prefer("foo", "bar")}, {prefer("foo", "blah")}},
			[]int64{0, 1}, []int64{100, 0}},
		{"nodes whose taints are all tolerated score the same",
			[]api.Toleration{
				{Key: "cpu-type", Operator: "Equal", Value: "arm64", Effect: "PreferNoSchedule"},
				{Key: "disk-type", Operator: "Equal", Value: "ssd", Effect: "PreferNoSchedule"},
			},
			[][]api.Taint{{}, {prefer("cpu-type", "arm64")}, {prefer("cpu-type", "arm64"), prefer("disk-type", "ssd")}},
			[]int64{0, 0, 0}, []int64{100, 100, 100}},
		{"more intolerable taints score lower",
			[]api.Toleration{{Key: "foo", Operator: "Equal", Value: "bar", Effect: "PreferNoSchedule"}},
			[][]api.Taint{{}, {prefer("cpu-type", "arm64")}, {prefer("cpu-type", "arm64"), prefer("disk-type", "ssd")}},
			[]int64{0, 1, 2}, []int64{100, 50, 0}},
		{"only PreferNoSchedule taints and tolerations count",
			[]api.Toleration{
				{Key: "cpu-type", Operator: "Equal", Value: "arm64", Effect: "NoSchedule"},
				{Key: "disk-type", Operator: "Equal", Value: "ssd", Effect: "NoSchedule"},
			},
			[][]api.Taint{{}, {taint("cpu-type", "arm64", "NoSchedule")}, {prefer("cpu-type", "arm64"), prefer("disk-type", "ssd")}},
			[]int64{0, 0, 2}, []int64{100, 100, 0}},
		{"no taints and no tolerations",
			nil, [][]api.Taint{{}, {prefer("cpu-type", "arm64")}},
			[]int64{0, 1}, []int64{100, 0}},
		{"a toleration with no effect counts for PreferNoSchedule",
			[]api.Toleration{{Key: "foo", Operator: "Exists"}},
			[][]api.Taint{{prefer("foo", "x")}, {prefer("bar", "x")}},
			[]int64{0, 1}, []int64{100, 0}},
		{"every node equally bad normalises to 0",
			nil, [][]api.Taint{{prefer("a", "")}, {prefer("b", "")}},
			[]int64{1, 1}, []int64{0, 0}},
		{"three levels truncate like upstream (100*1/3 = 33 → 67)",
			nil, [][]api.Taint{{prefer("a", "")}, {prefer("a", ""), prefer("b", ""), prefer("c", "")}, {}},
			[]int64{1, 3, 0}, []int64{67, 0, 100}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var nodes []*api.Node
			for i, ts := range c.taints {
				nodes = append(nodes, tu.MakeNode().Name(string(rune('A'+i))).Taints(ts).Obj())
			}
			res := tu.RunScore(New(), tu.MakePod().Name("p").Tolerations(c.tols...).Info(), tu.NewSnapshot(nodes, nil), nil)
			if res.Err != nil || res.PreScore != nil {
				t.Fatalf("status: %+v %+v", res.Err, res.PreScore)
			}
			if !reflect.DeepEqual(res.Raw, c.raw) || !reflect.DeepEqual(res.Normalized, c.wantNorm) {
				t.Fatalf("raw %v normalised %v, want %v %v", res.Raw, res.Normalized, c.raw, c.wantNorm)
			}
		})
	}
}

func TestScoreWithoutPreScoreIsAnError(t *testing.T) {
	node := tu.NodeInfo(tu.MakeNode().Name("n").Obj())
	if _, st := New().Score(framework.NewCycleState(), tu.MakePod().Name("p").Info(), node); st.CodeOf() != framework.Error {
		t.Fatalf("got %+v, want Error", st)
	}
}
