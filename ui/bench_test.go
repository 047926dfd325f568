package ui

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// bigScenario is a generated cluster: 5 zones × 100 nodes (110 pods
// each) and deployments of `pods` replicas in all, spread over zones.
func bigScenario(pods int) string {
	var b strings.Builder
	b.WriteString(`apiVersion: podlab/v1
kind: Scenario
metadata: {name: big}
title: big cluster benchmark
seed: 1
clock: {speed: 64}
cluster:
  node: {cpu: "64", memory: 256Gi, pods: "110"}
  zones:
`)
	for z := 0; z < 5; z++ {
		fmt.Fprintf(&b, "  - {name: zone-%c, nodes: 100}\n", 'a'+z)
	}
	const deployments = 10
	for d := 0; d < deployments; d++ {
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
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
`, d, pods/deployments, d, d)
	}
	return b.String()
}

var bigSessions sync.Map // pods → *lab.Session

// bigSession builds (once per size) a session with every pod running.
func bigSession(tb testing.TB, pods int) *lab.Session {
	tb.Helper()
	if s, ok := bigSessions.Load(pods); ok {
		return s.(*lab.Session)
	}
	start := time.Now()
	f, err := lab.LoadFile("big.yaml", []byte(bigScenario(pods)))
	if err != nil {
		tb.Fatal(err)
	}
	sess, err := lab.NewSession(f, lab.SessionOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	if err := sess.Advance(30 * time.Second); err != nil {
		tb.Fatal(err)
	}
	// a few pods terminating for a long time (the timeline view) and a
	// node under memory load (the eviction view)
	snap := sess.Engine().Snapshot()
	for _, pv := range snap.Nodes[0].Pods[:10] {
		if _, err := sess.Apply("delete pod " + pv.Pod.Name + " --grace-period=3600"); err != nil {
			tb.Fatal(err)
		}
	}
	if _, err := sess.Apply("pressure node " + snap.Nodes[1].Node.Name + " memory=95%"); err != nil {
		tb.Fatal(err)
	}
	if err := sess.Advance(5 * time.Second); err != nil {
		tb.Fatal(err)
	}
	c := sess.Engine().Snapshot().Counts
	tb.Logf("setup %d pods: %s (running %d, pending %d)", pods, time.Since(start), c.Running, c.Pending)
	bigSessions.Store(pods, sess)
	return sess
}

func benchModel(b *testing.B, pods int) *Model {
	s := bigSession(b, pods)
	m := New(s, Options{Theme: "dark", Paused: true})
	update(m, tea.WindowSizeMsg{Width: 200, Height: 50})
	return m
}

// BenchmarkRefresh rebuilds the frame data (as after every tick).
func BenchmarkRefresh(b *testing.B) {
	for _, pods := range benchSizes {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			m := benchModel(b, pods)
			loop(b, m.refresh)
		})
	}
}

var benchSizes = []int{5000, 50000}

// BenchmarkView builds View() of each view at 200×50 from prepared frame
// data: the cost must not grow with the number of pods.
func BenchmarkView(b *testing.B) {
	for _, pods := range benchSizes {
		for _, v := range []struct {
			name string
			keys []string
		}{
			{"cluster", nil},
			{"cluster-pods", []string{"tab"}},
			{"explain", []string{"tab", "e"}},
			{"timeline", []string{"3"}},
			{"eviction", []string{"4"}},
			{"events", []string{"5"}},
			{"help", []string{"?"}},
			{"controllers", []string{"8"}},
		} {
			b.Run(fmt.Sprintf("%s/pods=%d", v.name, pods), func(b *testing.B) {
				m := benchModel(b, pods)
				press(m, v.keys...)
				_ = m.View()
				loop(b, func() { _ = m.View() })
			})
		}
	}
}

// BenchmarkViewRows is the cluster view as one line per node (10 zones do
// not fit as columns).
func BenchmarkViewRows(b *testing.B) {
	for _, pods := range benchSizes {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			m := benchModel(b, pods)
			update(m, tea.WindowSizeMsg{Width: 120, Height: 50})
			press(m, "g") // group by hostname: 500 domains, rows
			_ = m.View()
			loop(b, func() {
				press(m, "j")
				_ = m.View()
			})
		})
	}
}

// BenchmarkKeyToFrame is a key press (move the selection) followed by the
// frame, and BenchmarkTick64 a clock tick at ×64 (advance 6.4 s of virtual
// time, refresh, frame) — the work between two frames while the
// simulation runs at full speed.
func BenchmarkKeyToFrame(b *testing.B) {
	for _, pods := range benchSizes {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			m := benchModel(b, pods)
			loop(b, func() {
				update(m, keyMsg("j"))
				_ = m.View()
			})
		})
	}
}

// BenchmarkTick64 runs on a settled cluster (every pod running): most
// ticks find nothing changed and skip the refresh, one in
// fullRefreshEvery rebuilds the frame data (BenchmarkRefresh is that cost
// alone).
func BenchmarkTick64(b *testing.B) {
	for _, pods := range benchSizes {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			m := benchModel(b, pods)
			m.paused = false
			m.speedIdx = len(speeds) - 1
			loop(b, func() {
				update(m, tickMsg{id: m.tickID})
				update(m, keyMsg("j"))
				_ = m.View()
			})
		})
	}
}

// threadCPU is the CPU time of the calling OS thread: the benchmarks lock
// their goroutine to a thread and report cpu-ns/op beside ns/op, which on
// a shared, loaded machine measures the work rather than the waiting.
func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loop runs fn b.N times and reports the thread's CPU time per op.
func loop(b *testing.B, fn func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	n := 0
	var start time.Duration
	for b.Loop() {
		if n == 0 {
			start = threadCPU(b)
		}
		fn()
		n++
	}
	b.ReportMetric(float64((threadCPU(b)-start).Nanoseconds())/float64(n), "cpu-ns/op")
}
