package autoscaler

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/scheduler"
)

// BenchmarkQuietLoop is one RunOnce of the day's quiet hours: 450 nodes
// in three groups at their minimum size, 4,500 running pods, nothing
// pending — the loop the day runs 8,000 times.
func BenchmarkQuietLoop(b *testing.B) {
	e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.DefaultScheduler})
	var groups []NodeGroup
	for z := 0; z < 3; z++ {
		groups = append(groups, group(fmt.Sprintf("zone-%d", z), 150, 200, template("32", "128Gi", fmt.Sprintf("zone-%d", z))))
	}
	for n := 0; n < 450; n++ {
		nd := nodeFromTemplate(groups[n%3].Template, fmt.Sprintf("node-%03d", n))
		nd.Labels[NodeGroupLabel] = groups[n%3].Name
		if err := e.AddNode(nd); err != nil {
			b.Fatal(err)
		}
	}
	for p := 0; p < 4500; p++ {
		po := pod(fmt.Sprintf("pod-%05d", p), "500m", "1Gi", fmt.Sprintf("app-%d", p%50))
		po.Spec.NodeName = fmt.Sprintf("node-%03d", p%450)
		if err := e.CreatePod(po); err != nil {
			b.Fatal(err)
		}
	}
	a, err := New(groups, Options{}, scheduler.Config{}, "", 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		a.RunOnce(e, e.Now())
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/1000/float64(b.N), "cpu-µs/loop")
	if len(a.Status().ScaleDown.Nodes) != 450 {
		b.Fatalf("%d node statuses", len(a.Status().ScaleDown.Nodes))
	}
}
