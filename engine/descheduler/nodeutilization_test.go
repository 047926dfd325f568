package descheduler

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

func dsOwner(p *api.Pod) {
	p.OwnerReferences = []api.OwnerReference{{Kind: "DaemonSet", Name: "ds", UID: "ds-uid", Controller: true}}
}

// lnuPods are the pods most TestLowNodeUtilization cases share
// (nodeutilization/lownodeutilization_test.go:121): five evictable pods
// and three protected ones on n1, one on n2.
func lnuPods() []*api.Pod {
	var pods []*api.Pod
	for _, n := range []string{"p1", "p2", "p3", "p4", "p5"} {
		pods = append(pods, buildPod(n, 400, 0, "n1", rsOwner))
	}
	return append(pods,
		buildPod("p6", 400, 0, "n1", dsOwner),
		buildPod("p7", 400, 0, "n1", func(p *api.Pod) {
			p.OwnerReferences = []api.OwnerReference{{Kind: "Pod", Name: "owner", UID: "pod-uid"}}
			p.Annotations = map[string]string{"kubernetes.io/config.mirror": "mirror"}
		}),
		buildPod("p8", 400, 0, "n1", func(p *api.Pod) {
			rsOwner(p)
			p.Namespace = "kube-system"
			p.Spec.Priority = ptr(api.SystemCriticalPriority)
		}),
		buildPod("p9", 400, 0, "n2", rsOwner))
}

func lnuNodes() []*api.Node {
	return []*api.Node{buildNode("n1", 4000, 3000, 9), buildNode("n2", 4000, 3000, 10),
		buildNode("n3", 4000, 3000, 10, func(n *api.Node) { n.Spec.Unschedulable = true })}
}

// TestLowNodeUtilization ports cases of TestLowNodeUtilization
// (lownodeutilization_test.go:47) that use requested usage.
func TestLowNodeUtilization(t *testing.T) {
	cpuPods := func(v float64) Thresholds { return Thresholds{api.ResourceCPU: v, api.ResourcePods: v} }
	noEvictable := lnuPods()
	for _, p := range noEvictable[:5] {
		dsOwner(p)
	}
	cases := []struct {
		name      string
		line      int
		args      LowNodeUtilizationArgs
		pods      []*api.Pod
		want      int
		wantNodes string
	}{
		{"no evictable pods", 71, LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50)}, noEvictable, 0, ""},
		{"without priorities", 121, LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50)}, lnuPods(), 4, "n1"},
		{"without priorities, but excluding namespaces", 173, LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50),
			EvictableNamespaces: &Namespaces{Exclude: []string{"default"}}}, lnuPods(), 0, ""},
		{"deviation thresholds", 884, LowNodeUtilizationArgs{Thresholds: cpuPods(5), TargetThresholds: cpuPods(5), UseDeviationThresholds: true}, lnuPods(), 2, "n1"},
		{"without priorities with node eviction limit", 1094, LowNodeUtilizationArgs{Thresholds: cpuPods(30), TargetThresholds: cpuPods(50),
			EvictionLimitsNode: ptr(uint(2))}, lnuPods(), 2, "n1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := &Policy{Profiles: []Profile{{Name: "p", Balance: []string{LowNodeUtilizationName}, Args: PluginArgs{LowNodeUtilization: tc.args}}}}
			got, res := runPlugin(t, pol, lnuNodes(), tc.pods)
			if len(got) != tc.want {
				t.Fatalf("upstream line %d: evicted %v, want %d", tc.line, got, tc.want)
			}
			for _, e := range res.Evictions {
				if e.Node != tc.wantNodes {
					t.Errorf("evicted from %s, want %s", e.Node, tc.wantNodes)
				}
			}
		})
	}
}

// TestLowNodeUtilizationReason pins the explanation.
func TestLowNodeUtilizationReason(t *testing.T) {
	pol := &Policy{Profiles: []Profile{{Name: "p", Balance: []string{LowNodeUtilizationName}, Args: PluginArgs{LowNodeUtilization: LowNodeUtilizationArgs{
		Thresholds: Thresholds{api.ResourceCPU: 30, api.ResourcePods: 30}, TargetThresholds: Thresholds{api.ResourceCPU: 50, api.ResourcePods: 50}}}}}}
	_, res := runPlugin(t, pol, lnuNodes(), lnuPods())
	want := "node n1 is overutilized (cpu 80%, pods 89%; targetThresholds cpu 50%, pods 50%); underutilized nodes [n2] are below thresholds cpu 30%, pods 30%"
	if len(res.Evictions) == 0 || res.Evictions[0].Reason != want {
		t.Fatalf("got %+v\nwant %q", res.Evictions, want)
	}
}

// TestHighNodeUtilization: the underutilized node is emptied onto the
// others (highnodeutilization_test.go "evict pods from the least utilized node").
func TestHighNodeUtilization(t *testing.T) {
	nodes := []*api.Node{buildNode("n1", 4000, 3000, 10), buildNode("n2", 4000, 3000, 10), buildNode("n3", 4000, 3000, 10)}
	pods := []*api.Pod{buildPod("p1", 400, 0, "n1", rsOwner), buildPod("p2", 400, 0, "n1", rsOwner),
		buildPod("p3", 2000, 0, "n2", rsOwner), buildPod("p4", 2000, 0, "n3", rsOwner)}
	pol := &Policy{Profiles: []Profile{{Name: "p", Balance: []string{HighNodeUtilizationName}, Args: PluginArgs{HighNodeUtilization: HighNodeUtilizationArgs{
		Thresholds: Thresholds{api.ResourceCPU: 20}}}}}}
	got, _ := runPlugin(t, pol, nodes, pods)
	if len(got) != 2 || got[0] != "p1" || got[1] != "p2" {
		t.Fatalf("evicted %v, want [p1 p2]", got)
	}
}
