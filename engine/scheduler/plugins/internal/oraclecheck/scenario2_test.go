package oraclecheck

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

func webNode(name, gen string, r tu.Res) *tu.NodeWrapper {
	return tu.MakeNode().Name(name).Label("tier", "web").Label("gen", gen).Capacity(r)
}

func full(pods string) tu.Res {
	return tu.Res{"cpu": "4", "memory": "8Gi", "pods": pods, "ephemeral-storage": "10Gi", "example.com/gpu": "2"}
}

// TestScenario2 pins the oracle's verdicts on testdata/scenario2.yaml:
// every filter's rejection in profile order (cordon, pod count, NoExecute
// taint, storage above allocatable, nodeSelector, extended resource
// resolvable and not), and scores for a pod that requests no cpu or memory
// (BalancedAllocation and NodeAffinity skip, TaintToleration all 100, Fit
// counts 100m/200Mi).
func TestScenario2(t *testing.T) {
	nodes := []*api.Node{
		webNode("a1", "5", full("110")).Unschedulable(true).Obj(),
		webNode("a2", "6", full("2")).Obj(),
		webNode("a3", "7", full("110")).Taint(api.TaintNodeNotReady, "", "NoExecute").Obj(),
		webNode("a4", "9", tu.Res{"cpu": "4", "memory": "8Gi", "pods": "110", "ephemeral-storage": "1Gi", "example.com/gpu": "4"}).Obj(),
		tu.MakeNode().Name("a5").Label("tier", "db").Label("gen", "9").Capacity(full("110")).Obj(),
		webNode("a6", "8", full("110")).Obj(),
		webNode("a7", "6", tu.Res{"cpu": "4", "memory": "8Gi", "pods": "110", "ephemeral-storage": "10Gi"}).Obj(),
		webNode("a8", "10", tu.Res{"cpu": "2", "memory": "4Gi", "pods": "110", "ephemeral-storage": "10Gi", "example.com/gpu": "2"}).Obj(),
		webNode("a9", "11", tu.Res{"cpu": "8", "memory": "8Gi", "pods": "110", "ephemeral-storage": "10Gi", "example.com/gpu": "8"}).Obj(),
	}
	pods := []*api.Pod{
		tu.MakePod().Name("x1").Node("a2").Container("busybox").Obj(),
		tu.MakePod().Name("x2").Node("a2").Container("busybox").Obj(),
		tu.MakePod().Name("x3").Node("a6").Req(tu.Res{"example.com/gpu": "1", "cpu": "3", "memory": "1Gi"}).Obj(),
		tu.MakePod().Name("x4").Node("a9").Req(tu.Res{"cpu": "2", "memory": "6Gi"}).Obj(),
	}
	in := tu.MakePod().Name("incoming").NodeSelector(map[string]string{"tier": "web"}).
		RequiredNodeTerms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "gen", Operator: "Gt", Values: []string{"4"}}}}).
		Req(tu.Res{"example.com/gpu": "2", "ephemeral-storage": "2Gi"})
	got := explain(in.Info(), tu.NewSnapshot(nodes, pods))

	unresolvable := func(plugin, reason string) *verdict {
		return &verdict{Plugin: plugin, Code: framework.UnschedulableAndUnresolvable, Reasons: []string{reason}}
	}
	scores := func(fit int64) map[string]int64 {
		return map[string]int64{"TaintToleration": 100, "NodeAffinity": 0, "NodeResourcesFit": fit,
			"NodeResourcesBalancedAllocation": 0, "ImageLocality": 0}
	}
	want := map[string]*verdict{
		"a1": unresolvable("NodeUnschedulable", "node(s) were unschedulable"),
		"a2": {Plugin: "NodeResourcesFit", Code: framework.Unschedulable, Reasons: []string{"Too many pods"}},
		"a3": unresolvable("TaintToleration", "node(s) had untolerated taint(s)"),
		"a4": unresolvable("NodeResourcesFit", "Insufficient ephemeral-storage"),
		"a5": unresolvable("NodeAffinity", "node(s) didn't match Pod's node affinity/selector"),
		"a6": {Plugin: "NodeResourcesFit", Code: framework.Unschedulable, Reasons: []string{"Insufficient example.com/gpu"}},
		"a7": unresolvable("NodeResourcesFit", "Insufficient example.com/gpu"),
		"a8": {Feasible: true, Scores: scores(95)},
		"a9": {Feasible: true, Scores: scores(47)},
	}
	for name, w := range want {
		if !reflect.DeepEqual(got[name], w) {
			t.Errorf("%s: got %+v, want %+v", name, got[name], w)
		}
	}
}

// TestScenario3 pins testdata/scenario3.yaml: required matchFields that
// intersect to no node name make NodeAffinity's PreFilter reject the pod
// on every node with "pod affinity terms conflict" (unresolvable).
func TestScenario3(t *testing.T) {
	nodes := []*api.Node{
		tu.MakeNode().Name("b1").Capacity(tu.Res{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj(),
		tu.MakeNode().Name("b2").Capacity(tu.Res{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj(),
	}
	in := tu.MakePod().Name("incoming").Container("busybox").RequiredNodeTerms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{
		{Key: "metadata.name", Operator: "In", Values: []string{"b1"}},
		{Key: "metadata.name", Operator: "In", Values: []string{"b2"}},
	}})
	got := explain(in.Info(), tu.NewSnapshot(nodes, nil))
	want := &verdict{Plugin: "NodeAffinity", Code: framework.UnschedulableAndUnresolvable, Reasons: []string{"pod affinity terms conflict"}}
	for _, n := range []string{"b1", "b2"} {
		if !reflect.DeepEqual(got[n], want) {
			t.Errorf("%s: got %+v, want %+v", n, got[n], want)
		}
	}
}
