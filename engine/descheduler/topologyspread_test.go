package descheduler

import (
	"fmt"
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// testPodList and createTestPods are upstream's
// (topologyspreadconstraint_test.go:1740).
type testPodList struct {
	count        int
	node         string
	labels       map[string]string
	constraints  []api.TopologySpreadConstraint
	nodeSelector map[string]string
	affinity     *api.Affinity
	noOwners     bool
	tolerations  []api.Toleration
	terminating  bool
}

func createTestPods(lists []testPodList) []*api.Pod {
	var pods []*api.Pod
	n := 0
	for _, tp := range lists {
		for i := 0; i < tp.count; i++ {
			tp := tp
			pods = append(pods, buildPod(fmt.Sprintf("pod-%d", n), 100, 0, tp.node, func(p *api.Pod) {
				p.Labels = tp.labels
				p.Namespace = "ns1"
				if !tp.noOwners {
					rsOwner(p)
				}
				p.Spec.TopologySpreadConstraints = tp.constraints
				p.Spec.NodeSelector = tp.nodeSelector
				p.Spec.Affinity = tp.affinity
				p.Spec.Tolerations = tp.tolerations
				if tp.terminating {
					now := api.Time(0)
					p.DeletionTimestamp = &now
				}
			}))
			n++
		}
	}
	return pods
}

func defaultConstraints(maxSkew int32, edits ...func(*api.TopologySpreadConstraint)) []api.TopologySpreadConstraint {
	c := api.TopologySpreadConstraint{MaxSkew: maxSkew, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"foo": "bar"}}}
	for _, e := range edits {
		e(&c)
	}
	return []api.TopologySpreadConstraint{c}
}

func nodeKeyConstraints(maxSkew int32) []api.TopologySpreadConstraint {
	return defaultConstraints(maxSkew, func(c *api.TopologySpreadConstraint) { c.TopologyKey = "node" })
}

var fooBar = map[string]string{"foo": "bar"}

func zoneNode(name, zone string, edit ...func(*api.Node)) *api.Node {
	return buildNode(name, 2000, 3000, 10, append([]func(*api.Node){nodeLabels("zone", zone)}, edit...)...)
}

