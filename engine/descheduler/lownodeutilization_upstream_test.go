package descheduler

import (
	"fmt"
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamLowNodeUtilization ports the TestLowNodeUtilization cases
// (pkg/framework/plugins/nodeutilization/lownodeutilization_test.go:47)
// that nodeutilization_test.go's TestLowNodeUtilization does not, with
// the DefaultEvictor's nodeFit as upstream's runner sets it (:1209). The
// requested-usage expectation (expectedPodsEvicted) is checked; the
// metrics variant and "different evictions for requested and actual
// resources" (:1001) are left out with actual-usage metrics.
func TestUpstreamLowNodeUtilization(t *testing.T) {
	const ext = "example.com/foo"
	cpuPods := func(v float64) Thresholds { return Thresholds{api.ResourceCPU: v, api.ResourcePods: v} }
	extPods := func(pods, e float64) Thresholds { return Thresholds{api.ResourcePods: pods, ext: e} }
	unsched := func(n *api.Node) { n.Spec.Unschedulable = true }
	extNode := func(n int64) func(*api.Node) {
		return func(nd *api.Node) { nd.Status.Capacity[ext] = api.Units(n); nd.Status.Allocatable[ext] = api.Units(n) }
	}
	extReq := func(n int64) func(*api.Pod) {
		return func(p *api.Pod) { p.Spec.Containers[0].Resources.Requests[ext] = api.Units(n) }
	}
	threeNodes := func(n1, n2 []func(*api.Node)) []*api.Node {
		return []*api.Node{buildNode("n1", 4000, 3000, 9, n1...), buildNode("n2", 4000, 3000, 10, n2...), buildNode("n3", 4000, 3000, 10, unsched)}
	}
	prio := func(v int32) func(*api.Pod) { return func(p *api.Pod) { p.Spec.Priority = ptr(v) } }
	bestEffort := func(p *api.Pod) { p.Spec.Containers[0].Resources.Requests = api.ResourceList{} }
	// The protected trio of most cases (p6 DaemonSet, p7 mirror with local storage, p8 critical).
	protected := func(cpu, mem int64, edit ...func(*api.Pod)) []*api.Pod {
		with := func(f func(*api.Pod)) []func(*api.Pod) { return append([]func(*api.Pod){f}, edit...) }
		return []*api.Pod{
			buildPod("p6", cpu, mem, "n1", with(dsOwner)...),
			buildPod("p7", cpu, mem, "n1", with(func(p *api.Pod) {
				normalOwner(p)
				p.Annotations = map[string]string{"kubernetes.io/config.source": "api", "kubernetes.io/config.mirror": "mirror"}
			})...),
			buildPod("p8", cpu, mem, "n1", with(func(p *api.Pod) {
				normalOwner(p)
				p.Namespace = "kube-system"
				p.Spec.Priority = ptr(api.SystemCriticalPriority)
			})...),
		}
	}
	rs := func(name string, cpu int64, node string, edit ...func(*api.Pod)) *api.Pod {
		return buildPod(name, cpu, 0, node, append([]func(*api.Pod){rsOwner}, edit...)...)
	}
	five := func(edit ...func(*api.Pod)) []*api.Pod {
		var out []*api.Pod
		for i := 1; i <= 5; i++ {
			out = append(out, rs(fmt.Sprintf("p%d", i), 400, "n1", edit...))
		}
		return out
	}
	join := func(lists ...[]*api.Pod) []*api.Pod {
		var out []*api.Pod
		for _, l := range lists {
			out = append(out, l...)
		}
		return out
	}
	ns := func(n string) func(*api.Pod) { return func(p *api.Pod) { p.Namespace = n } }
	west := func(p *api.Pod) { normalOwner(p); p.Spec.NodeSelector = map[string]string{"datacenter": "west"} }
	westAffinity := func(p *api.Pod) {
		normalOwner(p)
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "datacenter", Operator: "In", Values: []string{"west"}}}}}}}}
	}
	east := nodeLabels("datacenter", "east")
	n2Pod := rs("p9", 400, "n2")
	cases := []struct {
		name    string
		line    int
		args    LowNodeUtilizationArgs
		nodes   []*api.Node
		pods    []*api.Pod
		want    int
		evicted []string
	}{
		{name: "without priorities, but include only default namespace", line: 245,
			args:  LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50), EvictableNamespaces: &Namespaces{Include: []string{"default"}}},
			nodes: threeNodes(nil, nil),
			pods: join([]*api.Pod{rs("p1", 400, "n1"), rs("p2", 400, "n1"), buildPod("p3", 400, 0, "n1", ns("namespace3")),
				buildPod("p4", 400, 0, "n1", ns("namespace4")), buildPod("p5", 400, 0, "n1", ns("namespace5"))}, protected(400, 0), []*api.Pod{n2Pod}),
			want: 2},
		{name: "without priorities stop when cpu capacity is depleted", line: 312,
			args: LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50)}, nodes: threeNodes(nil, nil),
			pods: join(five(), protected(400, 0), []*api.Pod{rs("p9", 400, "n2")}), want: 4},
		{name: "with priorities", line: 365,
			args: LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50)}, nodes: threeNodes(nil, nil),
			pods: join([]*api.Pod{rs("p1", 400, "n1", prio(10000)), rs("p2", 400, "n1", prio(10000)), rs("p3", 400, "n1", prio(10000)),
				rs("p4", 400, "n1", prio(10000)), rs("p5", 400, "n1", prio(0))}, protected(400, 0), []*api.Pod{rs("p9", 400, "n2")}), want: 4},
		{name: "without priorities evicting best-effort pods only", line: 437,
			args: LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50)}, nodes: threeNodes(nil, nil),
			pods: join([]*api.Pod{rs("p1", 400, "n1", bestEffort), rs("p2", 400, "n1", bestEffort), rs("p3", 400, "n1"),
				rs("p4", 400, "n1", bestEffort), rs("p5", 400, "n1", bestEffort)}, protected(400, 0), []*api.Pod{rs("p9", 400, "n2")}),
			want: 4, evicted: []string{"p1", "p2", "p4", "p5"}},
		{name: "with extended resource", line: 504,
			args:  LowNodeUtilizationArgs{Thresholds: extPods(30, 30), TargetThresholds: extPods(50, 50)},
			nodes: []*api.Node{buildNode("n1", 4000, 3000, 9, extNode(8)), buildNode("n2", 4000, 3000, 10, extNode(8)), buildNode("n3", 4000, 3000, 10, unsched)},
			pods: join([]*api.Pod{rs("p1", 0, "n1", extReq(1)), rs("p2", 0, "n1", extReq(1)), rs("p3", 0, "n1", extReq(1)), rs("p4", 0, "n1", extReq(1)),
				rs("p5", 0, "n1", extReq(1)), buildPod("p6", 0, 0, "n1", normalOwner, extReq(1))},
				protected(0, 0, extReq(1))[1:], []*api.Pod{rs("p9", 0, "n2", extReq(1))}),
			want: 3},
		{name: "with extended resource in some of nodes", line: 586,
			args:  LowNodeUtilizationArgs{Thresholds: extPods(30, 30), TargetThresholds: extPods(50, 50)},
			nodes: []*api.Node{buildNode("n1", 4000, 3000, 9, extNode(8)), buildNode("n2", 4000, 3000, 10), buildNode("n3", 4000, 3000, 10, unsched)},
			pods:  []*api.Pod{rs("p1", 0, "n1", extReq(1)), rs("p9", 0, "n2")}},
		{name: "with extended resource in some of nodes with deviation", line: 627,
			args:  LowNodeUtilizationArgs{Thresholds: extPods(5, 10), TargetThresholds: extPods(5, 10), UseDeviationThresholds: true},
			nodes: []*api.Node{buildNode("n1", 4000, 3000, 10, extNode(8)), buildNode("n2", 4000, 3000, 10, extNode(8)), buildNode("n3", 4000, 3000, 10, unsched)},
			pods:  []*api.Pod{rs("p1", 0, "n1", extReq(1)), rs("p2", 0, "n2", extReq(7)), rs("p3", 0, "n2"), rs("p8", 0, "n3"), rs("p9", 0, "n3")},
			want:  1},
		{name: "without priorities, but only other node is unschedulable", line: 677,
			args:  LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50)},
			nodes: []*api.Node{buildNode("n1", 4000, 3000, 9), buildNode("n2", 4000, 3000, 10, unsched)},
			pods:  join(five(), protected(400, 0))},
		{name: "without priorities, but only other node doesn't match pod node selector for p4 and p5", line: 727,
			args:  LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50)},
			nodes: []*api.Node{buildNode("n1", 4000, 3000, 9), buildNode("n2", 4000, 3000, 10, east)},
			pods: join([]*api.Pod{rs("p1", 400, "n1"), rs("p2", 400, "n1"), rs("p3", 400, "n1"), buildPod("p4", 400, 0, "n1", west), buildPod("p5", 400, 0, "n1", west)},
				protected(400, 0)),
			want: 3},
		{name: "without priorities, but only other node doesn't match pod node affinity for p4 and p5", line: 791,
			args:  LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50)},
			nodes: []*api.Node{buildNode("n1", 4000, 3000, 9), buildNode("n2", 4000, 3000, 10, east)},
			pods: join([]*api.Pod{rs("p1", 400, "n1"), rs("p2", 400, "n1"), rs("p3", 400, "n1"), buildPod("p4", 400, 0, "n1", westAffinity),
				buildPod("p5", 400, 0, "n1", westAffinity)}, protected(400, 0), []*api.Pod{rs("p9", 0, "n2")}),
			want: 3},
		{name: "deviation thresholds and overevicting memory", line: 939,
			args:  LowNodeUtilizationArgs{Thresholds: cpuPods(5), TargetThresholds: cpuPods(5), UseDeviationThresholds: true},
			nodes: []*api.Node{buildNode("n1", 4000, 3000, 10), buildNode("n2", 4000, 3000, 10), buildNode("n3", 4000, 3000, 10, unsched)},
			pods: join([]*api.Pod{buildPod("p1", 400, 375, "n1", rsOwner), buildPod("p2", 400, 375, "n1", rsOwner), buildPod("p3", 400, 375, "n1", rsOwner),
				buildPod("p4", 400, 375, "n1", rsOwner), buildPod("p5", 400, 375, "n1", rsOwner)}, protected(400, 375), []*api.Pod{buildPod("p9", 400, 3000, "n2", rsOwner)})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(LowNodeUtilizationName, EvictorArgs{NodeFit: true}, PluginArgs{LowNodeUtilization: tc.args})
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if len(got) != tc.want {
				t.Fatalf("lownodeutilization_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
			for _, w := range tc.evicted {
				if !slices.Contains(got, w) {
					t.Fatalf("lownodeutilization_test.go:%d: evicted %v, want %v", tc.line, got, tc.evicted)
				}
			}
		})
	}
}

