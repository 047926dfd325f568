package descheduler

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamPodAntiAffinity ports TestPodAntiAffinity
// (pkg/framework/plugins/removepodsviolatinginterpodantiaffinity/pod_antiaffinity_test.go:104),
// all 12 cases. test.SetPodAntiAffinity (test/test_utils.go:380) is a
// required term "key In (value)" over topology key "region"; node n1 is
// in region main-region.
func TestUpstreamPodAntiAffinity(t *testing.T) {
	region := nodeLabels("region", "main-region")
	n1 := func() *api.Node { return buildNode("n1", 2000, 3000, 10, region) }
	anti := func(k, v string) func(*api.Pod) {
		return func(p *api.Pod) {
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: k, Operator: "In", Values: []string{v}}}},
				TopologyKey:   "region",
			}}}}
		}
	}
	pod := func(name, node string, edit ...func(*api.Pod)) *api.Pod { return buildPod(name, 100, 0, node, edit...) }
	withAnti := func(name string) *api.Pod { return pod(name, "n1", normalOwner, anti("foo", "bar")) }
	p2 := func() *api.Pod { return pod("p2", "n1", normalOwner, labels("foo", "bar")) }
	prio := func(v int32) func(*api.Pod) { return func(p *api.Pod) { p.Spec.Priority = ptr(v) } }
	nonEvict := func() *api.Pod { return pod("non-evict", "n1", prio(api.SystemCriticalPriority), labels("foo", "bar")) }
	four := func() []*api.Pod { return []*api.Pod{withAnti("p1"), p2(), withAnti("p3"), withAnti("p4")} }
	west := func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"datacenter": "west"} }
	one, three := ptr(uint(1)), ptr(uint(3))
	cases := []struct {
		name                string
		line                int
		perNode, perNS, tot *uint
		pods                []*api.Pod
		nodes               []*api.Node
		nodeFit             bool
		want                int
	}{
		{name: "Maximum pods to evict - 0", line: 118, pods: four(), nodes: []*api.Node{n1()}, want: 3},
		{name: "Maximum pods to evict - 3", line: 131, perNode: three, pods: four(), nodes: []*api.Node{n1()}, want: 3},
		{name: "Maximum pods to evict (maxPodsToEvictPerNamespace=3) - 3", line: 145, perNS: three, pods: four(), nodes: []*api.Node{n1()}, want: 3},
		{name: "Maximum pods to evict (maxNoOfPodsToEvictTotal)", line: 159, perNS: three, tot: one, pods: four(), nodes: []*api.Node{n1()}, want: 1},
		{name: "Evict only 1 pod after sorting", line: 174, pods: []*api.Pod{
			pod("p5", "n1", normalOwner, labels("foo", "bar"), anti("foo1", "bar1"), prio(100)),
			pod("p6", "n1", normalOwner, labels("foo", "bar"), anti("foo1", "bar1"), prio(50)),
			pod("p7", "n1", normalOwner, labels("foo1", "bar1"), anti("foo", "bar"), prio(0)),
		}, nodes: []*api.Node{n1()}, want: 1},
		{name: "Evicts pod that conflicts with critical pod (but does not evict critical pod)", line: 201, perNode: one,
			pods: []*api.Pod{withAnti("p1"), nonEvict()}, nodes: []*api.Node{n1()}, want: 1},
		{name: "Evicts pod that conflicts with critical pod (but does not evict critical pod) (second copy)", line: 213, perNode: one,
			pods: []*api.Pod{withAnti("p1"), nonEvict()}, nodes: []*api.Node{n1()}, want: 1},
		{name: "Won't evict pods because node selectors don't match available nodes", line: 225, perNode: one,
			pods:  []*api.Pod{pod("p8", "n1", west), nonEvict()},
			nodes: []*api.Node{n1(), buildNode("n2", 2000, 3000, 10, nodeLabels("datacenter", "east"))}, nodeFit: true},
		{name: "Won't evict pods because only other node is not schedulable", line: 247, perNode: one,
			pods:  []*api.Pod{pod("p8", "n1", west), nonEvict()},
			nodes: []*api.Node{n1(), buildNode("n3", 2000, 3000, 10, func(n *api.Node) { n.Spec.Unschedulable = true })}, nodeFit: true},
		{name: "No pod to evicted since all pod terminating", line: 269,
			pods:  []*api.Pod{pod("p9", "n1", normalOwner, anti("foo", "bar"), terminating), pod("p10", "n1", normalOwner, anti("foo", "bar"), terminating)},
			nodes: []*api.Node{n1()}},
		{name: "Won't evict pods because only other node doesn't have enough resources", line: 288, perNode: three, pods: four(),
			nodes: []*api.Node{n1(), buildNode("n4", 2, 2, 1)}, nodeFit: true},
		{name: "Evict pod violating anti-affinity among different node (all pods have anti-affinity)", line: 304,
			pods:  []*api.Pod{withAnti("p1"), pod("p11", "n5", normalOwner, labels("foo", "bar"))},
			nodes: []*api.Node{n1(), buildNode("n5", 200, 3000, 10, region)}, want: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(InterPodAntiAffinityName, EvictorArgs{NodeFit: tc.nodeFit}, PluginArgs{})
			pol.MaxNoOfPodsToEvictPerNode, pol.MaxNoOfPodsToEvictPerNamespace, pol.MaxNoOfPodsToEvictTotal = tc.perNode, tc.perNS, tc.tot
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if len(got) != tc.want {
				t.Fatalf("pod_antiaffinity_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
		})
	}
}

// TestUpstreamAntiAffinitySameNodeWithoutKey pins hasSameLabelValue
// (pkg/utils/predicates.go:352): two pods on the same node share a
// domain even when the node lacks the topology key (podlab used to
// require the key).
func TestUpstreamAntiAffinitySameNodeWithoutKey(t *testing.T) {
	a := buildPod("a", 100, 0, "n1", normalOwner, func(p *api.Pod) {
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, TopologyKey: "zone"}}}}
	})
	b := buildPod("b", 100, 0, "n1", normalOwner, labels("app", "x"))
	pol := oneProfile(InterPodAntiAffinityName, EvictorArgs{}, PluginArgs{})
	got := runDirect(t, pol, &State{Nodes: []*api.Node{buildNode("n1", 2000, 3000, 10)}, Pods: []*api.Pod{a, b}})
	if len(got) != 1 || got[0] != "a" {
		t.Fatalf("evicted %v, want [a]", got)
	}
}
