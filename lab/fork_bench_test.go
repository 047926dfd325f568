package lab

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// dayScenario is engine.BenchmarkDay's cluster as a lab scenario: 500
// nodes of 32 CPU in 4 zones, 5,000 pods of 50 Deployments (500m, 1Gi
// each) spread over zones.
func dayScenario(nodes, pods, zones int) string {
	var y strings.Builder
	y.WriteString("apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: day}\nseed: 1\ncluster:\n  node: {cpu: \"32\", memory: 128Gi, pods: 110}\n  zones:\n")
	for z := range zones {
		n := nodes / zones
		if z < nodes%zones {
			n++
		}
		fmt.Fprintf(&y, "  - {name: zone-%d, nodes: %d}\n", z, n)
	}
	const deployments = 50
	for d := range deployments {
		fmt.Fprintf(&y, `---
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
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: app-%d}}}
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
`, d, pods/deployments, d, d, d)
	}
	return y.String()
}

func daySession(b *testing.B, nodes, pods, zones int) *Session {
	b.Helper()
	f, err := LoadFile("day.yaml", []byte(dayScenario(nodes, pods, zones)))
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Advance(time.Minute); err != nil {
		b.Fatal(err)
	}
	return s
}

// daySeconds is one virtual day, or PODLAB_DAY_SECONDS (a shorter run
// to profile).
func daySeconds() int {
	if n, err := strconv.Atoi(os.Getenv("PODLAB_DAY_SECONDS")); err == nil && n > 0 {
		return n
	}
	return 24 * 60 * 60
}

// runDay drives a session like engine.BenchmarkDay: every second one pod
// deleted (its ReplicaSet creates the replacement), a memory-pressure
// episode every 10 minutes, a NotReady flap every 5 (one in four outlasts
// the 300 s toleration).
func runDay(b *testing.B, s *Session, seconds int) {
	r := rand.New(rand.NewPCG(1, 2))
	type undo struct {
		at   int
		node string
		kind int
	}
	var pending []undo
	var live []string
	node := func() string {
		ns := s.eng.Nodes()
		return ns[r.IntN(len(ns))].Name
	}
	for sec := 1; sec <= seconds; sec++ {
		if err := s.Advance(time.Second); err != nil {
			b.Fatal(err)
		}
		if len(live) == 0 || sec%600 == 0 {
			// the pods to pick from (a pass every 10 minutes, not every second)
			live = live[:0]
			s.eng.EachPod(func(p *api.Pod, st engine.PodState) {
				if st == engine.StateRunning {
					live = append(live, p.Namespace+"/"+p.Name)
				}
			})
		}
		if len(live) > 0 {
			k := r.IntN(len(live))
			_ = s.eng.DeletePod(live[k], engine.DeleteOptions{})
			live[k] = live[len(live)-1]
			live = live[:len(live)-1]
		}
		if sec%600 == 0 {
			n := node()
			_ = s.eng.SetNodePressure(n, 120, false)
			pending = append(pending, undo{sec + 120, n, 0})
		}
		if sec%300 == 0 {
			n := node()
			_ = s.eng.SetNodeCondition(n, engine.NodeConditionNotReady)
			d := 60
			if r.IntN(4) == 0 {
				d = 360
			}
			pending = append(pending, undo{sec + d, n, 1})
		}
		kept := pending[:0]
		for _, u := range pending {
			if u.at > sec {
				kept = append(kept, u)
				continue
			}
			if u.kind == 0 {
				_ = s.eng.SetNodePressure(u.node, 0, true)
			} else {
				_ = s.eng.SetNodeCondition(u.node, engine.NodeConditionReady)
			}
		}
		pending = kept
	}
}

// BenchmarkLabDay is 24 virtual hours of engine.BenchmarkDay's cluster and
// churn in a lab session, without and with metrics: the difference is
// what recording costs; store-bytes is the metric store after the day
// (16 bytes a point plus the series' keys and labels).
func BenchmarkLabDay(b *testing.B) {
	for _, metrics := range []bool{false, true} {
		b.Run(fmt.Sprintf("metrics=%v", metrics), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				s := daySession(b, 500, 5000, 4)
				if metrics {
					s.EnableMetrics(0)
				}
				b.StartTimer()
				c0 := processCPU(b)
				runDay(b, s, daySeconds())
				b.StopTimer()
				b.ReportMetric(float64(processCPU(b)-c0), "cpu-ns/op")
				if m := s.Metrics(); m != nil {
					pts, bytes := m.size()
					b.ReportMetric(float64(len(m.series)), "series")
					b.ReportMetric(float64(pts), "points")
					b.ReportMetric(float64(bytes), "store-bytes")
				}
				b.StartTimer()
			}
		})
	}
}

