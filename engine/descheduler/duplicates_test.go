package descheduler

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestFindDuplicatePods ports cases of TestFindDuplicatePods
// (removeduplicates/removeduplicates_test.go:77).
func TestFindDuplicatePods(t *testing.T) {
	rsPod := func(name, ns string, edit ...func(*api.Pod)) *api.Pod {
		return buildPod(name, 100, 0, "n1", append([]func(*api.Pod){rsOwner, func(p *api.Pod) { p.Namespace = ns }}, edit...)...)
	}
	withImage := func(img string) func(*api.Pod) {
		return func(p *api.Pod) { p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: img, Image: img}) }
	}
	two := func(edit ...func(*api.Node)) []*api.Node {
		return []*api.Node{buildNode("n1", 2000, 3000, 10), buildNode("n2", 2000, 3000, 10, edit...)}
	}
	cases := []struct {
		name    string
		line    int
		pods    []*api.Pod
		nodes   []*api.Node
		exclude []string
		nodeFit bool
		want    int
	}{
		{"Three pods in the `dev` Namespace, bound to same ReplicaSet. 1 should be evicted.", 89,
			[]*api.Pod{rsPod("p1", "dev"), rsPod("p2", "dev"), rsPod("p3", "dev")}, two(), nil, false, 1},
		{"Three pods in the `dev` Namespace, bound to same ReplicaSet, but ReplicaSet kind is excluded. 0 should be evicted.", 102,
			[]*api.Pod{rsPod("p1", "dev"), rsPod("p2", "dev"), rsPod("p3", "dev")}, two(), []string{"ReplicaSet"}, false, 0},
		{"Three Pods in the `dev` Namespace, three Pods in the `test` Namespace. Bound to ReplicaSet with same name. 4 should be evicted.", 129,
			[]*api.Pod{rsPod("p1", "dev"), rsPod("p2", "dev"), rsPod("p3", "dev"), rsPod("p8", "test"), rsPod("p9", "test"), rsPod("p10", "test")}, two(), nil, false, 2},
		{"Pods with the same owner but different images should not be evicted", 195,
			[]*api.Pod{rsPod("p11", "different-images", withImage("foo")), rsPod("p12", "different-images", withImage("bar"))}, two(), nil, false, 0},
		{"Three pods in the `dev` Namespace, bound to same ReplicaSet. Only node available has a taint, and nodeFit set to true. 0 should be evicted.", 246,
			[]*api.Pod{rsPod("p1", "dev"), rsPod("p2", "dev"), rsPod("p3", "dev")},
			two(func(n *api.Node) {
				n.Spec.Taints = []api.Taint{{Key: "hardware", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
			}), nil, true, 0},
		{"Three pods in the `node-fit` Namespace, bound to same ReplicaSet. Only node available is not schedulable, and nodeFit set to true. 0 should be evicted.", 298,
			[]*api.Pod{rsPod("p1", "node-fit"), rsPod("p2", "node-fit"), rsPod("p3", "node-fit")},
			two(func(n *api.Node) { n.Spec.Unschedulable = true }), nil, true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := &Policy{Profiles: []Profile{{Name: "p", Balance: []string{DuplicatesName}, Evictor: EvictorArgs{NodeFit: tc.nodeFit},
				Args: PluginArgs{Duplicates: DuplicatesArgs{ExcludeOwnerKinds: tc.exclude}}}}}
			got, _ := runPlugin(t, pol, tc.nodes, tc.pods)
			if len(got) != tc.want {
				t.Fatalf("upstream line %d: evicted %v, want %d", tc.line, got, tc.want)
			}
		})
	}
}
