package descheduler

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamDeletePodsViolatingNodeTaints ports
// TestDeletePodsViolatingNodeTaints
// (pkg/framework/plugins/removepodsviolatingnodetaints/node_taint_test.go:146),
// all 23 cases. p9 has a local-storage volume upstream; podlab pods have
// no volumes, so p9 is included only where evictLocalStoragePods is set
// (there it is evictable, as upstream) and left out where upstream
// protects it: every expected count stands.
func TestUpstreamDeletePodsViolatingNodeTaints(t *testing.T) {
	normal := func(p *api.Pod) { p.OwnerReferences = []api.OwnerReference{{Kind: "Pod", APIVersion: "v1"}} }
	pod := func(name, node string, edit ...func(*api.Pod)) *api.Pod {
		return buildPod(name, 100, 0, node, append([]func(*api.Pod){normal}, edit...)...)
	}
	node := func(name string, edit ...func(*api.Node)) *api.Node { return buildNode(name, 2000, 3000, 10, edit...) }
	taint := func(i int, effect string) api.Taint {
		return api.Taint{Key: fmt.Sprintf("testTaint%d", i), Value: fmt.Sprintf("test%d", i), Effect: effect}
	}
	testTaint1 := func(n *api.Node) { n.Spec.Taints = []api.Taint{taint(1, api.TaintEffectNoSchedule)} }
	testingTaint1 := testTaint1 // createNoScheduleTaint ignores key and value: both are testTaint1=test1
	bothTaints1 := func(n *api.Node) {
		n.Spec.Taints = []api.Taint{taint(1, api.TaintEffectNoSchedule), taint(1, api.TaintEffectNoSchedule)}
	}
	preferTaint1 := func(n *api.Node) { n.Spec.Taints = []api.Taint{taint(1, api.TaintEffectPreferNoSchedule)} }
	// addTolerationToPod (:119) replaces the pod's tolerations.
	tolerate := func(key, value string, i int, effect string) func(*api.Pod) {
		return func(p *api.Pod) {
			p.Spec.Tolerations = []api.Toleration{{Key: fmt.Sprintf("%s%d", key, i), Value: fmt.Sprintf("%s%d", value, i), Effect: effect}}
		}
	}
	tol1 := tolerate("testTaint", "test", 1, api.TaintEffectNoSchedule)
	tolX1 := tolerate("testTaintX", "testX", 1, api.TaintEffectNoSchedule)
	critical := func(p *api.Pod) {
		p.Namespace = "kube-system"
		p.Spec.Priority = ptr(int32(api.SystemCriticalPriority))
	}
	ds := func(p *api.Pod) { p.OwnerReferences = []api.OwnerReference{{Kind: "DaemonSet", APIVersion: "v1"}} }
	mirror := func(p *api.Pod) {
		p.Annotations = map[string]string{"kubernetes.io/config.source": "api", "kubernetes.io/config.mirror": "mirror"}
	}
	one, two := ptr(uint(1)), ptr(uint(2))
	type tcase struct {
		name                            string
		line                            int
		nodes                           []*api.Node
		pods                            []*api.Pod
		evictLocalStorage, evictSysCrit bool
		perNode, perNS, total           *uint
		want                            int
		nodeFit, preferNoSchedule       bool
		excluded, included              []string
	}
	cases := []tcase{
		{name: "Pods not tolerating node taint should be evicted", line: 164,
			pods: []*api.Pod{pod("p1", "n1", tol1), pod("p2", "n1"), pod("p3", "n1", tol1)}, nodes: []*api.Node{node("n1", testTaint1)}, want: 1},
		{name: "Pods with tolerations but not tolerating node taint should be evicted", line: 176,
			pods: []*api.Pod{pod("p1", "n1", tol1), pod("p3", "n1", tol1), pod("p4", "n1", tolX1)}, nodes: []*api.Node{node("n1", testTaint1)}, want: 1},
		{name: "Only <maxNoOfPodsToEvictTotal> number of Pods not tolerating node taint should be evicted", line: 188,
			pods: []*api.Pod{pod("p1", "n1", tol1), pod("p5", "n1"), pod("p6", "n1")}, nodes: []*api.Node{node("n1", testTaint1)}, perNode: two, total: one, want: 1},
		{name: "Only <maxPodsToEvictPerNode> number of Pods not tolerating node taint should be evicted", line: 202,
			pods: []*api.Pod{pod("p1", "n1", tol1), pod("p5", "n1"), pod("p6", "n1")}, nodes: []*api.Node{node("n1", testTaint1)}, perNode: one, want: 1},
		{name: "Only <maxNoOfPodsToEvictPerNamespace> number of Pods not tolerating node taint should be evicted", line: 215,
			pods: []*api.Pod{pod("p1", "n1", tol1), pod("p5", "n1"), pod("p6", "n1")}, nodes: []*api.Node{node("n1", testTaint1)}, perNS: one, want: 1},
		{name: "Only <maxNoOfPodsToEvictPerNamespace> number of Pods not tolerating node taint should be evicted (second copy)", line: 228,
			pods: []*api.Pod{pod("p1", "n1", tol1), pod("p5", "n1"), pod("p6", "n1")}, nodes: []*api.Node{node("n1", testTaint1)}, perNS: one, want: 1},
		{name: "Critical pods not tolerating node taint should not be evicted", line: 241,
			pods:  []*api.Pod{pod("p7", "n2", critical), buildPod("p8", 100, 0, "n2", ds), pod("p10", "n2", mirror)},
			nodes: []*api.Node{node("n2", testingTaint1)}, want: 0},
		{name: "Critical pods except storage pods not tolerating node taint should not be evicted", line: 254,
			pods:  []*api.Pod{pod("p7", "n2", critical), buildPod("p8", 100, 0, "n2", ds), pod("p9", "n2"), pod("p10", "n2", mirror)},
			nodes: []*api.Node{node("n2", testingTaint1)}, evictLocalStorage: true, want: 1},
		{name: "Critical and non critical pods, only non critical pods not tolerating node taint should be evicted", line: 268,
			pods:  []*api.Pod{pod("p7", "n2", critical), buildPod("p8", 100, 0, "n2", ds), pod("p10", "n2", mirror), pod("p11", "n2")},
			nodes: []*api.Node{node("n2", testingTaint1)}, want: 1},
		{name: "Critical and non critical pods, pods not tolerating node taint should be evicted even if they are critical", line: 281,
			pods:  []*api.Pod{pod("p2", "n1"), pod("p7", "n2", critical), pod("p10", "n2", mirror)},
			nodes: []*api.Node{node("n1", testTaint1), node("n2", testingTaint1)}, evictSysCrit: true, want: 2},
		{name: "Pod p2 doesn't tolerate taint on it's node, but also doesn't tolerate taints on other nodes", line: 296,
			pods:  []*api.Pod{pod("p1", "n1", tol1), pod("p2", "n1"), pod("p3", "n1", tol1)},
			nodes: []*api.Node{node("n1", testTaint1), node("n2", testingTaint1)}, nodeFit: true, want: 0},
		{name: "Pod p12 doesn't tolerate taint on it's node, but other nodes don't match it's selector", line: 310,
			pods: []*api.Pod{pod("p1", "n1", tol1), pod("p3", "n1", tol1), pod("p11", "n2", func(p *api.Pod) {
				p.Spec.NodeSelector = map[string]string{"datacenter": "west"}
			})},
			nodes:   []*api.Node{node("n1", testTaint1), node("n3", nodeLabels("datacenter", "east"))},
			nodeFit: true, want: 0},
		{name: "Pod p2 doesn't tolerate taint on it's node, but other nodes are unschedulable", line: 328,
			pods:  []*api.Pod{pod("p1", "n1", tol1), pod("p2", "n1"), pod("p3", "n1", tol1)},
			nodes: []*api.Node{node("n1", testTaint1), node("n4", func(n *api.Node) { n.Spec.Unschedulable = true })}, nodeFit: true, want: 0},
		{name: "Pods not tolerating PreferNoSchedule node taint should not be evicted when not enabled", line: 342,
			pods:  []*api.Pod{pod("p13", "n5", tolerate("testTaint", "test", 0, api.TaintEffectPreferNoSchedule))},
			nodes: []*api.Node{node("n5", preferTaint1)}, want: 0},
		{name: "Pods not tolerating PreferNoSchedule node taint should be evicted when enabled", line: 354,
			pods:  []*api.Pod{pod("p13", "n5", tolerate("testTaint", "test", 0, api.TaintEffectPreferNoSchedule))},
			nodes: []*api.Node{node("n5", preferTaint1)}, preferNoSchedule: true, want: 1},
		{name: "Pods not tolerating excluded node taints (by key) should not be evicted", line: 367,
			pods: []*api.Pod{pod("p2", "n1")}, nodes: []*api.Node{node("n1", testTaint1)}, excluded: []string{"excludedTaint1", "testTaint1"}, want: 0},
		{name: "Pods not tolerating excluded node taints (by key and value) should not be evicted", line: 378,
			pods: []*api.Pod{pod("p2", "n1")}, nodes: []*api.Node{node("n1", testTaint1)}, excluded: []string{"testTaint1=test1"}, want: 0},
		{name: "The excluded taint matches the key of node1's taint, but does not match the value", line: 389,
			pods: []*api.Pod{pod("p2", "n1")}, nodes: []*api.Node{node("n1", testTaint1)}, excluded: []string{"testTaint1=test2"}, want: 1},
		{name: "Critical and non critical pods, pods not tolerating node taint can't be evicted because the only available node does not have enough resources.", line: 400,
			pods:  []*api.Pod{pod("p2", "n1"), pod("p7", "n2", critical), pod("p10", "n2", mirror)},
			nodes: []*api.Node{node("n1", testTaint1), buildNode("n6", 1, 1, 1, preferTaint1)}, evictSysCrit: true, nodeFit: true, want: 0},
		{name: "Pods tolerating included taints should not get evicted even with other taints present", line: 416,
			pods: []*api.Pod{pod("p1", "n1", tol1)}, nodes: []*api.Node{node("n7", bothTaints1)}, included: []string{"testTaint1=test1"}, want: 0},
		{name: "Pods not tolerating not included taints should not get evicted", line: 427,
			pods:  []*api.Pod{pod("p1", "n1", tol1), pod("p2", "n1"), pod("p4", "n1", tolX1)},
			nodes: []*api.Node{node("n1", testTaint1)}, included: []string{"testTaint2=test2"}, want: 0},
		{name: "Pods tolerating includedTaint should not get evicted. Pods not tolerating includedTaints should get evicted", line: 440,
			pods:  []*api.Pod{pod("p1", "n1", tol1), pod("p2", "n1"), pod("p3", "n1", tol1)},
			nodes: []*api.Node{node("n1", testTaint1)}, included: []string{"testTaint1=test1"}, want: 1},
		{name: "Pods not tolerating all taints are evicted when includedTaints is empty", line: 453,
			pods:  []*api.Pod{pod("p14", "n7", tol1), pod("p15", "n7", tol1, tolerate("testingTaint", "testing", 1, api.TaintEffectNoSchedule))},
			nodes: []*api.Node{node("n7", bothTaints1)}, want: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ev := EvictorArgs{EvictLocalStoragePods: tc.evictLocalStorage, EvictSystemCriticalPods: tc.evictSysCrit, NodeFit: tc.nodeFit}
			pol := oneProfile(NodeTaintsName, ev, PluginArgs{NodeTaints: NodeTaintsArgs{IncludePreferNoSchedule: tc.preferNoSchedule, ExcludedTaints: tc.excluded, IncludedTaints: tc.included}})
			pol.MaxNoOfPodsToEvictPerNode, pol.MaxNoOfPodsToEvictPerNamespace, pol.MaxNoOfPodsToEvictTotal = tc.perNode, tc.perNS, tc.total
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if len(got) != tc.want {
				t.Fatalf("node_taint_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
		})
	}
}

// TestUpstreamToleratesTaint ports TestToleratesTaint
// (node_taint_test.go:521), all 6 cases, against api.Toleration's
// ToleratesTaint, which the plugin uses.
func TestUpstreamToleratesTaint(t *testing.T) {
	ns := api.TaintEffectNoSchedule
	cases := []struct {
		name string
		line int
		tol  api.Toleration
		tnt  api.Taint
		want bool
	}{
		{"same key and effect, Exists, taint has no value", 528, api.Toleration{Key: "foo", Operator: api.TolerationOpExists, Effect: ns}, api.Taint{Key: "foo", Effect: ns}, true},
		{"same key and effect, Exists, taint has some value", 541, api.Toleration{Key: "foo", Operator: api.TolerationOpExists, Effect: ns}, api.Taint{Key: "foo", Value: "bar", Effect: ns}, true},
		{"same effect, empty key and Exists matches all taints", 555, api.Toleration{Operator: api.TolerationOpExists, Effect: ns}, api.Taint{Key: "foo", Value: "bar", Effect: ns}, true},
		{"same key, effect and value, Equal", 569, api.Toleration{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: ns}, api.Taint{Key: "foo", Value: "bar", Effect: ns}, true},
		{"same key and effect, different values, Equal", 584, api.Toleration{Key: "foo", Operator: api.TolerationOpEqual, Value: "value1", Effect: ns}, api.Taint{Key: "foo", Value: "value2", Effect: ns}, false},
		{"same key and value, different effects, Equal", 599, api.Toleration{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: ns}, api.Taint{Key: "foo", Value: "bar", Effect: api.TaintEffectNoExecute}, false},
	}
	for _, tc := range cases {
		if got := tc.tol.ToleratesTaint(&tc.tnt); got != tc.want {
			t.Errorf("node_taint_test.go:%d %s: tolerated %t, want %t", tc.line, tc.name, got, tc.want)
		}
	}
}
