package preemption

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
)

// BenchmarkPreempt1000: 1000 full nodes of 10 pods each with mixed
// priorities; every node is a candidate, so all are dry-run.
func BenchmarkPreempt1000(b *testing.B) {
	var nodes []*api.Node
	var pods []*api.Pod
	for i := 0; i < 1000; i++ {
		name := fmt.Sprintf("node-%04d", i)
		nodes = append(nodes, mkNode(name, "1"))
		for j := 0; j < 10; j++ {
			pods = append(pods, mkPod(podSpec{name: fmt.Sprintf("p-%d-%d", i, j), node: name, cpu: "100m",
				prio: int32((i*7 + j*3) % 50), start: i*10 + j + 1, labels: []string{"app", fmt.Sprintf("a%d", j)}}))
		}
	}
	h := newHandle(nodes, pods, tainted{}, fit{}, interpodaffinity.New())
	pi := framework.NewPodInfo(mkPod(podSpec{name: "in", cpu: "350m", prio: 100}))
	state, statuses := h.cycle(pi)
	pdbs := []*api.PodDisruptionBudget{pdb("a0", 0, "app", "a0")}
	e := &Evaluator{Handle: h, PDBs: func() []*api.PodDisruptionBudget { return pdbs }}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := e.Preempt(state, pi, statuses); r.NominatedNode == "" {
			b.Fatal(r.Message)
		}
	}
}
