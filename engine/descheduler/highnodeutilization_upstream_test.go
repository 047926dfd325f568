package descheduler

import (
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamHighNodeUtilization ports TestHighNodeUtilization
// (pkg/framework/plugins/nodeutilization/highnodeutilization_test.go:36),
// its first 13 cases, with DefaultEvictor nodeFit (:487). Left out: "with
// extended resource threshold and no extended resource pods" (:423),
// which sets evictionModes, an option podlab does not model.
// lowPriority/highPriority/extendedResource are nodeutilization_test.go:58–60.
func TestUpstreamHighNodeUtilization(t *testing.T) {
	const ext = "example.com/foo"
	low, high := int32(0), int32(10000)
	rs := func(name string, cpu int64, node string, edit ...func(*api.Pod)) *api.Pod {
		return buildPod(name, cpu, 0, node, append([]func(*api.Pod){rsOwner}, edit...)...)
	}
	ds := func(p *api.Pod) { p.OwnerReferences = []api.OwnerReference{{Kind: "DaemonSet", APIVersion: "v1"}} }
	critical := func(p *api.Pod) {
		normalOwner(p)
		p.Namespace = "kube-system"
		p.Spec.Priority = ptr(api.SystemCriticalPriority)
	}
	mirror := func(p *api.Pod) {
		normalOwner(p)
		p.Annotations = map[string]string{"kubernetes.io/config.source": "api", "kubernetes.io/config.mirror": "mirror"}
	}
	prio := func(v int32) func(*api.Pod) { return func(p *api.Pod) { p.Spec.Priority = ptr(v) } }
	extReq := func(n int64) func(*api.Pod) {
		return func(p *api.Pod) { p.Spec.Containers[0].Resources.Requests[ext] = api.Units(n) }
	}
	extNode := func(n int64) func(*api.Node) {
		return func(nd *api.Node) { nd.Status.Capacity[ext] = api.Units(n); nd.Status.Allocatable[ext] = api.Units(n) }
	}
	unsched := func(n *api.Node) { n.Spec.Unschedulable = true }
	west := func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"datacenter": "west"} }
	node := buildNode
	cases := []struct {
		name       string
		line       int
		thresholds Thresholds
		nodes      []*api.Node
		pods       []*api.Pod
		want       int
		evicted    []string
	}{
		{"no node below threshold usage", 57, Thresholds{"cpu": 20, "pods": 20},
			[]*api.Node{node("n1", 4000, 3000, 10), node("n2", 4000, 3000, 10), node("n3", 4000, 3000, 10)},
			[]*api.Pod{rs("p1", 400, "n1"), rs("p2", 400, "n1"), rs("p3", 400, "n1"), rs("p4", 400, "n2"), rs("p5", 400, "n2"), rs("p6", 400, "n2"),
				rs("p7", 400, "n3"), rs("p8", 400, "n3"), rs("p9", 400, "n3")}, 0, nil},
		{"no evictable pods", 84, Thresholds{"cpu": 40, "pods": 40},
			[]*api.Node{node("n1", 4000, 3000, 9), node("n2", 4000, 3000, 10), node("n3", 4000, 3000, 10)},
			[]*api.Pod{buildPod("p1", 400, 0, "n1", mirror), buildPod("p2", 400, 0, "n1", critical), buildPod("p3", 400, 0, "n2", ds), buildPod("p4", 400, 0, "n2", ds),
				rs("p5", 400, "n3"), rs("p6", 400, "n3"), rs("p7", 400, "n3"), rs("p8", 400, "n3")}, 0, nil},
		{"no node to schedule evicted pods", 120, Thresholds{"cpu": 20, "pods": 20},
			[]*api.Node{node("n1", 4000, 3000, 10), node("n2", 4000, 3000, 10), node("n3", 4000, 3000, 10, unsched)},
			[]*api.Pod{rs("p1", 400, "n1"), rs("p2", 400, "n2"), rs("p3", 400, "n3"), rs("p4", 400, "n3"), rs("p5", 400, "n3")}, 0, nil},
		{"without priorities", 142, Thresholds{"cpu": 30, "pods": 30},
			[]*api.Node{node("n1", 4000, 3000, 10), node("n2", 4000, 3000, 10), node("n3", 4000, 3000, 10, unsched)},
			[]*api.Pod{rs("p1", 400, "n1"), buildPod("p2", 400, 0, "n1", critical), rs("p3", 400, "n2"), rs("p4", 400, "n2"), rs("p5", 400, "n2"), rs("p6", 400, "n2"),
				rs("p7", 400, "n3")}, 2, []string{"p1", "p7"}},
		{"without priorities stop when resource capacity is depleted", 172, Thresholds{"cpu": 30, "pods": 30},
			[]*api.Node{node("n1", 2000, 3000, 10), node("n2", 2000, 3000, 10), node("n3", 2000, 3000, 10, unsched)},
			[]*api.Pod{rs("p1", 400, "n1"), rs("p2", 400, "n2"), rs("p3", 400, "n2"), rs("p4", 400, "n2"), rs("p5", 400, "n2"), rs("p6", 400, "n3")}, 1, nil},
		{"with priorities", 194, Thresholds{"cpu": 30},
			[]*api.Node{node("n1", 4000, 3000, 10), node("n2", 2000, 3000, 10), node("n3", 2000, 3000, 10, unsched)},
			[]*api.Pod{rs("p1", 400, "n1", prio(low)), rs("p2", 400, "n1", prio(high)), rs("p5", 400, "n2"), rs("p6", 400, "n2"), rs("p7", 400, "n2"), rs("p8", 400, "n2"),
				buildPod("p9", 400, 0, "n3", ds)}, 1, []string{"p1"}},
		{"without priorities evicting best-effort pods only", 224, Thresholds{"cpu": 30},
			[]*api.Node{node("n1", 3000, 3000, 10), node("n2", 3000, 3000, 5), node("n3", 3000, 3000, 10, unsched)},
			[]*api.Pod{buildPod("p1", -1, -1, "n1", rsOwner), rs("p2", 400, "n1"), rs("p3", 400, "n2"), rs("p4", 400, "n2"), rs("p5", 400, "n2"), rs("p6", 400, "n2")},
			1, []string{"p1"}},
		{"with extended resource", 250, Thresholds{"cpu": 20, ext: 40},
			[]*api.Node{node("n1", 4000, 3000, 10, extNode(8)), node("n2", 4000, 3000, 10, extNode(8)), node("n3", 4000, 3000, 10, unsched)},
			[]*api.Pod{rs("p1", 100, "n1", extReq(1)), rs("p2", 100, "n1", extReq(1)), rs("p3", 500, "n2", extReq(1)), rs("p4", 500, "n2", extReq(1)),
				rs("p5", 500, "n2", extReq(1)), rs("p6", 500, "n2", extReq(1))}, 2, []string{"p1", "p2"}},
		{"with extended resource in some of nodes", 295, Thresholds{"cpu": 40, ext: 40},
			[]*api.Node{node("n1", 4000, 3000, 10, extNode(8)), node("n2", 4000, 3000, 10), node("n3", 4000, 3000, 10, unsched)},
			[]*api.Pod{rs("p1", 100, "n1", extReq(1)), rs("p2", 100, "n1", extReq(1)), rs("p3", 500, "n2"), rs("p4", 500, "n2"), rs("p5", 500, "n2"), rs("p6", 500, "n2")}, 0, nil},
		{"Other node match pod node selector", 325, Thresholds{"cpu": 30, "pods": 30},
			[]*api.Node{node("n1", 4000, 3000, 9, nodeLabels("datacenter", "west")), node("n2", 4000, 3000, 10)},
			[]*api.Pod{rs("p1", 400, "n1"), rs("p2", 400, "n1"), rs("p3", 400, "n1"), buildPod("p4", 400, 0, "n1", ds), rs("p5", 400, "n2", west)}, 1, nil},
		{"Other node does not match pod node selector", 354, Thresholds{"cpu": 30, "pods": 30},
			[]*api.Node{node("n1", 4000, 3000, 9), node("n2", 4000, 3000, 10)},
			[]*api.Pod{rs("p1", 400, "n1"), rs("p2", 400, "n1"), rs("p3", 400, "n1"), buildPod("p4", 400, 0, "n1", ds), rs("p5", 400, "n2", west)}, 0, nil},
		{"Other node does not have enough Memory", 379, Thresholds{"cpu": 30, "pods": 30},
			[]*api.Node{node("n1", 4000, 200, 9), node("n2", 4000, 3000, 10)},
			[]*api.Pod{buildPod("p1", 400, 50, "n1", rsOwner), buildPod("p2", 400, 50, "n1", rsOwner), buildPod("p3", 400, 50, "n1", rsOwner), buildPod("p4", 400, 50, "n1", ds),
				buildPod("p5", 400, 100, "n2", rsOwner)}, 0, nil},
		{"Other node does not have enough Memory (second copy)", 401, Thresholds{"cpu": 30, "pods": 30},
			[]*api.Node{node("n1", 4000, 200, 9), node("n2", 4000, 3000, 10)},
			[]*api.Pod{buildPod("p1", 400, 50, "n1", rsOwner), buildPod("p2", 400, 50, "n1", rsOwner), buildPod("p3", 400, 50, "n1", rsOwner), buildPod("p4", 400, 50, "n1", ds),
				buildPod("p5", 400, 100, "n2", rsOwner)}, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(HighNodeUtilizationName, EvictorArgs{NodeFit: true}, PluginArgs{HighNodeUtilization: HighNodeUtilizationArgs{Thresholds: tc.thresholds}})
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if len(got) != tc.want {
				t.Fatalf("highnodeutilization_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
			for _, w := range tc.evicted {
				if !slices.Contains(got, w) {
					t.Fatalf("highnodeutilization_test.go:%d: evicted %v, want %v", tc.line, got, tc.evicted)
				}
			}
		})
	}
}

