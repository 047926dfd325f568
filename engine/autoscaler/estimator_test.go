package autoscaler

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

// estimatee is upstream's BuildTestPod("estimatee", cpu millis, memory
// bytes) in namespace universe with app=estimatee, made distinct per
// index (upstream repeats one object; podlab's snapshot keys pods by name).
func estimatees(prefix string, n int, cpu, mem int64, mut func(*api.Pod)) *podGroup {
	g := &podGroup{Rejected: map[string][]string{}}
	for i := 0; i < n; i++ {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("%s-%d", prefix, i), Namespace: "universe", Labels: map[string]string{"app": "estimatee"}}}
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.Milli(cpu), api.ResourceMemory: api.Units(mem)}}}}
		if mut != nil {
			mut(p)
		}
		g.Pods = append(g.Pods, p)
	}
	return g
}

// makeNode is the test's makeNode: cpu millis, memory MiB, pods.
func makeNode(cpu, memMiB, pods int64, name, zone string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name, api.LabelTopologyZone: zone}}}
	n.Status.Capacity = api.ResourceList{api.ResourceCPU: api.Milli(cpu), api.ResourceMemory: api.Units(memMiB * 1024 * 1024), api.ResourcePods: api.Units(pods)}
	n.Status.Allocatable = n.Status.Capacity.Clone()
	n.Status.Conditions = []api.Condition{{Type: api.NodeReady, Status: api.ConditionTrue}}
	return n
}

func withMaxSkew(skew int32, key string, minDomains int32) func(*api.Pod) {
	return func(p *api.Pod) {
		md := minDomains
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{
			MaxSkew: skew, TopologyKey: key, WhenUnsatisfiable: "DoNotSchedule", MinDomains: &md,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "estimatee"}},
		}}
	}
}

func withHostPort(port int32) func(*api.Pod) {
	return func(p *api.Pod) {
		p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: port, HostPort: port, Protocol: "TCP"}}
	}
}

// Ported from cluster-autoscaler estimator/binpacking_estimator_test.go
// TestBinpackingEstimate (commit 07f2cb9a): one old node in zone-jupiter
// (so spreading has a second domain) and a template in zone-mars; a
// maxNodes of 0 means no limit. The case "hostname topology spreading
// with maxSkew=1 with a large scaleup handles scheduling pods
// retroactively" belongs to the newer fast-path estimator and is not
// ported.
func TestBinpackingEstimate(t *testing.T) {
	high := func() *podGroup { return estimatees("high", 10, 500, 1000, nil) }
	for _, tc := range []struct {
		name             string
		millicores, mem  int64
		maxNodes         int
		groups           []*podGroup
		nodes, pods      int
		firstPlacedGroup string
	}{
		{"simple resource-based binpacking", 350*3 - 50, 2 * 1000, 0,
			[]*podGroup{estimatees("e", 10, 350, 1000, nil)}, 5, 10, ""},
		{"pods-per-node bound binpacking", 10000, 20000, 0,
			[]*podGroup{estimatees("e", 20, 10, 100, nil)}, 2, 20, ""},
		{"hostport conflict forces pod-per-node", 1000, 5000, 0,
			[]*podGroup{estimatees("e", 8, 200, 1000, withHostPort(5555))}, 8, 8, ""},
		{"limiter cuts binpacking", 1000, 5000, 5,
			[]*podGroup{estimatees("e", 20, 500, 1000, nil)}, 5, 10, ""},
		{"decreasing ordered pods are processed first", 1000, 5000, 5,
			[]*podGroup{estimatees("low", 10, 50, 1000, nil), high()}, 5, 10, "high"},
		{"hostname topology spreading with maxSkew=2 forces 2 pods/node", 1000, 5000, 0,
			[]*podGroup{estimatees("e", 8, 200, 200, withMaxSkew(2, api.LabelHostname, 1))}, 4, 8, ""},
		{"zonal topology spreading with maxSkew=2 only allows 2 pods to schedule", 1000, 5000, 0,
			[]*podGroup{estimatees("e", 8, 20, 100, withMaxSkew(2, api.LabelTopologyZone, 1))}, 1, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := makeNode(100, 100, 10, "oldnode", "zone-jupiter")
			sim, err := newSimulation(scheduler.Config{TieBreak: scheduler.TieBreakByName}, []*api.Node{old}, func(string) []*api.Pod { return nil }, nil)
			if err != nil {
				t.Fatal(err)
			}
			limit := tc.maxNodes
			if limit == 0 {
				limit = maxNodesPerScaleUp
			}
			nodes, pods := sim.estimate(tc.groups, makeNode(tc.millicores, tc.mem, 10, "template", "zone-mars"), limit)
			if nodes != tc.nodes || len(pods) != tc.pods {
				t.Fatalf("estimate = %d nodes, %d pods; want %d, %d", nodes, len(pods), tc.nodes, tc.pods)
			}
			if tc.firstPlacedGroup != "" {
				for _, p := range pods {
					if p.Name[:len(tc.firstPlacedGroup)] != tc.firstPlacedGroup {
						t.Fatalf("placed %s; only the larger pods should be", p.Name)
					}
				}
			}
			if sim.snap.NumNodes() != 1 {
				t.Fatalf("estimate left %d nodes in the simulation", sim.snap.NumNodes())
			}
		})
	}
}
