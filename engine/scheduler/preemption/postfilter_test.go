package preemption

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// errPlugin is upstream's TestPlugin: its extensions fail on nodes
// labelled error=true.
type errPlugin struct{}

func (errPlugin) Name() string { return "test-plugin" }
func (errPlugin) PreFilter(*framework.CycleState, *framework.PodInfo, *framework.Snapshot) (*framework.PreFilterResult, *framework.Status) {
	return nil, nil
}
func (p errPlugin) PreFilterExtensions() framework.PreFilterExtensions { return p }
func (errPlugin) AddPod(_ *framework.CycleState, pod, _ *framework.PodInfo, n *framework.NodeInfo) *framework.Status {
	if n.Node.Labels["error"] == "true" {
		return framework.AsStatus(fmt.Errorf("failed to add pod: %v", pod.Pod.Name))
	}
	return nil
}
func (errPlugin) RemovePod(_ *framework.CycleState, pod, _ *framework.PodInfo, n *framework.NodeInfo) *framework.Status {
	if n.Node.Labels["error"] == "true" {
		return framework.AsStatus(fmt.Errorf("failed to remove pod: %v", pod.Pod.Name))
	}
	return nil
}

// Priorities and resources of upstream default_preemption_test.go.
const (
	lowPriority, midPriority, highPriority, veryHighPriority int32 = 0, 100, 1000, 10000
)

func capNode(name, cpu, pods string, labels ...string) *api.Node {
	n := mkNode(name, "1", labels...)
	n.Status.Allocatable = api.ResourceList{"pods": mustQ(pods)}
	if cpu != "" {
		n.Status.Allocatable["cpu"] = mustQ(cpu)
	}
	n.Status.Capacity = n.Status.Allocatable
	return n
}

func upPod(name, node, cpu string, prio int32, labels ...string) *api.Pod {
	p := mkPod(podSpec{name: name, node: node, cpu: "0", prio: prio, labels: labels})
	if cpu != "" {
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{"cpu": mustQ(cpu)}
	} else {
		p.Spec.Containers[0].Resources.Requests = nil
	}
	return p
}

func unsched() *framework.Status { return framework.NewStatus(framework.Unschedulable) }

