package descheduler

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamRemovePodsViolatingNodeAffinity ports
// TestRemovePodsViolatingNodeAffinity
// (pkg/framework/plugins/removepodsviolatingnodeaffinity/node_affinity_test.go:62),
// all 22 cases. addPodsToNode (:63) puts podWithNodeAffinity, pod1 and
// pod2 (owned, 100m) on a node; only the first has an affinity.
func TestUpstreamRemovePodsViolatingNodeAffinity(t *testing.T) {
	const key, value = "kubernetes.io/desiredNode", "yes"
	term := api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: "In", Values: []string{value}}}}
	addPodsToNode := func(node string, deleting bool, typ string) []*api.Pod {
		common := func(p *api.Pod) {
			normalOwner(p)
			if deleting {
				terminating(p)
			}
		}
		withAffinity := buildPod("podWithNodeAffinity", 100, 0, node, func(p *api.Pod) {
			p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{}}
			switch typ {
			case requiredAffinity:
				p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{term}}
			case preferredAffinity:
				p.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = []api.PreferredSchedulingTerm{{Weight: 10, Preference: term}}
			}
		}, common)
		return []*api.Pod{withAffinity, buildPod("pod1", 100, 0, node, common), buildPod("pod2", 100, 0, node, common)}
	}
	node := func(name string, edit ...func(*api.Node)) *api.Node { return buildNode(name, 2000, 3000, 10, edit...) }
	labelled := nodeLabels(key, value)
	withLabels := func() *api.Node { return node("nodeWithLabels", labelled) }
	withoutLabels := func() *api.Node { return node("nodeWithoutLabels") }
	unschedulable := func() *api.Node {
		return node("unschedulableNodeWithLabels", labelled, func(n *api.Node) { n.Spec.Unschedulable = true })
	}
	zero, one := ptr(uint(0)), ptr(uint(1))
	req, pref := requiredAffinity, preferredAffinity
	type tcase struct {
		name                string
		line                int
		typ                 string
		pods                []*api.Pod
		nodes               []*api.Node
		perNode, perNS, tot *uint
		nodeFit             bool
		want                int
	}
	cases := []tcase{
		{name: "Invalid Affinity type, should not evict any pods", line: 141, typ: "requiredDuringSchedulingRequiredDuringExecution",
			pods: addPodsToNode("nodeWithoutLabels", false, ""), nodes: []*api.Node{withoutLabels(), withLabels()}},
		{name: "Pod is correctly scheduled on node, no eviction expected [required affinity]", line: 153, typ: req,
			pods: addPodsToNode("nodeWithLabels", false, req), nodes: []*api.Node{withLabels()}},
		{name: "Pod is correctly scheduled on node, no eviction expected [preferred affinity]", line: 164, typ: pref,
			pods: addPodsToNode("nodeWithLabels", false, pref), nodes: []*api.Node{withLabels()}},
		{name: "Pod is scheduled on node without matching labels, another schedulable node available, should be evicted", line: 175, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", false, req), nodes: []*api.Node{withoutLabels(), withLabels()}, want: 1},
		{name: "Pod is scheduled on node without matching labels, another schedulable node available with better fit, should be evicted", line: 187, typ: pref,
			pods: addPodsToNode("nodeWithoutLabels", false, pref), nodes: []*api.Node{withoutLabels(), withLabels()}, want: 1},
		{name: "… maxPodsToEvictPerNode set to 1, should be evicted [required affinity]", line: 199, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", false, req), nodes: []*api.Node{withoutLabels(), withLabels()}, perNode: one, want: 1},
		{name: "… maxPodsToEvictPerNode set to 1, should be evicted [preferred affinity]", line: 212, typ: pref,
			pods: addPodsToNode("nodeWithoutLabels", false, pref), nodes: []*api.Node{withoutLabels(), withLabels()}, perNode: one, want: 1},
		{name: "… maxPodsToEvictPerNode set to 0, should be not evicted [required affinity]", line: 225, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", false, req), nodes: []*api.Node{withoutLabels(), withLabels()}, perNode: zero},
		{name: "… maxPodsToEvictPerNode set to 0, should be not evicted [preferred affinity]", line: 238, typ: pref,
			pods: addPodsToNode("nodeWithoutLabels", false, pref), nodes: []*api.Node{withoutLabels(), withLabels()}, perNode: zero},
		{name: "… maxPodsToEvictPerNode set to 1, no pod evicted since pod terminating [required affinity]", line: 251, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", true, req), nodes: []*api.Node{withoutLabels(), withLabels()}, perNode: one},
		{name: "… maxPodsToEvictPerNode set to 1, no pod evicted since pod terminating [preferred affinity]", line: 264, typ: pref,
			pods: addPodsToNode("nodeWithoutLabels", true, pref), nodes: []*api.Node{withoutLabels(), withLabels()}, perNode: one},
		{name: "… maxNoOfPodsToEvictPerNamespace set to 1, should be evicted [required affinity]", line: 277, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", false, req), nodes: []*api.Node{withoutLabels(), withLabels()}, perNS: one, want: 1},
		{name: "… maxNoOfPodsToEvictTotal set to 0, should not be evicted [required affinity]", line: 290, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", false, req), nodes: []*api.Node{withoutLabels(), withLabels()}, perNS: one, tot: zero},
		{name: "… maxNoOfPodsToEvictPerNamespace set to 1, should be evicted [preferred affinity]", line: 304, typ: pref,
			pods: addPodsToNode("nodeWithoutLabels", false, pref), nodes: []*api.Node{withoutLabels(), withLabels()}, perNS: one, want: 1},
		{name: "… maxNoOfPodsToEvictPerNamespace set to 0, should not be evicted [required affinity]", line: 317, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", false, req), nodes: []*api.Node{withoutLabels(), withLabels()}, perNS: zero},
		{name: "… maxNoOfPodsToEvictPerNamespace set to 0, should not be evicted [preferred affinity]", line: 330, typ: pref,
			pods: addPodsToNode("nodeWithoutLabels", false, pref), nodes: []*api.Node{withoutLabels(), withLabels()}, perNS: zero},
		{name: "… maxNoOfPodsToEvictPerNamespace set to 1, no pod evicted since pod terminting [required affinity]", line: 343, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", true, req), nodes: []*api.Node{withoutLabels(), withLabels()}, perNS: one},
		{name: "… maxNoOfPodsToEvictPerNamespace set to 1, no pod evicted since pod terminting [preferred affinity]", line: 356, typ: pref,
			pods: addPodsToNode("nodeWithoutLabels", true, pref), nodes: []*api.Node{withoutLabels(), withLabels()}, perNS: one},
		{name: "Pod is scheduled on node without matching labels, but no node where pod fits is available, should not evict [required affinity]", line: 369, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", false, req), nodes: []*api.Node{withoutLabels(), unschedulable()}, nodeFit: true},
		{name: "Pod is scheduled on node without matching labels, but no node where pod fits is available, should not evict [preferred affinity]", line: 382, typ: pref,
			pods: addPodsToNode("nodeWithoutLabels", false, pref), nodes: []*api.Node{withoutLabels(), unschedulable()}, nodeFit: true},
		{name: "Pod is scheduled on node without matching labels, and unschedulable node where pod could fit is available, should not evict [required affinity]", line: 395, typ: req,
			pods: addPodsToNode("nodeWithoutLabels", false, req), nodes: []*api.Node{withLabels(), unschedulable()}, perNode: one, nodeFit: true},
		{name: "Pod is scheduled on node without matching labels, and unschedulable node where pod could fit is available, should not evict [preferred affinity]", line: 409, typ: pref,
			pods: addPodsToNode("nodeWithoutLabels", false, pref), nodes: []*api.Node{withLabels(), unschedulable()}, perNode: one, nodeFit: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(NodeAffinityName, EvictorArgs{NodeFit: tc.nodeFit}, PluginArgs{NodeAffinity: NodeAffinityArgs{NodeAffinityType: []string{tc.typ}}})
			pol.MaxNoOfPodsToEvictPerNode, pol.MaxNoOfPodsToEvictPerNamespace, pol.MaxNoOfPodsToEvictTotal = tc.perNode, tc.perNS, tc.tot
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if len(got) != tc.want {
				t.Fatalf("node_affinity_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
		})
	}
}

// TestUpstreamNodeAffinitySelectorOnly pins utils.PodHasNodeAffinity
// (pkg/utils/pod.go:181): a pod with only a nodeSelector its node no
// longer matches is not this plugin's business (podlab used to evict it).
func TestUpstreamNodeAffinitySelectorOnly(t *testing.T) {
	p := buildPod("p", 100, 0, "n1", normalOwner, func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"zone": "a"} })
	pol := oneProfile(NodeAffinityName, EvictorArgs{}, PluginArgs{NodeAffinity: NodeAffinityArgs{NodeAffinityType: []string{requiredAffinity}}})
	got := runDirect(t, pol, &State{Nodes: []*api.Node{buildNode("n1", 2000, 3000, 10), buildNode("n2", 2000, 3000, 10, nodeLabels("zone", "a"))}, Pods: []*api.Pod{p}})
	if len(got) != 0 {
		t.Fatalf("evicted %v, want none", got)
	}
}