// forkLanes is a forked 5,000-pod session (170 nodes in 4 zones) with
// metrics on and churn in both lanes: lane a scales up and drains a node,
// lane b raises the spread's maxSkew.
func forkLanes(b *testing.B) *Fork {
	b.Helper()
	s := daySession(b, 170, 5000, 4)
	s.EnableMetrics(0)
	f, err := s.Fork()
	if err != nil {
		b.Fatal(err)
	}
	node := s.eng.Nodes()[3].Name
	for _, line := range []string{
		"@a scale deployment app-1 --replicas=200",
		"@a drain " + node,
		"@b scale deployment app-2 --replicas=150",
		"scale deployment app-3 --replicas=60",
	} {
		if _, err := f.Apply(line); err != nil {
			b.Fatalf("%s: %v", line, err)
		}
	}
	return f
}

// BenchmarkForkTick64 is one ×64 tick of a forked 5,000-pod lab: both
// lanes advance 6.4 virtual seconds (sampling metrics every second) and
// the lanes are compared. Before each tick (outside the timing) a pod is
// deleted in each lane, so the lanes never settle: every second is
// sampled and every Compare finds the scheduler's generation moved.
func BenchmarkForkTick64(b *testing.B) {
	f := forkLanes(b)
	runtime.GC()
	var cpu time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		for _, l := range f.lanes {
			var victim string
			l.eng.EachPod(func(p *api.Pod, st engine.PodState) {
				if victim == "" && st == engine.StateRunning {
					victim = p.Namespace + "/" + p.Name
				}
			})
			if victim != "" {
				_ = l.eng.DeletePod(victim, engine.DeleteOptions{})
			}
		}
		b.StartTimer()
		c0 := processCPU(b)
		if err := f.Advance(6400 * time.Millisecond); err != nil {
			b.Fatal(err)
		}
		_ = f.Compare()
		cpu += processCPU(b) - c0
		n++
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
}

// BenchmarkForkCompare is Fork.Compare alone on the same lanes.
func BenchmarkForkCompare(b *testing.B) {
	f := forkLanes(b)
	if err := f.Advance(time.Minute); err != nil {
		b.Fatal(err)
	}
	cpuLoop(b, func() { _ = f.Compare() })
}

// processCPU is the process's CPU time (user + system, GC included): on
// the shared, loaded machine cpu-ns/op measures the work, ns/op the wait.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuLoop runs fn b.N times and reports the process CPU per op.
func cpuLoop(b *testing.B, fn func()) {
	n := 0
	var start time.Duration
	for b.Loop() {
		if n == 0 {
			start = processCPU(b)
		}
		fn()
		n++
	}
	b.ReportMetric(float64((processCPU(b)-start).Nanoseconds())/float64(n), "cpu-ns/op")
}

// BenchmarkMetricsSampleDay is a metrics sample of BenchmarkLabDay's
// cluster (500 nodes, 5,000 pods of 50 Deployments): "full" is a pass over
// every pod and node (the tracker's rebuild: what every changed second
// cost before the tracker), "incremental" a sample after one pod was
// deleted and its replacement created, bound and started (the engine's
// work is outside the timing).
func BenchmarkMetricsSampleDay(b *testing.B) {
	benchSample(b, daySession(b, 500, 5000, 4))
}

func benchSample(b *testing.B, s *Session) {
	s.EnableMetrics(0)
	m := s.Metrics()
	b.Run("full", func(b *testing.B) {
		cpuLoop(b, func() {
			m.dropTracker()
			m.record(s)
		})
		b.ReportMetric(float64(len(m.series)), "series")
	})
	b.Run("incremental", func(b *testing.B) {
		var cpu time.Duration
		n := 0
		for b.Loop() {
			b.StopTimer()
			var victim string
			s.eng.EachPod(func(p *api.Pod, st engine.PodState) {
				if victim == "" && st == engine.StateRunning {
					victim = p.Namespace + "/" + p.Name
				}
			})
			_ = s.eng.DeletePod(victim, engine.DeleteOptions{})
			if err := s.eng.RunUntil(s.eng.Now().Add(time.Second)); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			c0 := processCPU(b)
			m.record(s)
			cpu += processCPU(b) - c0
			n++
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
	})
}