// Cases from upstream TestPostFilter (plugins/defaultpreemption, v1.36).
func TestPostFilterUpstream(t *testing.T) {
	cases := []struct {
		name     string
		pod      *api.Pod
		pods     []*api.Pod
		pdbs     []*api.PodDisruptionBudget
		nodes    []*api.Node
		statuses framework.NodeToStatusMap
		wantNode string
		wantMsg  string
	}{
		{
			name:     "pod with higher priority can be made schedulable",
			pod:      upPod("p", "", "", highPriority),
			pods:     []*api.Pod{upPod("p1", "node1", "", lowPriority)},
			nodes:    []*api.Node{capNode("node1", "", "1")},
			statuses: map[string]*framework.Status{"node1": unsched()},
			wantNode: "node1",
		},
		{
			name:     "pod with tied priority is still unschedulable",
			pod:      upPod("p", "", "", lowPriority),
			pods:     []*api.Pod{upPod("p1", "node1", "", lowPriority)},
			nodes:    []*api.Node{capNode("node1", "", "1")},
			statuses: map[string]*framework.Status{"node1": unsched()},
			wantMsg:  "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
		},
		{
			name:     "preemption should respect filteredNodesStatuses",
			pod:      upPod("p", "", "", highPriority),
			pods:     []*api.Pod{upPod("p1", "node1", "", lowPriority)},
			nodes:    []*api.Node{capNode("node1", "", "1")},
			statuses: map[string]*framework.Status{"node1": framework.NewStatus(framework.UnschedulableAndUnresolvable)},
			wantMsg:  "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
		},
		{
			name:     "absent status means UnschedulableAndUnresolvable",
			pod:      upPod("p", "", "", highPriority),
			pods:     []*api.Pod{upPod("p1", "node1", "", lowPriority)},
			nodes:    []*api.Node{capNode("node1", "", "1")},
			statuses: map[string]*framework.Status{},
			wantMsg:  "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
		},
		{
			name: "pod can be made schedulable on one node",
			pod:  upPod("p", "", "", midPriority),
			pods: []*api.Pod{upPod("p1", "node1", "", highPriority), upPod("p2", "node2", "", lowPriority)},
			nodes: []*api.Node{
				capNode("node1", "", "1"), capNode("node2", "", "1"),
			},
			statuses: map[string]*framework.Status{"node1": unsched(), "node2": unsched()},
			wantNode: "node2",
		},
		{
			name: "pod can be made schedulable on minHighestPriority node",
			pod:  upPod("p", "", "", veryHighPriority),
			pods: []*api.Pod{
				upPod("p1", "node1", "", highPriority, "violating", "no"),
				upPod("p2", "node1", "", lowPriority, "violating", "yes"),
				upPod("p3", "node2", "", midPriority, "violating", "yes"),
			},
			pdbs:     []*api.PodDisruptionBudget{pdb("violating-pdb", 0, "violating", "yes"), pdb("non-violating-pdb", 2147483647, "violating", "no")},
			nodes:    []*api.Node{capNode("node1", "", "1"), capNode("node2", "", "1")},
			statuses: map[string]*framework.Status{"node1": unsched(), "node2": unsched()},
			wantNode: "node2",
		},
		{
			name:     "no enough resource after removing low priority pods",
			pod:      upPod("p", "", "300m", highPriority),
			pods:     []*api.Pod{upPod("p1", "node1", "", lowPriority), upPod("p2", "node2", "", lowPriority)},
			nodes:    []*api.Node{capNode("node1", "200m", "110"), capNode("node2", "200m", "110")},
			statuses: map[string]*framework.Status{"node1": unsched(), "node2": unsched()},
			wantMsg:  "preemption: 0/2 nodes are available: 2 Insufficient cpu.",
		},
		{
			name: "mixed reasons: no lower priority pod and not enough cpu",
			pod:  upPod("p", "", "300m", highPriority),
			pods: []*api.Pod{
				upPod("p1", "node1", "", highPriority), upPod("p2", "node2", "", lowPriority), upPod("p3", "node3", "", highPriority),
			},
			nodes:    []*api.Node{capNode("node1", "", "1"), capNode("node2", "200m", "110"), capNode("node3", "", "1")},
			statuses: map[string]*framework.Status{"node1": unsched(), "node2": unsched(), "node3": unsched()},
			wantMsg:  "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.",
		},
		{
			name: "mixed reasons: 2 unresolvable nodes, 2 without enough cpu",
			pod:  upPod("p", "", "300m", highPriority),
			pods: []*api.Pod{upPod("p1", "node1", "", lowPriority), upPod("p2", "node2", "", lowPriority)},
			nodes: []*api.Node{capNode("node1", "200m", "110"), capNode("node2", "200m", "110"),
				capNode("node3", "200m", "110"), capNode("node4", "200m", "110")},
			statuses: map[string]*framework.Status{"node1": unsched(), "node2": unsched(),
				"node4": framework.NewStatus(framework.UnschedulableAndUnresolvable)},
			wantMsg: "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.",
		},
		{
			name:     "only one node but failed with TestPlugin",
			pod:      upPod("p", "", "300m", highPriority),
			pods:     []*api.Pod{upPod("p1", "node1", "", lowPriority)},
			nodes:    []*api.Node{capNode("node1", "300m", "110", "error", "true")},
			statuses: map[string]*framework.Status{"node1": unsched()},
			wantMsg:  `preemption: running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p`,
		},
		{
			name: "one failed with TestPlugin and the other pass",
			pod:  upPod("p", "", "300m", highPriority),
			pods: []*api.Pod{upPod("p1", "node1", "", lowPriority), upPod("p2", "node2", "200m", lowPriority)},
			nodes: []*api.Node{capNode("node1", "300m", "110", "error", "true"),
				capNode("node2", "300m", "110")},
			statuses: map[string]*framework.Status{"node1": unsched(), "node2": unsched()},
			wantNode: "node2",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHandle(tc.nodes, tc.pods, errPlugin{}, tainted{}, fit{})
			pi := framework.NewPodInfo(tc.pod)
			state, _ := h.cycle(pi)
			e := &Evaluator{Handle: h, PDBs: func() []*api.PodDisruptionBudget { return tc.pdbs }}
			r := e.Preempt(state, pi, tc.statuses)
			if r.NominatedNode != tc.wantNode || r.Message != tc.wantMsg {
				t.Errorf("got %q %q\nwant %q %q", r.NominatedNode, r.Message, tc.wantNode, tc.wantMsg)
			}
		})
	}
}
