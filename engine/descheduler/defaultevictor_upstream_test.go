package descheduler

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// evictorVerdicts builds the DefaultEvictor over nodes, pods and PDBs
// (as upstream's initializePlugin, defaultevictor_test.go:1012) and
// returns whether Filter and PreEvictionFilter let pods[0] through.
func evictorVerdicts(t *testing.T, args EvictorArgs, nodes []*api.Node, pods []*api.Pod, pdbs []*api.PodDisruptionBudget) (filter, pre bool) {
	t.Helper()
	v := newView(&State{Now: upstreamNow, Nodes: nodes, Pods: pods, PDBs: pdbs}, nil)
	e, err := newEvictor(args, v)
	if err != nil {
		t.Fatalf("evictor: %v", err)
	}
	return e.filter(pods[0]) == "", e.preEvictionFilter(pods[0]) == ""
}

func normalOwner(p *api.Pod) {
	p.OwnerReferences = []api.OwnerReference{{Kind: "Pod", APIVersion: "v1"}}
}

// TestUpstreamDefaultEvictorPreEvictionFilter ports
// TestDefaultEvictorPreEvictionFilter
// (pkg/framework/plugins/defaultevictor/defaultevictor_test.go:93), its
// first 8 cases; the two namespaceLabelSelector cases (:268, :301) are
// left out with that option. buildTestNode is 1000m/2000/13 pods (:73),
// buildTestPod 400m (:77); the pod runs on node1, not in the node list.
func TestUpstreamDefaultEvictorPreEvictionFilter(t *testing.T) {
	node := func(name string, edit ...func(*api.Node)) *api.Node { return buildNode(name, 1000, 2000, 13, edit...) }
	pod := func(edit ...func(*api.Pod)) *api.Pod {
		return buildPod("p1", 400, 0, "node1", append([]func(*api.Pod){normalOwner}, edit...)...)
	}
	taint := func(n *api.Node) {
		n.Spec.Taints = []api.Taint{{Key: "hardware", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
	}
	east := nodeLabels("datacenter", "east")
	selector := func(v string) func(*api.Pod) {
		return func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"datacenter": v} }
	}
	small := func(edit ...func(*api.Pod)) *api.Pod { // test.BuildTestPod("p1", 12, 8, …)
		return buildPod("p1", 12, 8, "node1", append([]func(*api.Pod){normalOwner}, edit...)...)
	}
	filler := func(name, node string, cpu, mem int64) *api.Pod {
		return buildPod(name, cpu, mem, node, labels("test", "true"))
	}
	cases := []struct {
		name    string
		line    int
		pods    []*api.Pod
		nodes   []*api.Node
		nodeFit bool
		want    bool
	}{
		{"Pod with no tolerations running on normal node, all other nodes tainted", 126,
			[]*api.Pod{pod()}, []*api.Node{node("node2", taint), node("node3", taint)}, true, false},
		{"Pod with correct tolerations running on normal node, all other nodes tainted", 137,
			[]*api.Pod{pod(func(p *api.Pod) {
				p.Spec.Tolerations = []api.Toleration{{Key: "hardware", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
			})}, []*api.Node{node("node2", taint), node("node3", taint)}, true, true},
		{"Pod with incorrect node selector", 158,
			[]*api.Pod{pod(selector("fail"))}, []*api.Node{node("node2", east), node("node3", east)}, true, false},
		{"Pod with correct node selector", 174,
			[]*api.Pod{pod(selector("east"))}, []*api.Node{node("node2", east), node("node3", east)}, true, true},
		{"Pod with correct node selector, but only available node doesn't have enough CPU", 189,
			[]*api.Pod{small(selector("east"))}, []*api.Node{buildNode("node2-TEST", 10, 16, 10, east), buildNode("node3-TEST", 10, 16, 10, east)}, true, false},
		{"Pod with correct node selector, and one node has enough memory", 203,
			[]*api.Pod{small(selector("east")), filler("node2-pod-10GB-mem", "node2", 20, 10), filler("node3-pod-10GB-mem", "node3", 20, 10)},
			[]*api.Node{buildNode("node2", 100, 16, 10, east), buildNode("node3", 100, 20, 10, east)}, true, true},
		{"Pod with correct node selector, but both nodes don't have enough memory", 228,
			[]*api.Pod{small(selector("east")), filler("node2-pod-10GB-mem", "node2", 10, 10), filler("node3-pod-10GB-mem", "node3", 10, 10)},
			[]*api.Node{buildNode("node2", 100, 16, 10, east), buildNode("node3", 100, 16, 10, east)}, true, false},
		{"Pod with incorrect node selector, but nodefit false, should still be evicted", 252,
			[]*api.Pod{pod(selector("fail"))}, []*api.Node{node("node2", east), node("node3", east)}, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, got := evictorVerdicts(t, EvictorArgs{NodeFit: tc.nodeFit}, tc.nodes, tc.pods, nil); got != tc.want {
				t.Fatalf("defaultevictor_test.go:%d: PreEvictionFilter = %t, want %t", tc.line, got, tc.want)
			}
		})
	}
}

// TestUpstreamDefaultEvictorFilter ports TestDefaultEvictorFilter
// (defaultevictor_test.go:352). Left out: the cases whose pods carry
// volumes or resource claims (local storage :491 :500 :511 :790, PVC
// :770 :780 :827, resource claims :850, storage classes :868–:917):
// podlab pods have neither, so those protections never apply.
func TestUpstreamDefaultEvictorFilter(t *testing.T) {
	low, high := int32(800), int32(900)
	minAge := 50 * time.Minute
	pod := func(name string, edit ...func(*api.Pod)) *api.Pod { return buildPod(name, 400, 0, "node1", edit...) }
	tiny := func(name string, edit ...func(*api.Pod)) *api.Pod { return buildPod(name, 1, 1, "node1", edit...) }
	failed := func(p *api.Pod) { p.Status.Phase = api.PodFailed }
	evictAnn := func(p *api.Pod) {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[AnnotationEvict] = "true"
	}
	softAnn := func(p *api.Pod) { p.Annotations = map[string]string{AnnotationPreferNoEvict: ""} }
	owner := func(kind string) func(*api.Pod) {
		return func(p *api.Pod) { p.OwnerReferences = []api.OwnerReference{{Kind: kind, APIVersion: "v1"}} }
	}
	mirror := func(p *api.Pod) {
		p.Annotations = map[string]string{"kubernetes.io/config.source": "api", "kubernetes.io/config.mirror": "mirror"}
	}
	prio := func(v int32) func(*api.Pod) { return func(p *api.Pod) { p.Spec.Priority = ptr(v) } }
	uid := func(p *api.Pod) { p.OwnerReferences[0].UID = "owner-uid" }
	started := func(minutesAgo int64) func(*api.Pod) {
		return func(p *api.Pod) { at := upstreamNow - api.Time(minutesAgo*60e9); p.Status.StartTime = &at }
	}
	taint := func(n *api.Node) {
		n.Spec.Taints = []api.Taint{{Key: "hardware", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
	}
	pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "pdb1", Namespace: "default"},
		Spec: api.PDBSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "foo"}}}}
	cases := []struct {
		name  string
		line  int
		pods  []*api.Pod
		args  EvictorArgs
		nodes []*api.Node
		pdbs  []*api.PodDisruptionBudget
		want  bool
	}{
		{name: "Failed pod eviction with no ownerRefs", line: 392, pods: []*api.Pod{pod("bare_pod_failed", failed)}},
		{name: "Normal pod eviction with no ownerRefs and evictFailedBarePods enabled", line: 400, pods: []*api.Pod{pod("bare_pod")}, args: EvictorArgs{EvictFailedBarePods: true}},
		{name: "Failed pod eviction with no ownerRefs (evictFailedBarePods)", line: 405, pods: []*api.Pod{pod("bare_pod_failed_but_can_be_evicted", failed)}, args: EvictorArgs{EvictFailedBarePods: true}, want: true},
		{name: "Normal pod eviction with normal ownerRefs", line: 415, pods: []*api.Pod{pod("p1", normalOwner)}, want: true},
		{name: "Normal pod eviction with normal ownerRefs and evict annotation", line: 422, pods: []*api.Pod{pod("p2", evictAnn, normalOwner)}, want: true},
		{name: "Normal pod eviction with normal ownerRefs and prefer-no-eviction annotation (preference)", line: 432, pods: []*api.Pod{pod("p2", softAnn, normalOwner)}, want: true},
		{name: "Normal pod eviction with normal ownerRefs and prefer-no-eviction annotation (mandatory)", line: 444, pods: []*api.Pod{pod("p2", softAnn, normalOwner)},
			args: EvictorArgs{NoEvictionPolicy: NoEvictionPolicyMandatory}},
		{name: "Normal pod eviction with replicaSet ownerRefs", line: 457, pods: []*api.Pod{pod("p3", normalOwner)}, want: true},
		{name: "Normal pod eviction with replicaSet ownerRefs and evict annotation", line: 464, pods: []*api.Pod{pod("p4", evictAnn, rsOwner)}, want: true},
		{name: "Normal pod eviction with statefulSet ownerRefs", line: 474, pods: []*api.Pod{pod("p18", normalOwner)}, want: true},
		{name: "Normal pod eviction with statefulSet ownerRefs and evict annotation", line: 481, pods: []*api.Pod{pod("p19", evictAnn, owner("StatefulSet"))}, want: true},
		{name: "Pod not evicted because it is part of a daemonSet", line: 522, pods: []*api.Pod{pod("p8", owner("DaemonSet"))}},
		{name: "Pod is evicted because it is part of a daemonSet, but it has evict annotation", line: 531, pods: []*api.Pod{pod("p9", evictAnn, owner("DaemonSet"))}, want: true},
		{name: "Pod not evicted because it is a mirror poddsa", line: 541, pods: []*api.Pod{pod("p10", normalOwner, mirror)}},
		{name: "Pod is evicted because it is a mirror pod, but it has evict annotation", line: 550, pods: []*api.Pod{pod("p11", normalOwner, mirror, evictAnn)}, want: true},
		{name: "Pod not evicted because it has system critical priority", line: 561, pods: []*api.Pod{pod("p12", normalOwner, prio(api.SystemCriticalPriority))}},
		{name: "Pod is evicted because it has system critical priority, but it has evict annotation", line: 570,
			pods: []*api.Pod{pod("p13", normalOwner, prio(api.SystemCriticalPriority), evictAnn)}, want: true},
		{name: "Pod not evicted because it has a priority higher than the configured priority threshold", line: 583,
			pods: []*api.Pod{pod("p14", normalOwner, prio(high))}, args: EvictorArgs{PriorityThreshold: &PriorityThreshold{Value: &low}}},
		{name: "Pod is evicted because it has a priority higher than the configured priority threshold, but it has evict annotation", line: 593,
			pods: []*api.Pod{pod("p15", normalOwner, evictAnn, prio(high))}, args: EvictorArgs{PriorityThreshold: &PriorityThreshold{Value: &low}}, want: true},
		{name: "Pod is evicted because it has system critical priority, but evictSystemCriticalPods = true", line: 605,
			pods: []*api.Pod{pod("p16", normalOwner, prio(api.SystemCriticalPriority))}, args: EvictorArgs{EvictSystemCriticalPods: true}, want: true},
		{name: "Pod is evicted because it has system critical priority, but evictSystemCriticalPods = true and it has evict annotation", line: 616,
			pods: []*api.Pod{pod("p16", normalOwner, evictAnn, prio(api.SystemCriticalPriority))}, args: EvictorArgs{EvictSystemCriticalPods: true}, want: true},
		{name: "Pod is evicted because it has a priority higher than the configured priority threshold, but evictSystemCriticalPods = true", line: 628,
			pods: []*api.Pod{pod("p17", normalOwner, prio(high))}, args: EvictorArgs{EvictSystemCriticalPods: true, PriorityThreshold: &PriorityThreshold{Value: &low}}, want: true},
		{name: "Pod is evicted because it has a priority higher than the configured priority threshold, but evictSystemCriticalPods = true and it has evict annotation", line: 640,
			pods: []*api.Pod{pod("p17", normalOwner, evictAnn, prio(high))}, args: EvictorArgs{EvictSystemCriticalPods: true, PriorityThreshold: &PriorityThreshold{Value: &low}}, want: true},
		{name: "Pod with no tolerations running on normal node, all other nodes tainted, no PreEvictionFilter, should ignore nodeFit", line: 653,
			pods: []*api.Pod{pod("p1", normalOwner)}, nodes: []*api.Node{buildNode("node2", 1000, 2000, 13, taint), buildNode("node3", 1000, 2000, 13, taint)},
			args: EvictorArgs{NodeFit: true}, want: true},
		{name: "minReplicas of 2, owner with 2 replicas, evicts", line: 665, pods: []*api.Pod{tiny("p1", normalOwner, uid), tiny("p2", normalOwner, uid)},
			args: EvictorArgs{MinReplicas: 2}, want: true},
		{name: "minReplicas of 3, owner with 2 replicas, no eviction", line: 680, pods: []*api.Pod{tiny("p1", normalOwner, uid), tiny("p2", normalOwner, uid)},
			args: EvictorArgs{MinReplicas: 3}},
		{name: "minReplicas of 2, multiple owners, no eviction", line: 694,
			pods: []*api.Pod{tiny("p1", func(p *api.Pod) {
				p.OwnerReferences = []api.OwnerReference{{Kind: "Pod", APIVersion: "v1", UID: "owner-uid"}, {Kind: "Pod", APIVersion: "v1"}}
			}), tiny("p2", normalOwner)},
			args: EvictorArgs{MinReplicas: 2}, want: true},
		{name: "minPodAge of 50, pod created 10 minutes ago, no eviction", line: 708, pods: []*api.Pod{tiny("p1", normalOwner, started(10))}, args: EvictorArgs{MinPodAge: &minAge}},
		{name: "minPodAge of 50, pod created 60 minutes ago, evicts", line: 719, pods: []*api.Pod{tiny("p1", normalOwner, started(60))}, args: EvictorArgs{MinPodAge: &minAge}, want: true},
		{name: "nil minPodAge, pod created 60 minutes ago, evicts", line: 731, pods: []*api.Pod{tiny("p1", normalOwner, started(60))}, want: true},
		{name: "ignorePodsWithoutPDB, pod with no PDBs, no eviction", line: 742, pods: []*api.Pod{tiny("p1", normalOwner, labels("app", "foo"))},
			args: EvictorArgs{IgnorePodsWithoutPDB: true}},
		{name: "ignorePodsWithoutPDB, pod with PDBs, evicts", line: 754, pods: []*api.Pod{tiny("p1", normalOwner, labels("app", "foo"))},
			pdbs: []*api.PodDisruptionBudget{pdb}, args: EvictorArgs{IgnorePodsWithoutPDB: true}, want: true},
		{name: "DaemonSet pod is evicted because 'DaemonSetPods' is in DefaultDisabled", line: 809, pods: []*api.Pod{pod("p19", owner("DaemonSet"))},
			args: EvictorArgs{DefaultDisabled: []string{DaemonSetPods}}, want: true},
		{name: "Pod without PDB is not evicted because 'PodsWithoutPDB' is in ExtraEnabled", line: 840, pods: []*api.Pod{pod("p21", normalOwner)},
			args: EvictorArgs{ExtraEnabled: []string{PodsWithoutPDB}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := evictorVerdicts(t, tc.args, tc.nodes, tc.pods, tc.pdbs); got != tc.want {
				t.Fatalf("defaultevictor_test.go:%d: Filter = %t, want %t", tc.line, got, tc.want)
			}
		})
	}
}
