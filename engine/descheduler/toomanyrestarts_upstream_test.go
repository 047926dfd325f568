package descheduler

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamRemovePodsHavingTooManyRestarts ports
// TestRemovePodsHavingTooManyRestarts
// (pkg/framework/plugins/removepodshavingtoomanyrestarts/toomanyrestarts_test.go:121),
// all 20 cases. initPods (:76) builds pod-0..pod-9 on node1, pod-i with
// 5i init and 2×10i container restarts; pod-6 is a DaemonSet pod, pod-7
// has local storage and pod-8 is a mirror pod, none evictable. podlab
// pods have no volumes, so pod-7 is left out: upstream never evicts it,
// so every expected count stands.
func TestUpstreamRemovePodsHavingTooManyRestarts(t *testing.T) {
	initPods := func(apply func(*api.Pod)) []*api.Pod {
		var pods []*api.Pod
		for i := int32(0); i <= 9; i++ {
			if i == 7 {
				continue
			}
			p := buildPod(fmt.Sprintf("pod-%d", i), 100, 0, "node1", func(p *api.Pod) {
				p.OwnerReferences = []api.OwnerReference{{Kind: "Pod", APIVersion: "v1"}}
				p.Status = api.PodStatus{
					InitContainerStatuses: []api.ContainerStatus{{RestartCount: 5 * i}},
					ContainerStatuses:     []api.ContainerStatus{{RestartCount: 10 * i}, {RestartCount: 10 * i}},
				}
			})
			switch i {
			case 6:
				p.OwnerReferences = []api.OwnerReference{{Kind: "DaemonSet", APIVersion: "v1"}}
			case 8:
				p.Annotations = map[string]string{"kubernetes.io/config.source": "api", "kubernetes.io/config.mirror": "mirror"}
			}
			if apply != nil {
				apply(p)
			}
			pods = append(pods, p)
		}
		normal := func(p *api.Pod) { p.OwnerReferences = []api.OwnerReference{{Kind: "Pod", APIVersion: "v1"}} }
		return append(pods, buildPod("CPU-consumer-1", 150, 100, "node4", normal), buildPod("CPU-consumer-2", 150, 100, "node5", normal))
	}
	node := func(name string, edit ...func(*api.Node)) *api.Node { return buildNode(name, 2000, 3000, 10, edit...) }
	args := func(threshold int32, init bool) TooManyRestartsArgs {
		return TooManyRestartsArgs{PodRestartThreshold: threshold, IncludingInitContainers: init}
	}
	crashLoop := func(p *api.Pod) {
		if len(p.Status.ContainerStatuses) > 0 {
			p.Status.ContainerStatuses[0].State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
		}
	}
	initCrashLoop := func(p *api.Pod) {
		p.Status.InitContainerStatuses = []api.ContainerStatus{{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}
	}
	phase := func(ph string) func(*api.Pod) { return func(p *api.Pod) { p.Status.Phase = ph } }
	three := ptr(uint(3))
	node1 := []*api.Node{node("node1")}
	cases := []struct {
		name     string
		line     int
		args     TooManyRestartsArgs
		pods     []*api.Pod
		nodes    []*api.Node
		perNode  *uint
		perNS    *uint
		nodeFit  bool
		expected int
	}{
		{"All pods have total restarts under threshold, no pod evictions", 145, args(10000, true), initPods(nil), node1, nil, nil, false, 0},
		{"Some pods have total restarts bigger than threshold", 154, args(1, true), initPods(nil), node1, nil, nil, false, 6},
		{"Nine pods have total restarts equals threshold(includingInitContainers=true), 6 pod evictions", 163, args(25, true), initPods(nil), node1, nil, nil, false, 6},
		{"Nine pods have total restarts equals threshold(includingInitContainers=false), 5 pod evictions", 172, args(25, false), initPods(nil), node1, nil, nil, false, 5},
		{"All pods have total restarts equals threshold(includingInitContainers=true), 6 pod evictions", 181, args(20, true), initPods(nil), node1, nil, nil, false, 6},
		{"Nine pods have total restarts equals threshold(includingInitContainers=false), 6 pod evictions", 190, args(20, false), initPods(nil), node1, nil, nil, false, 6},
		{"Five pods have total restarts bigger than threshold(includingInitContainers=true), but only 1 pod eviction", 199, args(5*25+1, true), initPods(nil), node1, nil, nil, false, 1},
		{"Five pods have total restarts bigger than threshold(includingInitContainers=false), but only 1 pod eviction", 208, args(5*20+1, false), initPods(nil), node1, nil, nil, false, 1},
		{"All pods have total restarts equals threshold(maxPodsToEvictPerNode=3), 3 pod evictions", 218, args(1, true), initPods(nil), node1, three, nil, false, 3},
		{"All pods have total restarts equals threshold(maxNoOfPodsToEvictPerNamespace=3), 3 pod evictions", 228, args(1, true), initPods(nil), node1, nil, three, false, 3},
		{"All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node is tainted, 0 pod evictions", 238, args(1, true), initPods(nil),
			[]*api.Node{node("node1"), node("node2", func(n *api.Node) {
				n.Spec.Taints = []api.Taint{{Key: "hardware", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
			})}, three, nil, true, 0},
		{"All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node is not schedulable, 0 pod evictions", 258, args(1, true), initPods(nil),
			[]*api.Node{node("node1"), node("node3", func(n *api.Node) { n.Spec.Unschedulable = true })}, three, nil, true, 0},
		{"All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node does not have enough CPU, 0 pod evictions", 274, args(1, true), initPods(nil),
			[]*api.Node{node("node1"), buildNode("node4", 200, 3000, 10)}, three, nil, true, 0},
		{"All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node has enough CPU, 3 pod evictions", 286, args(1, true), initPods(nil),
			[]*api.Node{node("node1"), node("node5")}, three, nil, true, 3},
		{"pods are in CrashLoopBackOff with states=CrashLoopBackOff, 3 pod evictions", 298,
			TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{"CrashLoopBackOff"}}, initPods(crashLoop),
			[]*api.Node{node("node1"), node("node5")}, three, nil, true, 3},
		{"pods without CrashLoopBackOff with states=CrashLoopBackOff, 0 pod evictions", 316,
			TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{"CrashLoopBackOff"}}, initPods(nil),
			[]*api.Node{node("node1"), node("node5")}, three, nil, true, 0},
		{"pods running with state=Running, 3 pod evictions", 328,
			TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{api.PodRunning}}, initPods(phase(api.PodRunning)), node1, three, nil, false, 3},
		{"pods pending with state=Running, 0 pod evictions", 340,
			TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{api.PodRunning}}, initPods(phase(api.PodPending)), node1, three, nil, false, 0},
		{"pods pending with initContainer with states=CrashLoopBackOff threshold(includingInitContainers=true), 3 pod evictions", 352,
			TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{"CrashLoopBackOff"}, IncludingInitContainers: true}, initPods(initCrashLoop), node1, three, nil, false, 3},
		{"pods pending with initContainer with states=CrashLoopBackOff threshold(includingInitContainers=false), 0 pod evictions", 370,
			TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{"CrashLoopBackOff"}}, initPods(initCrashLoop), node1, three, nil, false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(TooManyRestartsName, EvictorArgs{NodeFit: tc.nodeFit}, PluginArgs{TooManyRestarts: tc.args})
			pol.MaxNoOfPodsToEvictPerNode, pol.MaxNoOfPodsToEvictPerNamespace = tc.perNode, tc.perNS
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if len(got) != tc.expected {
				t.Fatalf("toomanyrestarts_test.go:%d: evicted %v, want %d", tc.line, got, tc.expected)
			}
		})
	}
}

