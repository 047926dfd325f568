package autoscaler

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

// benchCluster is issue 16's autoscaler target: 20 node groups (4 zones ×
// 5 machine shapes, one node each, full) and 1,000 unschedulable pods from
// 10 workloads, some spread over zones, some pinned to a machine shape.
func benchCluster(b *testing.B) (*engine.Engine, []NodeGroup) {
	b.Helper()
	shapes := []struct{ cpu, mem string }{{"2", "8Gi"}, {"4", "16Gi"}, {"8", "32Gi"}, {"16", "64Gi"}, {"8", "64Gi"}}
	var groups []NodeGroup
	for z := 0; z < 4; z++ {
		for s, sh := range shapes {
			groups = append(groups, group(fmt.Sprintf("g-%d-%d", z, s), 1, 60, template(sh.cpu, sh.mem, fmt.Sprintf("zone-%d", z), "shape", fmt.Sprint(s))))
		}
	}
	e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.ByNameScheduler})
	a, err := New(groups, Options{}, scheduler.Config{TieBreak: scheduler.TieBreakByName}, "", 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range a.InitialNodes(func(string) int { return 0 }) {
		if err := e.AddNode(n); err != nil {
			b.Fatal(err)
		}
	}
	// fill every node so nothing pending fits
	for _, n := range e.Nodes() {
		p := pod("filler-"+n.Name, "1", "1Gi", "filler")
		p.Spec.Containers[0].Resources.Requests[api.ResourceCPU] = n.Status.Allocatable[api.ResourceCPU]
		p.Spec.NodeName = n.Name
		if err := e.CreatePod(p); err != nil {
			b.Fatal(err)
		}
	}
	for w := 0; w < 10; w++ {
		for i := 0; i < 100; i++ {
			p := pod(fmt.Sprintf("w%d-%d", w, i), fmt.Sprintf("%dm", 250*(w%4+1)), "1Gi", fmt.Sprintf("rs-%d", w))
			p.Labels = map[string]string{"app": fmt.Sprintf("w%d", w)}
			switch w % 3 {
			case 1:
				p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: "DoNotSchedule",
					LabelSelector: &api.LabelSelector{MatchLabels: p.Labels}}}
			case 2:
				p.Spec.NodeSelector = map[string]string{"shape": fmt.Sprint(w % 5)}
			}
			if err := e.CreatePod(p); err != nil {
				b.Fatal(err)
			}
		}
	}
	if n := len(e.UnschedulablePods()); n != 1000 {
		b.Fatalf("%d unschedulable pods, want 1000", n)
	}
	return e, groups
}

// BenchmarkAutoscalerLoop is one RunOnce (scale-up evaluation of 1,000
// pending pods over 20 groups, then the scale-down evaluation) on a fresh
// autoscaler each time.
func BenchmarkAutoscalerLoop(b *testing.B) {
	e, groups := benchCluster(b)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		a, err := New(groups, Options{Expander: []string{ExpanderLeastWaste}}, scheduler.Config{TieBreak: scheduler.TieBreakByName}, "", 1)
		if err != nil {
			b.Fatal(err)
		}
		a.RunOnce(e, e.Now())
		if len(a.Status().ScaleUp.Infos) == 0 {
			b.Fatalf("no scale-up: %+v", a.Status().ScaleUp.Result)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/loop")
}
