package lab

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// bigScenario is a cluster of the given size: three zones, 30
// Deployments spreading over zones (ScheduleAnyway), 100m/128Mi pods.
func bigScenario(nodes, pods int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: podlab/v1
kind: Scenario
metadata: {name: big}
seed: 1
cluster:
  node: {cpu: "64", memory: 256Gi, pods: 110}
  zones:
  - {name: zone-a, nodes: %d}
  - {name: zone-b, nodes: %d}
  - {name: zone-c, nodes: %d}
`, nodes/3, nodes/3, nodes-2*(nodes/3))
	const deployments = 30
	for i := 0; i < deployments; i++ {
		fmt.Fprintf(&b, `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app-%d}
spec:
  replicas: %d
  selector: {matchLabels: {app: app-%d}}
  template:
    metadata: {labels: {app: app-%d}}
    spec:
      topologySpreadConstraints:
      - {maxSkew: 5, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: app-%d}}}
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
`, i, pods/deployments, i, i, i)
	}
	return b.String()
}

// benchCommand is the i-th of a mix of cordons, uncordons, labels, taints
// and scales.
func benchCommand(i int) string {
	switch i % 5 {
	case 0:
		return fmt.Sprintf("cordon node-%d", 1+i)
	case 1:
		return fmt.Sprintf("uncordon node-%d", i)
	case 2:
		return fmt.Sprintf("label node node-%d tier=t%d", 1+i, i%3)
	case 3:
		return fmt.Sprintf("taint node node-%d lab=x:PreferNoSchedule", 1+i)
	}
	return fmt.Sprintf("scale deployment/app-%d --replicas=%d", i%30, 1000+i%7)
}

func heapMB() float64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

// farRewinds is how many rewinds to a random instant BenchmarkUndo times
// after its loop (enough for the worst case to show: with nine, a rewind
// that paid a garbage collection or a long replay was rarely among them).
const farRewinds = 60

// BenchmarkUndo measures undo, redo and rewind on 1,000 nodes and 30,000
// pods after 100 commands (5 virtual seconds apart), and the memory the
// checkpoints hold against the session's own. One iteration: undo the
// last command, redo it, step back (rewind to the instant of one of the
// last three commands: ctrl+←) and resume. After the loop, farRewinds
// rewinds to a random earlier instant (a time slider dragged far back),
// each resumed. Wall and process CPU times (…-cpu-…) are reported: the
// machine may be shared.
//
//	go test ./lab -run '^$' -bench BenchmarkUndo -benchtime 20x
func BenchmarkUndo(b *testing.B) {
	base := heapMB()
	f, err := LoadFile("big.yaml", []byte(bigScenario(1000, 30000)))
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	for i := 0; i < 100; i++ {
		if err := s.Advance(5 * time.Second); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Apply(benchCommand(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("100 commands in %v, %d pods, %d checkpoints", time.Since(start), len(s.Engine().Pods()), s.CheckpointCount())
	// the operations run on this thread: its CPU (…-thread-cpu-…) is the
	// operation's own and its garbage-collection assists, without the
	// collector's background marking on the other core, which the
	// process CPU (…-cpu-…) counts
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var undo, redo, step, undoCPU, redoCPU, stepCPU, undoT, stepT []time.Duration
	i := 0
	for b.Loop() {
		t0, c0, u0 := time.Now(), processCPU(b), threadCPU()
		if _, err := s.Undo(); err != nil {
			b.Fatal(err)
		}
		t1, c1, u1 := time.Now(), processCPU(b), threadCPU()
		if _, err := s.Redo(); err != nil {
			b.Fatal(err)
		}
		t2, c2, u2 := time.Now(), processCPU(b), threadCPU()
		h := s.History()
		if err := s.RewindTo(h[len(h)-1-i%3].At); err != nil {
			b.Fatal(err)
		}
		t3, c3, u3 := time.Now(), processCPU(b), threadCPU()
		s.Resume()
		undo, redo, step = append(undo, t1.Sub(t0)), append(redo, t2.Sub(t1)), append(step, t3.Sub(t2))
		undoCPU, redoCPU, stepCPU = append(undoCPU, c1-c0), append(redoCPU, c2-c1), append(stepCPU, c3-c2)
		undoT, stepT = append(undoT, u1-u0), append(stepT, u3-u2)
		i++
	}
	b.StopTimer()
	r := rand.New(rand.NewPCG(1, 1))
	var far, farCPU, farT []time.Duration
	for range farRewinds {
		t0, c0, u0 := time.Now(), processCPU(b), threadCPU()
		if err := s.RewindTo(api.Time(r.Int64N(int64(s.Now())))); err != nil {
			b.Fatal(err)
		}
		far, farCPU, farT = append(far, time.Since(t0)), append(farCPU, processCPU(b)-c0), append(farT, threadCPU()-u0)
		s.Resume()
	}
	report := func(name string, ds []time.Duration) {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2])/1e6, name+"-median-ms")
		b.ReportMetric(float64(ds[len(ds)*9/10])/1e6, name+"-p90-ms")
		b.ReportMetric(float64(ds[len(ds)-1])/1e6, name+"-max-ms")
	}
	report("undo", undo)
	report("redo", redo)
	report("stepback", step)
	report("farrewind", far)
	report("undo-cpu", undoCPU)
	report("redo-cpu", redoCPU)
	report("stepback-cpu", stepCPU)
	report("farrewind-cpu", farCPU)
	report("undo-thread-cpu", undoT)
	report("stepback-thread-cpu", stepT)
	report("farrewind-thread-cpu", farT)
	withCheckpoints := heapMB() - base
	n := s.CheckpointCount()
	s.checkpoints = nil
	own := heapMB() - base
	b.ReportMetric(float64(n), "checkpoints")
	b.ReportMetric((withCheckpoints-own)/own, "checkpoint-mem/session")
	b.Logf("session %.0f MB, %d checkpoints %.0f MB", own, n, withCheckpoints-own)
	runtime.KeepAlive(s)
}
