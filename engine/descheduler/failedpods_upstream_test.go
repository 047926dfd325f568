package descheduler

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamRemoveFailedPods ports TestRemoveFailedPods
// (pkg/framework/plugins/removefailedpods/failedpods_test.go:36), all 25
// cases. Upstream's buildTestPod (:408) makes a ReplicaSet-owned pod
// created now; newPodStatus (:389) sets phase Failed when a container
// state is given.
func TestUpstreamRemoveFailedPods(t *testing.T) {
	status := func(reason, phase string, init, ctr *api.ContainerState) api.PodStatus {
		s := api.PodStatus{Reason: reason, Phase: phase}
		if init != nil {
			s.InitContainerStatuses = []api.ContainerStatus{{State: *init}}
			s.Phase = api.PodFailed
		}
		if ctr != nil {
			s.ContainerStatuses = []api.ContainerStatus{{State: *ctr}}
			s.Phase = api.PodFailed
		}
		return s
	}
	term := func(reason string, code int32) *api.ContainerState {
		return &api.ContainerState{Terminated: &api.ContainerStateTerminated{Reason: reason, ExitCode: code}}
	}
	wait := func(reason string) *api.ContainerState {
		return &api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}
	}
	pod := func(name, node string, s api.PodStatus, edit ...func(*api.Pod)) *api.Pod {
		return buildPod(name, 1, 1, node, append([]func(*api.Pod){rsOwner, withCreation(upstreamNow), func(p *api.Pod) { p.Status = s }}, edit...)...)
	}
	args := func(init bool, reasons []string, codes []int32, kinds []string, minAge *uint) FailedPodsArgs {
		return FailedPodsArgs{IncludingInitContainers: init, Reasons: reasons, ExitCodes: codes, ExcludeOwnerKinds: kinds, MinPodLifetimeSeconds: minAge}
	}
	node1 := []*api.Node{buildNode("node1", 2000, 3000, 10)}
	oneHour := uint(3600)
	cases := []struct {
		name    string
		line    int
		args    FailedPodsArgs
		nodes   []*api.Node
		pods    []*api.Pod
		nodeFit bool
		want    int
	}{
		{"default empty args, 0 failures, 0 evictions", 62, FailedPodsArgs{}, node1, nil, false, 0},
		{"0 failures, 0 evictions", 69, args(false, nil, nil, nil, nil), node1, nil, false, 0},
		{"1 container terminated with reason NodeAffinity, 1 eviction", 76, args(false, nil, nil, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("NodeAffinity", 0)))}, false, 1},
		{"1 container terminated with exitCode 1, 1 eviction", 87, args(false, nil, []int32{1}, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("", 1)))}, false, 1},
		{"1 container terminated with exitCode 1, reason NodeAffinity, 1 eviction", 98, args(false, nil, []int32{1}, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("NodeAffinity", 1)))}, false, 1},
		{"1 container terminated with exitCode 1, expected exitCode 2, 0 eviction", 109, args(false, nil, []int32{2}, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("", 1)))}, false, 0},
		{"2 containers terminated with exitCode 1 and 2 respectively, 2 evictions", 120, args(false, nil, []int32{1, 2, 3}, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("", 1))), pod("p2", "node1", status("", "", nil, term("", 2)))}, false, 2},
		{"2 containers terminated with exitCode 1 and 2 respectively, expected exitCode 1, 1 eviction", 134, args(false, nil, []int32{1}, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("", 1))), pod("p2", "node1", status("", "", nil, term("", 2)))}, false, 1},
		{"1 init container terminated with reason NodeAffinity, 1 eviction", 148, args(true, nil, nil, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", term("NodeAffinity", 0), nil))}, false, 1},
		{"1 init container terminated with exitCode 1, 1 eviction", 159, args(true, nil, []int32{1}, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("", 1)))}, false, 1},
		{"1 init container terminated with exitCode 2, expected 1, 0 eviction", 170, args(true, nil, []int32{1}, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("", 2)))}, false, 0},
		{"1 init container waiting with reason CreateContainerConfigError, 1 eviction", 181, args(true, nil, nil, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", wait("CreateContainerConfigError"), nil))}, false, 1},
		{"2 init container waiting with reason CreateContainerConfigError, 2 nodes, 2 evictions", 192, args(true, nil, nil, nil, nil),
			[]*api.Node{buildNode("node1", 2000, 3000, 10), buildNode("node2", 2000, 3000, 10)},
			[]*api.Pod{pod("p1", "node1", status("", "", term("CreateContainerConfigError", 0), nil)), pod("p2", "node2", status("", "", term("CreateContainerConfigError", 0), nil))}, false, 2},
		{"include reason=CreateContainerConfigError, 1 container terminated with reason CreateContainerConfigError, 1 eviction", 209,
			args(false, []string{"CreateContainerConfigError"}, nil, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("CreateContainerConfigError", 0)))}, false, 1},
		{"include reason=CreateContainerConfigError+NodeAffinity, 1 container terminated with reason CreateContainerConfigError, 1 eviction", 220,
			args(false, []string{"CreateContainerConfigError", "NodeAffinity"}, nil, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("CreateContainerConfigError", 0)))}, false, 1},
		{"include reason=CreateContainerConfigError, 1 container terminated with reason NodeAffinity, 0 eviction", 231,
			args(false, []string{"CreateContainerConfigError"}, nil, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("NodeAffinity", 0)))}, false, 0},
		{"include init container=false, 1 init container waiting with reason CreateContainerConfigError, 0 eviction", 242,
			args(false, []string{"CreateContainerConfigError"}, nil, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", wait("CreateContainerConfigError"), nil))}, false, 0},
		{"lifetime 1 hour, 1 container terminated with reason NodeAffinity, 0 eviction", 253, args(false, nil, nil, nil, &oneHour), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("NodeAffinity", 0)))}, false, 0},
		{"nodeFit=true, 1 unschedulable node, 1 container terminated with reason NodeAffinity, 0 eviction", 264, args(false, nil, nil, nil, nil),
			[]*api.Node{buildNode("node1", 2000, 3000, 10), buildNode("node2", 2000, 2000, 10, func(n *api.Node) { n.Spec.Unschedulable = true })},
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("NodeAffinity", 0)))}, true, 0},
		{"nodeFit=true, only available node does not have enough resources, 1 container terminated with reason CreateContainerConfigError, 0 eviction", 281,
			args(false, []string{"CreateContainerConfigError"}, nil, nil, nil),
			[]*api.Node{buildNode("node1", 1, 1, 10), buildNode("node2", 0, 0, 10)},
			[]*api.Pod{pod("p1", "node1", status("", "", nil, term("CreateContainerConfigError", 0)))}, true, 0},
		{"excluded owner kind=ReplicaSet, 1 init container terminated with owner kind=ReplicaSet, 0 eviction", 293, args(true, nil, nil, []string{"ReplicaSet"}, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", term("NodeAffinity", 0), nil))}, false, 0},
		{"excluded owner kind=DaemonSet, 1 init container terminated with owner kind=ReplicaSet, 1 eviction", 304, args(true, nil, nil, []string{"DaemonSet"}, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", term("NodeAffinity", 0), nil))}, false, 1},
		{"excluded owner kind=DaemonSet, 1 init container terminated with owner kind=ReplicaSet, 1 pod in termination; nothing should be moved", 315,
			args(true, nil, nil, []string{"DaemonSet"}, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("", "", term("NodeAffinity", 0), nil), terminating)}, false, 0},
		{"1 container terminated with reason ShutDown, 0 evictions", 326, args(false, nil, nil, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("Shutdown", api.PodFailed, nil, nil))}, true, 0},
		{"include reason=Shutdown, 2 containers terminated with reason ShutDown, 2 evictions", 336, args(false, []string{"Shutdown"}, nil, nil, nil), node1,
			[]*api.Pod{pod("p1", "node1", status("Shutdown", api.PodFailed, nil, nil)), pod("p2", "node1", status("Shutdown", api.PodFailed, nil, nil))}, false, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(FailedPodsName, EvictorArgs{NodeFit: tc.nodeFit}, PluginArgs{FailedPods: tc.args})
			got := runDirect(t, pol, &State{Nodes: tc.nodes, Pods: tc.pods})
			if len(got) != tc.want {
				t.Fatalf("failedpods_test.go:%d: evicted %v, want %d", tc.line, got, tc.want)
			}
		})
	}
}
