package oraclecheck

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

// scenario1 is testdata/scenario1.yaml built with the test builders.
func scenario1() (*framework.PodInfo, *framework.Snapshot) {
	appImage := func(n *tu.NodeWrapper, names ...string) *tu.NodeWrapper { return n.Image(524288000, names...) }
	nodes := []*api.Node{
		appImage(tu.MakeNode().Name("n1").Label("zone", "a").Label("disk", "ssd").
			Taint("spot", "true", "PreferNoSchedule").Capacity(tu.Res{"cpu": "4", "memory": "8Gi", "pods": "110"}), "registry.io/app:v1").Obj(),
		tu.MakeNode().Name("n2").Label("zone", "b").Taint("spot", "true", "PreferNoSchedule").Taint("slow", "", "PreferNoSchedule").
			Capacity(tu.Res{"cpu": "8", "memory": "16Gi", "pods": "110"}).Obj(),
		appImage(tu.MakeNode().Name("n3").Label("zone", "a").Label("disk", "ssd").
			Capacity(tu.Res{"cpu": "2", "memory": "4Gi", "pods": "110"}), "registry.io/app:v1", "registry.io/app:latest").Obj(),
		tu.MakeNode().Name("n4").Label("zone", "c").Taint("dedicated", "gpu", "NoSchedule").
			Capacity(tu.Res{"cpu": "16", "memory": "64Gi", "pods": "110"}).Obj(),
		tu.MakeNode().Name("n5").Label("zone", "b").Capacity(tu.Res{"cpu": "1", "memory": "2Gi", "pods": "110"}).Obj(),
		tu.MakeNode().Name("n6").Label("zone", "a").Capacity(tu.Res{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj(),
	}
	e2 := tu.MakePod().Name("e2").Node("n2").Req(tu.Res{"cpu": "500m"}).Container("busybox")
	e3 := tu.MakePod().Name("e3").Node("n6").ContainerPort(api.ContainerPort{ContainerPort: 80, HostPort: 8080})
	e3.Spec.Containers[0].Resources.Requests = tu.Res{"cpu": "100m", "memory": "100Mi"}.List()
	pods := []*api.Pod{
		tu.MakePod().Name("e1").Node("n1").Req(tu.Res{"cpu": "1500m", "memory": "1Gi"}).Obj(),
		e2.Obj(),
		e3.Obj(),
	}
	in := tu.MakePod().Name("incoming").
		Tolerations(api.Toleration{Key: "spot", Operator: "Exists", Effect: "PreferNoSchedule"}).
		PreferredNodeIn(5, "disk", "ssd").
		PreferredNodeTerm(2, api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: "NotIn", Values: []string{"a"}}}}).
		ContainerPort(api.ContainerPort{ContainerPort: 80, HostPort: 8080}).
		Container("busybox")
	in.Spec.Containers[0].Image = "registry.io/app:v1"
	in.Spec.Containers[0].Resources.Requests = tu.Res{"cpu": "1200m", "memory": "1536Mi"}.List()
	return in.Info(), tu.NewSnapshot(nodes, pods)
}

// TestScenario1 pins the oracle's verdicts (explain --verbose, v1.36.3) on
// testdata/scenario1.yaml: a cordon-free mix of PreferNoSchedule taints,
// preferred node affinity, a NoSchedule taint, a node too small for the
// request (unresolvable), a host-port clash, and an image on two nodes.
func TestScenario1(t *testing.T) {
	pod, snap := scenario1()
	got := explain(pod, snap)
	scores := func(tt, na, fit, ba, il int64) map[string]int64 {
		return map[string]int64{"TaintToleration": tt, "NodeAffinity": na, "NodeResourcesFit": fit,
			"NodeResourcesBalancedAllocation": ba, "ImageLocality": il}
	}
	want := map[string]*verdict{
		"n1": {Feasible: true, Scores: scores(100, 100, 48, 72, 7)},
		"n2": {Feasible: true, Scores: scores(0, 40, 81, 74, 0)},
		"n3": {Feasible: true, Scores: scores(100, 100, 46, 69, 7)},
		"n4": {Plugin: "TaintToleration", Code: framework.UnschedulableAndUnresolvable, Reasons: []string{"node(s) had untolerated taint(s)"}},
		"n5": {Plugin: "NodeResourcesFit", Code: framework.UnschedulableAndUnresolvable, Reasons: []string{"Insufficient cpu"}},
		"n6": {Plugin: "NodePorts", Code: framework.Unschedulable, Reasons: []string{"node(s) didn't have free ports for the requested pod ports"}},
	}
	for name, w := range want {
		if !reflect.DeepEqual(got[name], w) {
			t.Errorf("%s: got %+v, want %+v", name, got[name], w)
		}
	}
}
