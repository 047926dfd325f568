package descheduler

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// benchState is 1,000 nodes in 10 zones and 30,000 pods of 100
// deployments, each with a zone spread constraint, placed unevenly (zone
// z gets weight z+1) so the topology spread plugin has work to do.
func benchState() *State {
	s := &State{Now: api.Time(3600e9)}
	for i := 0; i < 1000; i++ {
		s.Nodes = append(s.Nodes, buildNode(fmt.Sprintf("node-%04d", i), 64000, 256<<30, 110, nodeLabels("zone", fmt.Sprintf("zone-%d", i%10))))
	}
	for i := 0; i < 30000; i++ {
		app := fmt.Sprintf("app-%03d", i%100)
		zone := i % 55 // triangular: zone z gets z+1 of every 55
		z := 0
		for acc := 0; acc+z+1 <= zone; z++ {
			acc += z + 1
		}
		node := fmt.Sprintf("node-%04d", (i/55%100)*10+z)
		p := buildPod(fmt.Sprintf("%s-%05d", app, i), 100, 128<<20, node, rsOwner, labels("app", app))
		p.OwnerReferences[0].UID = app
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}}}
		s.Pods = append(s.Pods, p)
	}
	return s
}

// BenchmarkDeschedulingPass is one pass of the topology spread,
// duplicates and LowNodeUtilization plugins over 1,000 nodes / 30,000
// pods (issue 16: < 200 ms).
func BenchmarkDeschedulingPass(b *testing.B) {
	s := benchState()
	pol := &Policy{Profiles: []Profile{{Name: "bench",
		Balance: []string{TopologySpreadName, DuplicatesName, LowNodeUtilizationName},
		Args:    PluginArgs{LowNodeUtilization: LowNodeUtilizationArgs{Thresholds: Thresholds{"cpu": 5, "pods": 5}, TargetThresholds: Thresholds{"cpu": 50, "pods": 50}}}}}}
	ok := func(*api.Pod, *Eviction) string { return "" }
	var evicted int
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		evicted = Run(pol, s, true, ok).Evicted()
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/pass")
	b.ReportMetric(float64(evicted), "evictions/pass")
}

// cpuTime is the process's user+system CPU time (GC workers included):
// on a shared machine it measures the pass where wall time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