// TestTopologySpreadConstraint ports TestTopologySpreadConstraint
// (removepodsviolatingtopologyspreadconstraint/topologyspreadconstraint_test.go:25).
func TestTopologySpreadConstraint(t *testing.T) {
	winLin := func(extra ...*api.Node) []*api.Node {
		ns := []*api.Node{
			buildNode("n1", 2000, 3000, 10, nodeLabels("node", "linNodeA", "os", "linux")),
			buildNode("n2", 2000, 3000, 10, nodeLabels("node", "linNodeB", "os", "linux")),
			buildNode("n3", 2000, 3000, 10, nodeLabels("node", "linNodeC", "os", "linux")),
			buildNode("n4", 2000, 3000, 10, nodeLabels("node", "winNodeA", "os", "windows")),
			buildNode("n5", 2000, 3000, 10, nodeLabels("node", "winNodeB", "os", "windows")),
			buildNode("n6", 2000, 3000, 10, nodeLabels("node", "winNodeC", "os", "windows")),
		}
		return append(ns, extra...)
	}
	windows := map[string]string{"os": "windows"}
	gpuTaint := func(n *api.Node) {
		n.Spec.Taints = []api.Taint{{Key: "hardware", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
	}
	cases := []struct {
		name     string // upstream name
		line     int    // upstream line
		nodes    []*api.Node
		pods     []*api.Pod
		args     TopologySpreadArgs
		nodeFit  bool
		want     int
		wantPods []string
	}{
		{name: "2 domains, sizes [2,1], maxSkew=1, move 0 pods", line: 37,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 1, node: "n1", labels: fooBar}, {count: 1, node: "n2", labels: fooBar}}),
			want: 0},
		{name: "2 domains, sizes [3,1], maxSkew=1, move 1 pod to achieve [2,2]", line: 72,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 2, node: "n1", labels: fooBar}, {count: 1, node: "n2", labels: fooBar}}),
			want: 1},
		{name: "2 domains, sizes [3,1], maxSkew=1, move 1 pod to achieve [2,2] (soft constraints)", line: 137,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1, func(c *api.TopologySpreadConstraint) { c.WhenUnsatisfiable = api.ScheduleAnyway })},
				{count: 2, node: "n1", labels: fooBar}, {count: 1, node: "n2", labels: fooBar}}),
			args: TopologySpreadArgs{Constraints: []string{api.ScheduleAnyway}},
			want: 1},
		{name: "2 domains, sizes [3,1], maxSkew=1, no pods eligible, move 0 pods", line: 174,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1), noOwners: true},
				{count: 2, node: "n1", labels: fooBar, noOwners: true}, {count: 1, node: "n2", labels: fooBar, noOwners: true}}),
			want: 0},
		{name: "2 domains, sizes [3,1], maxSkew=1, move 1 pod to achieve [2,2], exclude kube-system namespace", line: 205,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 2, node: "n1", labels: fooBar}, {count: 1, node: "n2", labels: fooBar}}),
			args: TopologySpreadArgs{Namespaces: &Namespaces{Exclude: []string{"kube-system"}}}, nodeFit: true,
			want: 1},
		{name: "2 domains, sizes [5,2], maxSkew=1, move 1 pod to achieve [4,3]", line: 234,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 4, node: "n1", labels: fooBar}, {count: 2, node: "n2", labels: fooBar}}),
			want: 1},
		{name: "2 domains, sizes [4,0], maxSkew=1, move 2 pods to achieve [2,2]", line: 262,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 3, node: "n1", labels: fooBar}}),
			want: 2},
		{name: "2 domains, sizes [4,0], maxSkew=1, only move 1 pod since pods with nodeSelector and nodeAffinity aren't evicted", line: 285,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{
				{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1), nodeSelector: map[string]string{"zone": "zoneA"}},
				{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1), nodeSelector: map[string]string{"zone": "zoneA"}},
				{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1), affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
						{MatchExpressions: []api.NodeSelectorRequirement{{Key: "foo", Values: []string{"bar"}, Operator: api.NodeSelectorOpIn}}}}}}}},
				{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)}}),
			nodeFit: true,
			want:    1},
		{name: "6 domains, sizes [0,0,0,3,3,2], maxSkew=1, No pod is evicted since topology is balanced", line: 329,
			nodes: winLin(),
			pods: createTestPods([]testPodList{{count: 3, node: "n4", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows},
				{count: 3, node: "n5", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows},
				{count: 2, node: "n6", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows}}),
			want: 0},
		{name: "7 domains, sizes [0,0,0,3,3,2], maxSkew=1, two pods are evicted and moved to new node added", line: 368,
			nodes: winLin(buildNode("n7", 2000, 3000, 10, nodeLabels("node", "winNodeD", "os", "windows"))),
			pods: createTestPods([]testPodList{{count: 3, node: "n4", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows},
				{count: 3, node: "n5", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows},
				{count: 2, node: "n6", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows}}),
			want: 2},
		{name: "6 domains, sizes [0,0,0,4,3,1], maxSkew=1, 1 pod is evicted from node 4", line: 408,
			nodes: winLin(),
			pods: createTestPods([]testPodList{{count: 4, node: "n4", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows},
				{count: 3, node: "n5", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows},
				{count: 1, node: "n6", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows}}),
			want: 1},
		{name: "6 domains, sizes [0,0,0,4,3,1], maxSkew=1, 0 pod is evicted as pods of node:winNodeA can only be scheduled on this node and nodeFit is true", line: 447,
			nodes: winLin(),
			pods: createTestPods([]testPodList{{count: 4, node: "n4", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: map[string]string{"node": "winNodeA"}},
				{count: 3, node: "n5", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows},
				{count: 1, node: "n6", labels: fooBar, constraints: nodeKeyConstraints(1), nodeSelector: windows}}),
			nodeFit: true,
			want:    0},
		{name: "2 domains, sizes [4,0], maxSkew=1, move 2 pods since selector matches multiple nodes", line: 486,
			nodes: []*api.Node{zoneNode("n1", "zoneA", nodeLabels("region", "boston")), zoneNode("n2", "zoneB", nodeLabels("region", "boston"))},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1), nodeSelector: map[string]string{"region": "boston"}},
				{count: 3, node: "n1", labels: fooBar, nodeSelector: map[string]string{"region": "boston"}}}),
			want: 2},
		{name: "3 domains, sizes [0, 1, 100], maxSkew=1, move 66 pods to get [34, 33, 34]", line: 529,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC")},
			pods: createTestPods([]testPodList{{count: 1, node: "n2", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 100, node: "n3", labels: fooBar}}),
			want: 66},
		{name: "4 domains, sizes [0, 1, 3, 5], should move 3 to get [2, 2, 3, 2]", line: 553,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC"), zoneNode("n4", "zoneD")},
			pods: createTestPods([]testPodList{{count: 1, node: "n2", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 3, node: "n3", labels: fooBar}, {count: 5, node: "n4", labels: fooBar}}),
			want: 3},
		{name: "2 domains size [2 6], maxSkew=2, should move 1 to get [3 5]", line: 583,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(2)},
				{count: 1, node: "n1", labels: fooBar}, {count: 6, node: "n2", labels: fooBar}}),
			want: 1},
		{name: "2 domains size [2 6], maxSkew=2, can't move any because of node taints", line: 611,
			nodes: []*api.Node{zoneNode("n1", "zoneA", gpuTaint), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(2)},
				{count: 1, node: "n1", labels: fooBar}, {count: 6, node: "n2", labels: fooBar}}),
			nodeFit: true,
			want:    0},
		{name: "2 domains size [2 6], maxSkew=2, can't move any because node1 does not have enough CPU", line: 656,
			nodes: []*api.Node{buildNode("n1", 200, 3000, 10, nodeLabels("zone", "zoneA")), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(2)},
				{count: 1, node: "n1", labels: fooBar}, {count: 6, node: "n2", labels: fooBar}}),
			nodeFit: true,
			want:    0},
		{name: "3 domains size [8 7 0], maxSkew=1, should move 5 to get [5 5 5]", line: 792,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC")},
			pods: createTestPods([]testPodList{{count: 8, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 7, node: "n2", labels: fooBar, constraints: defaultConstraints(1)}}),
			want: 5},
		{name: "3 domains size [5 5 5], maxSkew=1, should move 0 to retain [5 5 5]", line: 818,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC")},
			pods: createTestPods([]testPodList{{count: 5, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 5, node: "n2", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 5, node: "n3", labels: fooBar, constraints: defaultConstraints(1)}}),
			want: 0},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 1 pod since pod tolerates the node with taint", line: 849,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB", func(n *api.Node) {
				n.Spec.Taints = []api.Taint{{Key: "taint-test", Value: "test", Effect: api.TaintEffectNoSchedule}}
			})},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1),
				tolerations: []api.Toleration{{Key: "taint-test", Value: "test", Operator: api.TolerationOpEqual, Effect: api.TaintEffectNoSchedule}}},
				{count: 1, node: "n1", labels: fooBar}}),
			want: 1, wantPods: []string{"pod-0"}},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 0 pods since pod does not tolerate the tainted node", line: 891,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB", func(n *api.Node) {
				n.Spec.Taints = []api.Taint{{Key: "taint-test", Value: "test", Effect: api.TaintEffectNoSchedule}}
			})},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 1, node: "n1", labels: fooBar, nodeSelector: map[string]string{"zone": "zoneA"}}}),
			want: 0},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 1 pod for node with PreferNoSchedule Taint", line: 958,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB", func(n *api.Node) {
				n.Spec.Taints = []api.Taint{{Key: "taint-test", Value: "test", Effect: api.TaintEffectPreferNoSchedule}}
			})},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 1, node: "n1", labels: fooBar, nodeSelector: map[string]string{"zone": "zoneA"}}}),
			want: 1, wantPods: []string{"pod-0"}},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 0 pod for node with unmatched label filtering", line: 992,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 1, node: "n1", labels: fooBar}}),
			args: TopologySpreadArgs{LabelSelector: sel(t, &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "foo", Operator: api.LabelSelectorOpIn, Values: []string{"baz"}}}})},
			want: 0},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 1 pod for node with matched label filtering", line: 1015,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 1, node: "n1", labels: fooBar}}),
			args: TopologySpreadArgs{LabelSelector: sel(t, &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "foo", Operator: api.LabelSelectorOpIn, Values: []string{"bar"}}}})},
			want: 1, wantPods: []string{"pod-1"}},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 1 pod for node with matched label filtering (NotIn op)", line: 1039,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 1, node: "n1", labels: fooBar}}),
			args: TopologySpreadArgs{LabelSelector: sel(t, &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "foo", Operator: api.LabelSelectorOpNotIn, Values: []string{"baz"}}}})},
			want: 1, wantPods: []string{"pod-1"}},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 1 pods given matchLabelKeys on same replicaset", line: 1063,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: map[string]string{"foo": "bar", api.LabelPodTemplateHash: "foo"},
				constraints: defaultConstraints(1, func(c *api.TopologySpreadConstraint) { c.MatchLabelKeys = []string{api.LabelPodTemplateHash} })},
				{count: 1, node: "n1", labels: map[string]string{"foo": "bar", api.LabelPodTemplateHash: "foo"},
					constraints: defaultConstraints(1, func(c *api.TopologySpreadConstraint) { c.MatchLabelKeys = []string{api.LabelPodTemplateHash} })}}),
			want: 1, wantPods: []string{"pod-1"}},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 0 pods given matchLabelKeys on two different replicasets", line: 1088,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 1, node: "n1", labels: map[string]string{"foo": "bar", api.LabelPodTemplateHash: "foo"},
				constraints: defaultConstraints(1, func(c *api.TopologySpreadConstraint) { c.MatchLabelKeys = []string{api.LabelPodTemplateHash} })},
				{count: 1, node: "n1", labels: map[string]string{"foo": "bar", api.LabelPodTemplateHash: "bar"},
					constraints: defaultConstraints(1, func(c *api.TopologySpreadConstraint) { c.MatchLabelKeys = []string{api.LabelPodTemplateHash} })}}),
			want: 0},
		{name: "2 domains, sizes [4,2], maxSkew=1, 2 pods in termination; nothing should be moved", line: 1112,
			nodes: []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")},
			pods: createTestPods([]testPodList{{count: 2, node: "n1", labels: fooBar, constraints: defaultConstraints(1), terminating: true},
				{count: 2, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 2, node: "n2", labels: fooBar, constraints: defaultConstraints(1)}}),
			want: 0},
		{name: "3 domains, sizes [2,3,4], maxSkew=1, NodeFit is enabled, and not enough cpu on zoneA; nothing should be moved", line: 1143,
			nodes: []*api.Node{buildNode("n1", 250, 3000, 10, nodeLabels("zone", "zoneA")), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC")},
			pods: createTestPods([]testPodList{{count: 2, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 3, node: "n2", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 4, node: "n3", labels: fooBar, constraints: defaultConstraints(1)}}),
			nodeFit: true,
			want:    0},
		{name: "3 domains, sizes [2,3,4], maxSkew=1, args.NodeFit is false, and not enough cpu on zoneA; 1 should be moved to force scale-up", line: 1175,
			nodes: []*api.Node{buildNode("n1", 250, 3000, 10, nodeLabels("zone", "zoneA")), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC")},
			pods: createTestPods([]testPodList{{count: 2, node: "n1", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 3, node: "n2", labels: fooBar, constraints: defaultConstraints(1)},
				{count: 4, node: "n3", labels: fooBar, constraints: defaultConstraints(1)}}),
			args: TopologySpreadArgs{TopologyBalanceNodeFit: ptr(false)},
			want: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := &Policy{Profiles: []Profile{{Name: "p", Balance: []string{TopologySpreadName},
				Evictor: EvictorArgs{NodeFit: tc.nodeFit}, Args: PluginArgs{TopologySpread: tc.args}}}}
			got, _ := runPlugin(t, pol, tc.nodes, tc.pods)
			if len(got) != tc.want {
				t.Fatalf("upstream test at line %d: evicted %d pods %v, want %d", tc.line, len(got), got, tc.want)
			}
			for _, w := range tc.wantPods {
				if !slices.Contains(got, w) {
					t.Errorf("upstream test at line %d: want %s evicted, got %v", tc.line, w, got)
				}
			}
		})
	}
}