// TestUpstreamLowNodeUtilizationWithTaints ports
// TestLowNodeUtilizationWithTaints (lownodeutilization_test.go:1248):
// thresholds pods 20 / targets pods 70, maxPodsToEvictPerNode is the
// expected count (:1370; the last case's maxPodsToEvictTotal is never
// passed to the evictor), nodeFit on.
func TestUpstreamLowNodeUtilizationWithTaints(t *testing.T) {
	n1 := func() *api.Node { return buildNode("n1", 2000, 3000, 10) }
	n2 := func() *api.Node { return buildNode("n2", 1000, 3000, 10) }
	n3 := func(taint bool) *api.Node {
		return buildNode("n3", 1000, 3000, 10, func(n *api.Node) {
			if taint {
				n.Spec.Taints = []api.Taint{{Key: "key", Value: "value", Effect: api.TaintEffectNoSchedule}}
			}
		})
	}
	onN1 := func(k int) []*api.Pod {
		var out []*api.Pod
		for i := 1; i <= k; i++ {
			out = append(out, buildPod(fmt.Sprintf("pod_%d_n1", i), 200, 0, "n1", rsOwner))
		}
		return out
	}
	tolerating := func() *api.Pod {
		return buildPod("tolerate_pod", 200, 0, "n1", rsOwner, func(p *api.Pod) { p.Spec.Tolerations = []api.Toleration{{Key: "key", Value: "value"}} })
	}
	cases := []struct {
		name  string
		line  int
		nodes []*api.Node
		pods  []*api.Pod
		want  uint
	}{
		{"No taints", 1281, []*api.Node{n1(), n2(), n3(false)}, append(onN1(8), buildPod("pod_9_n2", 200, 0, "n2", rsOwner)), 1},
		{"No pod tolerates node taint", 1299, []*api.Node{n1(), n3(true)}, append(onN1(8), buildPod("pod_9_n3", 200, 0, "n3", rsOwner)), 0},
		{"Pod which tolerates node taint", 1317, []*api.Node{n1(), n3(true)}, append(onN1(7), tolerating(), buildPod("pod_9_n3", 200, 0, "n3", rsOwner)), 1},
		{"Pod which tolerates node taint, set maxPodsToEvictTotal(0), should not be expelled", 1335, []*api.Node{n1(), n3(true)},
			append(onN1(7), tolerating(), buildPod("pod_9_n3", 200, 0, "n3", rsOwner)), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(LowNodeUtilizationName, EvictorArgs{NodeFit: true}, PluginArgs{LowNodeUtilization: LowNodeUtilizationArgs{
				Thresholds: Thresholds{api.ResourcePods: 20}, TargetThresholds: Thresholds{api.ResourcePods: 70}}})
			pol.MaxNoOfPodsToEvictPerNode = &tc.want
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if uint(len(got)) != tc.want {
				t.Fatalf("lownodeutilization_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
		})
	}
}

// TestUpstreamSortNodesByUsage ports TestSortNodesByUsage
// (nodeutilization/nodeutilization_test.go:63), both cases, descending
// and ascending: the sum of milli-cpu, bytes and counts.
func TestUpstreamSortNodesByUsage(t *testing.T) {
	nu := func(name string, r resources) *nodeUsage {
		return &nodeUsage{node: buildNode(name, 0, 0, 0), usage: r}
	}
	cases := []struct {
		name  string
		line  int
		nodes func() []*nodeUsage
		want  []string // descending
	}{
		{"cpu memory pods", 70, func() []*nodeUsage {
			return []*nodeUsage{
				nu("node1", resources{"cpu": 1730, "memory": 3038982964, "pods": 25}),
				nu("node2", resources{"cpu": 1220, "memory": 3038982964, "pods": 11}),
				nu("node3", resources{"cpu": 1530, "memory": 5038982964, "pods": 20}),
			}
		}, []string{"node3", "node1", "node2"}},
		{"memory", 97, func() []*nodeUsage {
			return []*nodeUsage{nu("node1", resources{"memory": 3038982964}), nu("node2", resources{"memory": 2038982964}), nu("node3", resources{"memory": 5038982964})}
		}, []string{"node3", "node1", "node2"}},
	}
	for _, tc := range cases {
		for _, ascending := range []bool{false, true} {
			us := tc.nodes()
			sortByUsage(us, ascending)
			for i, u := range us {
				want := tc.want[i]
				if ascending {
					want = tc.want[len(us)-1-i]
				}
				if u.node.Name != want {
					t.Errorf("nodeutilization_test.go:%d %s (ascending %t): position %d is %s, want %s", tc.line, tc.name, ascending, i, u.node.Name, want)
				}
			}
		}
	}
}
