package testutil

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// BenchSnapshot builds an n-node cluster for plugin benchmarks: three
// zones, disk=ssd on every third node, 10% of nodes tainted
// dedicated=batch:NoSchedule, 5% spot:PreferNoSchedule, every fourth node
// holding app:v1 (300 MiB), 8 cpu / 32Gi / 110 pods, three pods per node
// requesting 500m / 1Gi.
func BenchSnapshot(n int) *framework.Snapshot {
	zones := []string{"zone-a", "zone-b", "zone-c"}
	nodes := make([]*api.Node, 0, n)
	pods := make([]*api.Pod, 0, 3*n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("node-%05d", i)
		nw := MakeNode().Name(name).Label(api.LabelTopologyZone, zones[i%3]).
			Capacity(Res{"cpu": "8", "memory": "32Gi", "pods": "110"})
		if i%3 == 0 {
			nw.Label("disk", "ssd")
		}
		if i%10 == 0 {
			nw.Taint("dedicated", "batch", api.TaintEffectNoSchedule)
		}
		if i%20 == 1 {
			nw.Taint("spot", "true", api.TaintEffectPreferNoSchedule)
		}
		if i%4 == 0 {
			nw.Image(300<<20, "app:v1")
		}
		nodes = append(nodes, nw.Obj())
		for j := 0; j < 3; j++ {
			pods = append(pods, MakePod().Name(fmt.Sprintf("%s-%d", name, j)).Node(name).
				Req(Res{"cpu": "500m", "memory": "1Gi"}).Obj())
		}
	}
	return NewSnapshot(nodes, pods)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// PerNode benchmarks pass, one Filter or Score pass over nodes nodes, and
// reports ns/node (wall clock) and cpu-ns/node (process CPU time, which a
// loaded shared machine distorts less).
func PerNode(b *testing.B, nodes int, pass func()) {
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		pass()
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nodes), "ns/node")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*nodes), "cpu-ns/node")
}

// FilterBatchPass returns a pass running pl's batch filter over every
// node of snap (the candidate list rebuilt each time, as the runtime does).
func FilterBatchPass(pl framework.BatchFilterPlugin, state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot) func() {
	cand := make([]int32, len(snap.Nodes()))
	reject := func(int32, *framework.Status) {}
	return func() {
		cand = cand[:len(snap.Nodes())]
		for k := range cand {
			cand[k] = int32(k)
		}
		pl.FilterBatch(state, pod, snap.Nodes(), cand, reject)
	}
}

// ScoreBatchPass returns a pass running pl's batch score over every node.
func ScoreBatchPass(pl framework.BatchScorePlugin, state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot) func() {
	scores := make([]framework.NodeScore, len(snap.Nodes()))
	return func() { pl.ScoreBatch(state, pod, snap.Nodes(), scores) }
}
