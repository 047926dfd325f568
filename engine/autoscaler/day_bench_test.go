package autoscaler

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/descheduler"
	"podlab.dev/podlab/engine/scheduler"
)

// BenchmarkDayWithAutoscaler is engine.BenchmarkDay's 24 virtual hours
// (500 nodes of 32 CPU in 3 zones, 5,000 pods, one pod deleted and one
// created every second) with the cluster autoscaler running its loop every
// 10 s over three zonal node groups (min 150, max 200 each). The nodes are
// 16 % requested, so scale-down simulates removals all day; the pressure
// and NotReady episodes of BenchmarkDay are left out (the engine's own
// benchmark measures those). Compare with BenchmarkDayWithoutAutoscaler.
func BenchmarkDayWithAutoscaler(b *testing.B) { benchDay(b, true, false) }

// BenchmarkDayWithoutAutoscaler is the same day without the autoscaler.
func BenchmarkDayWithoutAutoscaler(b *testing.B) { benchDay(b, false, false) }

// BenchmarkDayWithDeschedulerAndAutoscaler is BenchmarkDayWithAutoscaler
// with the descheduler running every benchDeschedulingInterval (issue 16:
// "BenchmarkDay with both enabled"): topology spread, duplicates and
// LowNodeUtilization (cpu/pods under 20 % low, over 50 % high) through the
// engine's Eviction API.
func BenchmarkDayWithDeschedulerAndAutoscaler(b *testing.B) { benchDay(b, true, true) }

// benchDeschedulingInterval is the descheduler's period in the day.
var benchDeschedulingInterval = 10 * time.Minute

func benchDay(b *testing.B, withAutoscaler, withDescheduler bool) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.DefaultScheduler})
		var groups []NodeGroup
		for z := 0; z < 3; z++ {
			groups = append(groups, group(fmt.Sprintf("zone-%d", z), benchDayMin, 200, template("32", "128Gi", fmt.Sprintf("zone-%d", z))))
		}
		for n := 0; n < 500; n++ {
			nd := nodeFromTemplate(groups[n%3].Template, fmt.Sprintf("node-%03d", n))
			nd.Labels[NodeGroupLabel] = groups[n%3].Name
			if err := e.AddNode(nd); err != nil {
				b.Fatal(err)
			}
		}
		var live []string
		for p := 0; p < 5000; p++ {
			po := pod(fmt.Sprintf("pod-%05d", p), "500m", "1Gi", fmt.Sprintf("app-%d", p%50))
			po.Spec.NodeName = fmt.Sprintf("node-%03d", p%500)
			if err := e.CreatePod(po); err != nil {
				b.Fatal(err)
			}
			live = append(live, po.Key())
		}
		var a *Autoscaler
		if withAutoscaler {
			var err error
			a, err = New(groups, Options{}, scheduler.Config{}, "", 1)
			if err != nil {
				b.Fatal(err)
			}
			e.AddController(a)
		}
		var d *descheduler.Controller
		if withDescheduler {
			d = &descheduler.Controller{Interval: benchDeschedulingInterval, Policy: &descheduler.Policy{Profiles: []descheduler.Profile{{Name: "day",
				Balance: []string{descheduler.TopologySpreadName, descheduler.DuplicatesName, descheduler.LowNodeUtilizationName},
				Args: descheduler.PluginArgs{LowNodeUtilization: descheduler.LowNodeUtilizationArgs{
					Thresholds:       descheduler.Thresholds{"cpu": 20, "pods": 20},
					TargetThresholds: descheduler.Thresholds{"cpu": 50, "pods": 50}}}}}}}
			e.AddController(d)
		}
		r := rand.New(rand.NewPCG(1, 2))
		next := 5000
		cpu0 := cpuTime()
		b.StartTimer()
		for s := 1; s <= benchDaySeconds; s++ {
			if err := e.Step(time.Second); err != nil {
				b.Fatal(err)
			}
			k := r.IntN(len(live))
			_ = e.DeletePod(live[k], engine.DeleteOptions{})
			po := pod(fmt.Sprintf("pod-%05d", next), "500m", "1Gi", fmt.Sprintf("app-%d", next%50))
			next++
			live[k] = po.Key()
			_ = e.CreatePod(po)
		}
		b.StopTimer()
		// CPU of the process over the day (GC workers included): on a
		// shared machine it measures the day where wall time does not
		b.ReportMetric((cpuTime() - cpu0).Seconds(), "cpu-s")
		b.ReportMetric(float64(len(e.Nodes())), "nodes")
		if a != nil {
			removed := 0
			for _, ev := range e.Events() {
				if ev.Reason == ReasonScaleDown && ev.Message == "node removed by cluster autoscaler" {
					removed++
				}
			}
			b.ReportMetric(float64(removed), "removed")
		}
		if d != nil {
			evicted := 0
			for _, ev := range e.Events() {
				if ev.Reason == descheduler.TopologySpreadName || ev.Reason == descheduler.DuplicatesName || ev.Reason == descheduler.LowNodeUtilizationName {
					evicted++
				}
			}
			b.ReportMetric(float64(d.Passes), "desched-passes")
			b.ReportMetric(float64(evicted), "desched-evictions")
		}
		_ = api.LabelHostname
	}
}

// benchDaySeconds is the day's length (shorten it to profile);
// benchDayMin each group's minimum size.
var (
	benchDaySeconds = 24 * 3600
	benchDayMin     = 150
)