// TestUpstreamHighNodeUtilizationWithTaints ports
// TestHighNodeUtilizationWithTaints (highnodeutilization_test.go:532):
// maxPodsToEvictPerNode is the expected count, thresholds cpu 40.
func TestUpstreamHighNodeUtilizationWithTaints(t *testing.T) {
	n := func(name string, edit ...func(*api.Node)) *api.Node { return buildNode(name, 1000, 3000, 10, edit...) }
	tainted := func(nd *api.Node) {
		nd.Spec.Taints = []api.Taint{{Key: "key", Value: "value", Effect: api.TaintEffectNoSchedule}}
	}
	rs := func(name string, cpu int64, node string) *api.Pod { return buildPod(name, cpu, 0, node, rsOwner) }
	tolerating := buildPod("tolerate_pod", 200, 0, "n1", rsOwner, func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: "key", Value: "value"}}
	})
	cases := []struct {
		name  string
		line  int
		nodes []*api.Node
		pods  []*api.Pod
		want  uint
	}{
		{"No taints", 560, []*api.Node{n("n1"), n("n2"), n("n3")},
			[]*api.Pod{rs("pod_1_n1", 200, "n1"), rs("pod_2_n1", 200, "n1"), rs("pod_3_n1", 200, "n1"), rs("pod_4_n2", 200, "n2")}, 1},
		{"No pod tolerates node taint", 573, []*api.Node{n("n1"), n("n3", tainted)},
			[]*api.Pod{rs("pod_1_n1", 200, "n1"), rs("pod_2_n3", 200, "n3")}, 0},
		{"Pod which tolerates node taint", 584, []*api.Node{n("n1"), n("n3", tainted)},
			[]*api.Pod{rs("pod_1_n1", 100, "n1"), tolerating, rs("pod_9_n3", 500, "n3")}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(HighNodeUtilizationName, EvictorArgs{}, PluginArgs{HighNodeUtilization: HighNodeUtilizationArgs{Thresholds: Thresholds{"cpu": 40}}})
			pol.MaxNoOfPodsToEvictPerNode = &tc.want
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if uint(len(got)) != tc.want {
				t.Fatalf("highnodeutilization_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
		})
	}
}
