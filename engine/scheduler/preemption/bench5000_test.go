package preemption

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// cpuTime is the process's user+system CPU time (the machine is shared:
// CPU time measures the work better than the wall clock).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPreempt5000 is one preemption decision on the engine
// benchmark's cluster: 5,000 four-cpu nodes packed 90% with 20,000
// priority-0 pods of 900m, the default filter plugins, a 1-cpu
// priority-1000 preemptor; every node is a candidate (one victim each).
// "reference" forces a full RunFilterPlugins per reprieve on cloned node
// and state (the cost before the arithmetic path); "cold" uses a new
// evaluator per decision, so its dry-run memo starts empty (the others keep
// one evaluator, as the scheduler does, and the unchanged cluster is
// answered from the memo: the filters still run on every node).
func BenchmarkPreempt5000(b *testing.B) {
	var nodes []*api.Node
	var pods []*api.Pod
	for i := 0; i < 5000; i++ {
		name := fmt.Sprintf("node-%04d", i)
		nodes = append(nodes, mkNode(name, "4"))
		for j := 0; j < 4; j++ {
			pods = append(pods, mkPod(podSpec{name: fmt.Sprintf("low-%d-%d", i, j), node: name, cpu: "900m", prio: 0, start: 1,
				labels: []string{"app", "batch"}}))
		}
	}
	h := &profileHandle{fakeHandle: newHandle(nodes, pods, defaultPlugins()...), nominated: map[string][]*framework.PodInfo{}}
	pi := framework.NewPodInfo(mkPod(podSpec{name: "high", cpu: "1", prio: 1000}))
	state, statuses := h.cycle(pi)
	for _, mode := range []struct {
		name      string
		window    Window
		reference bool
		cold      bool
	}{
		{"all-candidates", AllCandidates, false, false},
		{"all-candidates-cold", AllCandidates, false, true},
		{"window", UpstreamWindow, false, false},
		{"window-cold", UpstreamWindow, false, true},
		{"all-candidates-reference", AllCandidates, true, false},
		{"window-reference", UpstreamWindow, true, false},
	} {
		b.Run(mode.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			e := &Evaluator{Handle: h, Window: mode.window, Offset: rng.IntN, referenceOnly: mode.reference}
			b.ReportAllocs()
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if mode.cold {
					e = &Evaluator{Handle: h, Window: mode.window, Offset: rng.IntN, referenceOnly: mode.reference}
				}
				if r := e.Preempt(state, pi, statuses); r.NominatedNode == "" || len(r.Victims) != 1 {
					b.Fatal(r.Message)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "preemptions/cpu-s")
		})
	}
}