func sel(t *testing.T, ls *api.LabelSelector) *api.Selector {
	s, err := api.CompileSelector(ls)
	if err != nil {
		t.Fatal(err)
	}
	return &s
}

// TestSortDomains ports TestSortDomains (:1527): non-evictable pods
// first, then pods with a nodeSelector or node affinity, then by
// ascending priority (the back of the list is evicted first).
func TestSortDomains(t *testing.T) {
	mk := func(name string, evictable bool, prio int32, affinity bool) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Annotations: map[string]string{"evictable": fmt.Sprint(evictable)}}}
		p.Spec.Priority = &prio
		if affinity {
			p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{}}
		}
		return p
	}
	isEv := func(p *api.Pod) bool { return p.Annotations["evictable"] == "true" }
	names := func(ps []*api.Pod) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	cases := []struct {
		name string
		in   map[string][]*api.Pod
		want map[string][]string
	}{
		{"single domain with mixed pods", map[string][]*api.Pod{"a": {mk("non-evictable-pod", false, 0, false), mk("evictable-with-affinity", true, 10, false), mk("evictable-high-priority", true, 15, false)}},
			map[string][]string{"a": {"non-evictable-pod", "evictable-with-affinity", "evictable-high-priority"}}},
		{"multiple domains with different priorities and selectors", map[string][]*api.Pod{
			"a": {mk("high-priority-affinity", true, 20, false), mk("low-priority-no-affinity", true, 5, false)},
			"b": {mk("medium-priority-affinity", true, 15, false), mk("non-evictable-pod", false, 0, false)}},
			map[string][]string{"a": {"low-priority-no-affinity", "high-priority-affinity"}, "b": {"non-evictable-pod", "medium-priority-affinity"}}},
		{"domain with pods having different selector/affinity", map[string][]*api.Pod{"a": {mk("pod-with-affinity", true, 10, true), mk("pod-no-affinity", true, 15, false)}},
			map[string][]string{"a": {"pod-with-affinity", "pod-no-affinity"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := map[string]*domain{}
			for k, ps := range tc.in {
				ds[k] = &domain{value: k, pods: ps}
			}
			for _, d := range sortDomains(ds, isEv) {
				if fmt.Sprint(names(d.pods)) != fmt.Sprint(tc.want[d.value]) {
					t.Errorf("domain %s: got %v, want %v", d.value, names(d.pods), tc.want[d.value])
				}
			}
		})
	}
}

// TestTopologySpreadReason pins what the dry run tells the learner.
func TestTopologySpreadReason(t *testing.T) {
	nodes := []*api.Node{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC")}
	pods := createTestPods([]testPodList{{count: 2, node: "n3", labels: fooBar, constraints: defaultConstraints(1)},
		{count: 1, node: "n2", labels: fooBar, constraints: defaultConstraints(1)}})
	pol := &Policy{Profiles: []Profile{{Name: "p", Balance: []string{TopologySpreadName}}}}
	_, res := runPlugin(t, pol, nodes, pods)
	if len(res.Evictions) != 1 {
		t.Fatalf("evictions %+v", res.Evictions)
	}
	want := "topologySpreadConstraint {topologyKey: zone, maxSkew: 1, whenUnsatisfiable: DoNotSchedule, selector: foo=bar} in namespace ns1: pods per domain [zoneA=0 zoneB=1 zoneC=2]; zoneC has 2, zoneA has 0: skew 2 > maxSkew 1, so move 1 toward the ideal average 1"
	if e := res.Evictions[0]; e.Reason != want || e.Plugin != TopologySpreadName || e.Node != "n3" {
		t.Errorf("got %+v\nwant reason %q", e, want)
	}
}