// TestUpstreamTooManyRestartsOrder pins the order of
// toomanyrestarts.go's Deschedule: a node's pods are evicted most
// restarts first, so with maxPodsToEvictPerNode=3 the three pods with
// the most restarts go (the case at toomanyrestarts_test.go:218 counts
// them; this names them).
func TestUpstreamTooManyRestartsOrder(t *testing.T) {
	var pods []*api.Pod
	for i, r := range []int32{3, 9, 1, 7, 5} {
		pods = append(pods, buildPod(fmt.Sprintf("p%d", i), 100, 0, "node1", rsOwner, func(p *api.Pod) {
			p.Status.ContainerStatuses = []api.ContainerStatus{{RestartCount: r}}
		}))
	}
	pol := oneProfile(TooManyRestartsName, EvictorArgs{}, PluginArgs{TooManyRestarts: TooManyRestartsArgs{PodRestartThreshold: 1}})
	pol.MaxNoOfPodsToEvictPerNode = ptr(uint(3))
	got := runDirect(t, pol, &State{Nodes: []*api.Node{buildNode("node1", 2000, 3000, 10)}, Pods: pods})
	if fmt.Sprint(got) != "[p1 p3 p4]" {
		t.Fatalf("evicted %v, want the three most restarted [p1 p3 p4]", got)
	}
}
