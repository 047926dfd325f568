package descheduler

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamFindDuplicatePods ports TestFindDuplicatePods
// (pkg/framework/plugins/removeduplicates/removeduplicates_test.go:79),
// all 15 cases (duplicates_test.go has 6 of them). p5 has local storage
// upstream; podlab pods have no volumes, so it is built as a bare pod,
// which the DefaultEvictor protects as well (:145, :167).
func TestUpstreamFindDuplicatePods(t *testing.T) {
	pod := func(name, node string, edit ...func(*api.Pod)) *api.Pod { return buildPod(name, 100, 0, node, edit...) }
	rsIn := func(name, ns string, edit ...func(*api.Pod)) *api.Pod {
		return pod(name, "n1", append([]func(*api.Pod){rsOwner, func(p *api.Pod) { p.Namespace = ns }}, edit...)...)
	}
	image := func(img string) func(*api.Pod) { return func(p *api.Pod) { p.Spec.Containers[0].Image = img } }
	extra := func(p *api.Pod) {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "foo", Image: "foo"})
	}
	node := func(name string, edit ...func(*api.Node)) *api.Node { return buildNode(name, 2000, 3000, 10, edit...) }
	two := func() []*api.Node { return []*api.Node{node("n1"), node("n2")} }
	three := func(ns string) []*api.Pod { return []*api.Pod{rsIn("p1", ns), rsIn("p2", ns), rsIn("p3", ns)} }
	protected := func() []*api.Pod {
		return []*api.Pod{pod("p4", "n1", dsOwner), pod("p5", "n1"),
			pod("p6", "n1", func(p *api.Pod) {
				p.Annotations = map[string]string{"kubernetes.io/config.source": "api", "kubernetes.io/config.mirror": "mirror"}
			}),
			pod("p7", "n1", func(p *api.Pod) { p.Namespace = "kube-system"; p.Spec.Priority = ptr(api.SystemCriticalPriority) })}
	}
	west := func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"datacenter": "west"} }
	cases := []struct {
		name    string
		line    int
		pods    []*api.Pod
		nodes   []*api.Node
		exclude []string
		nodeFit bool
		want    int
	}{
		{"Three pods in the `dev` Namespace, bound to same ReplicaSet. 1 should be evicted.", 89, three("dev"), two(), nil, false, 1},
		{"… but ReplicaSet kind is excluded. 0 should be evicted.", 102, three("dev"), two(), []string{"ReplicaSet"}, false, 0},
		{"Three Pods in the `test` Namespace, bound to same ReplicaSet. 1 should be evicted.", 116,
			[]*api.Pod{rsIn("p8", "test"), rsIn("p9", "test"), rsIn("p10", "test")}, two(), nil, false, 1},
		{"Three Pods in the `dev` Namespace, three Pods in the `test` Namespace. Bound to ReplicaSet with same name. 4 should be evicted.", 129,
			append(three("dev"), rsIn("p8", "test"), rsIn("p9", "test"), rsIn("p10", "test")), two(), nil, false, 2},
		{"Pods are: part of DaemonSet, with local storage, mirror pod annotation, critical pod annotation - none should be evicted.", 145,
			protected(), two(), nil, false, 0},
		{"Test all Pods: 4 should be evicted.", 167,
			append(append(three("dev"), protected()...), rsIn("p8", "test"), rsIn("p9", "test"), rsIn("p10", "test")), two(), nil, false, 2},
		{"Pods with the same owner but different images should not be evicted", 195,
			[]*api.Pod{rsIn("p11", "different-images", image("foo")), rsIn("p12", "different-images", image("bar"))}, two(), nil, false, 0},
		{"Pods with multiple containers should not match themselves", 211, []*api.Pod{rsIn("p13", "different-images", extra)}, two(), nil, false, 0},
		{"Pods with matching ownerrefs and at not all matching image should not trigger an eviction", 227,
			[]*api.Pod{rsIn("p11", "different-images", image("foo")), rsIn("p13", "different-images", extra)}, two(), nil, false, 0},
		{"… Only node available has a taint, and nodeFit set to true. 0 should be evicted.", 246, three("dev"),
			[]*api.Node{node("n1"), node("n3", func(n *api.Node) {
				n.Spec.Taints = []api.Taint{{Key: "hardware", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
			})}, nil, true, 0},
		{"… all with a nodeSelector. Only node available has an incorrect node label, and nodeFit set to true. 0 should be evicted.", 268,
			[]*api.Pod{rsIn("p15", "node-fit", west), rsIn("NOT1", "node-fit", west), rsIn("NOT2", "node-fit", west)},
			[]*api.Node{node("n1"), node("n4", nodeLabels("datacenter", "east"))}, nil, true, 0},
		{"… Only node available is not schedulable, and nodeFit set to true. 0 should be evicted.", 298, three("dev"),
			[]*api.Node{node("n1"), node("n5", func(n *api.Node) { n.Spec.Unschedulable = true })}, nil, true, 0},
		{"… Only node available does not have enough CPU, and nodeFit set to true. 0 should be evicted.", 316,
			append(three("dev"), buildPod("CPU-eater", 150, 150, "n6", func(p *api.Pod) { p.Namespace = "test" })),
			[]*api.Node{node("n1"), buildNode("n6", 200, 200, 10)}, nil, true, 0},
		{"… Only node available has enough CPU, and nodeFit set to true. 1 should be evicted.", 333,
			append(three("dev"), buildPod("CPU-saver", 100, 150, "n6", func(p *api.Pod) { p.Namespace = "test" })),
			[]*api.Node{node("n1"), buildNode("n6", 200, 200, 10)}, nil, true, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(DuplicatesName, EvictorArgs{NodeFit: tc.nodeFit}, PluginArgs{Duplicates: DuplicatesArgs{ExcludeOwnerKinds: tc.exclude}})
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if len(got) != tc.want {
				t.Fatalf("removeduplicates_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
		})
	}
}

// TestUpstreamRemoveDuplicatesUniformly ports
// TestRemoveDuplicatesUniformly (removeduplicates_test.go:388), all 11
// cases, with the DefaultEvictor's defaults (:731).
func TestUpstreamRemoveDuplicatesUniformly(t *testing.T) {
	// test.SetRSOwnerRef: ReplicaSet "replicaset-1", no UID.
	rs1 := func(p *api.Pod) {
		p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", APIVersion: "v1", Name: "replicaset-1"}}
	}
	rs2 := func(p *api.Pod) {
		p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", APIVersion: "v1", Name: "replicaset-2"}}
	}
	twoRS := func(p *api.Pod) {
		p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", APIVersion: "v1", Name: "replicaset-1"}, {Kind: "ReplicaSet", APIVersion: "v1", Name: "replicaset-2"}}
	}
	pod := func(name, node string, edit ...func(*api.Pod)) *api.Pod { return buildPod(name, 100, 0, node, edit...) }
	withImage := func(name, img string) *api.Pod {
		return pod(name, "n1", rs1, func(p *api.Pod) { p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: img, Image: img}) })
	}
	node := func(name string, edit ...func(*api.Node)) *api.Node { return buildNode(name, 2000, 3000, 10, edit...) }
	spread := func(names []string, nodes []string, edit ...func(string) func(*api.Pod)) []*api.Pod {
		var out []*api.Pod
		for i, n := range names {
			e := rs1
			if len(edit) > 0 {
				e = edit[0](map[bool]string{true: "k1", false: "k2"}[i%2 == 0])
			}
			out = append(out, pod(n, nodes[i], e))
		}
		return out
	}
	p1to9 := []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"}
	on531 := func(a, b, c string) []string { return []string{a, a, a, a, a, b, b, b, c} }
	tolerate := func(v string) func(*api.Pod) {
		return func(p *api.Pod) {
			rs1(p)
			p.Spec.Tolerations = []api.Toleration{{Key: v, Value: "v" + v[1:], Operator: api.TolerationOpEqual, Effect: api.TaintEffectNoSchedule}}
		}
	}
	notMaster := func(k string) func(*api.Pod) {
		return func(p *api.Pod) {
			rs1(p)
			p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{
					{Key: "node-role.kubernetes.io/control-plane", Operator: "DoesNotExist"}, {Key: k, Operator: "DoesNotExist"}}}}}}}
		}
	}
	workerSelector := func(v string) func(*api.Pod) {
		return func(p *api.Pod) { rs1(p); p.Spec.NodeSelector = map[string]string{"node-role.kubernetes.io/worker": v} }
	}
	masterTaint := func(n *api.Node) {
		n.Spec.Taints = []api.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule}}
	}
	masterLabel := nodeLabels("node-role.kubernetes.io/control-plane", "")
	workerLabel := nodeLabels("node-role.kubernetes.io/worker", "k2") // setWorkerLabel (:431) sets k1 then k2
	workers := func(w, m func(*api.Node)) []*api.Node {
		wn := func(name string) *api.Node {
			if w == nil {
				return node(name)
			}
			return node(name, w)
		}
		mn := func(name string) *api.Node {
			if m == nil {
				return node(name)
			}
			return node(name, m)
		}
		return []*api.Node{wn("worker1"), wn("worker2"), wn("worker3"), mn("master1"), mn("master2"), mn("master3")}
	}
	threeN := []*api.Node{node("n1"), node("n2"), node("n3")}
	var twoOwners []*api.Pod
	for i, n := range []string{"n1", "n1", "n1", "n1", "n1", "n2", "n2", "n2", "n3"} {
		twoOwners = append(twoOwners, pod("p1"+string(rune('1'+i)), n, rs1))
	}
	for i, n := range []string{"n1", "n2", "n2", "n2", "n3", "n3", "n3", "n3", "n3"} {
		twoOwners = append(twoOwners, pod("p2"+string(rune('1'+i)), n, rs2))
	}
	var twoRSPods []*api.Pod
	for i, n := range on531("n1", "n2", "n3") {
		twoRSPods = append(twoRSPods, pod("p1"+string(rune('1'+i)), n, twoRS))
	}
	cases := []struct {
		name  string
		line  int
		pods  []*api.Pod
		nodes []*api.Node
		want  int
	}{
		{"Evict pods uniformly", 482, spread(p1to9, on531("n1", "n2", "n3")), threeN, 2},
		{"Evict pods uniformly with one node left out", 503, spread(p1to9, on531("n1", "n2", "n3")), []*api.Node{node("n1"), node("n2")}, 1},
		{"Evict pods uniformly with two replica sets", 523, twoRSPods, threeN, 4},
		{"Evict pods uniformly with two owner references", 544, twoOwners, threeN, 4},
		{"Evict pods with number of pods less than nodes", 575, []*api.Pod{pod("p1", "n1", rs1), pod("p2", "n1", rs1)}, threeN, 1},
		{"Evict pods with number of pods less than nodes, but ignore different pods with the same ownerref", 589,
			[]*api.Pod{withImage("p1", "foo"), withImage("p2", "bar"), withImage("p3", "baz"), withImage("p4", "foo")}, threeN, 1},
		{"Evict pods with a single pod with three nodes", 607, []*api.Pod{pod("p1", "n1", rs1)}, threeN, 0},
		{"Evict pods uniformly respecting taints", 620, spread(p1to9, on531("worker1", "worker2", "worker3"), tolerate), workers(nil, masterTaint), 2},
		{"Evict pods uniformly respecting RequiredDuringSchedulingIgnoredDuringExecution node affinity", 644,
			spread(p1to9, on531("worker1", "worker2", "worker3"), notMaster), workers(nil, masterLabel), 2},
		{"Evict pods uniformly respecting node selector", 668, spread(p1to9, on531("worker1", "worker2", "worker3"), workerSelector), workers(workerLabel, nil), 2},
		{"Evict pods uniformly respecting node selector with zero target nodes", 692, spread(p1to9, on531("worker1", "worker2", "worker3"), workerSelector), workers(nil, nil), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runDirect(t, oneProfile(DuplicatesName, EvictorArgs{}, PluginArgs{}), &State{Nodes: tc.nodes, Pods: tc.pods})
			if len(got) != tc.want {
				t.Fatalf("removeduplicates_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
		})
	}
}
