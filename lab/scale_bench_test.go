package lab

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The large-input benchmarks of issue 17: what a user can type in the
// lab (add zones of thousands of nodes, scale to 100,000 replicas) and a
// pod with thousands of spread constraints. Each reports process CPU
// (cpu-s) beside wall time: the machine may be shared.
//
//	go test ./lab -run '^$' -bench 'AddNodes|Scale|Spread5000' -benchtime 1x

// smallScenario is a modest cluster: three zones of nodes nodes each and
// one Deployment web of replicas pods spreading over zones.
func smallScenario(nodes, replicas int) string {
	return fmt.Sprintf(`apiVersion: podlab/v1
kind: Scenario
metadata: {name: small}
seed: 1
cluster:
  node: {cpu: "64", memory: 256Gi, pods: 110}
  zones:
  - {name: zone-a, nodes: %d}
  - {name: zone-b, nodes: %d}
  - {name: zone-c, nodes: %d}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
`, nodes, nodes, nodes, replicas)
}

func newBenchSession(b *testing.B, src string) *Session {
	b.Helper()
	f, err := LoadFile("bench.yaml", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// daemonSet is a DaemonSet manifest: one pod per node.
const daemonSet = `---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: c, image: agent, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
`

// addZones applies zones × `add zone zN --nodes per` as a user types them
// to a three-node cluster (and a DaemonSet with ds).
func addZones(b *testing.B, zones, per int, ds bool) {
	src := smallScenario(1, 3)
	if ds {
		src += daemonSet
	}
	var cpu time.Duration
	var s *Session
	for b.Loop() {
		b.StopTimer()
		s = newBenchSession(b, src)
		b.StartTimer()
		c0 := processCPU(b)
		for z := 1; z <= zones; z++ {
			if _, err := s.Apply(fmt.Sprintf("add zone z%d --nodes %d", z, per)); err != nil {
				b.Fatal(err)
			}
		}
		cpu += processCPU(b) - c0
		if got, want := len(s.Engine().Nodes()), 3+zones*per; got != want {
			b.Fatalf("%d nodes, want %d", got, want)
		}
	}
	reportScale(b, cpu, s)
}

// reportScale reports the CPU per op, the heap with the last session
// alive (checkpoints included) and the process's peak resident memory.
func reportScale(b *testing.B, cpu time.Duration, s *Session) {
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(heapMB(), "heap-MB")
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "maxrss-MB")
	}
	runtime.KeepAlive(s)
}

// BenchmarkAddNodes adds 20 zones of 5,000 nodes (100,000 nodes) through
// the command executor, and smaller runs to show it grows linearly.
func BenchmarkAddNodes(b *testing.B) {
	for _, per := range []int{250, 500, 1000, 5000} {
		b.Run(fmt.Sprintf("%dk", 20*per/1000), func(b *testing.B) { addZones(b, 20, per, false) })
	}
	// with a DaemonSet every new node gets a pod: created, scheduled and
	// started with the zone's nodes (the zone's nodes register together:
	// the DaemonSet syncs once per command, not once per node)
	for _, per := range []int{10, 25, 100, 250, 1000} {
		b.Run(fmt.Sprintf("DaemonSet/%d", 20*per), func(b *testing.B) { addZones(b, 20, per, true) })
	}
}

// BenchmarkScale scales a Deployment from 3 to 100,000 replicas on 1,002
// nodes (110 pods each) and advances a minute, until every pod runs; and
// to fewer replicas, to show how it grows.
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{10000, 30000, 100000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) { scaleTo(b, n) })
	}
}

func scaleTo(b *testing.B, replicas int) {
	var cpu time.Duration
	var s *Session
	for b.Loop() {
		b.StopTimer()
		s = newBenchSession(b, smallScenario(334, 3))
		b.StartTimer()
		c0 := processCPU(b)
		if _, err := s.Apply(fmt.Sprintf("scale deployment/web --replicas=%d", replicas)); err != nil {
			b.Fatal(err)
		}
		if err := s.Advance(time.Minute); err != nil {
			b.Fatal(err)
		}
		cpu += processCPU(b) - c0
		running := 0
		for _, p := range s.Engine().Pods() {
			if p.Status.Phase == "Running" {
				running++
			}
		}
		if running != replicas {
			b.Fatalf("%d pods running, want %d", running, replicas)
		}
	}
	reportScale(b, cpu, s)
}

// spreadScenario is one pod p with n spread constraints, each on its own
// key k0…k(n-1), on six nodes. With labelled, every node carries every
// key and the constraints are DoNotSchedule; without, no node has any of
// them and they are ScheduleAnyway (the repro of issue 17: the pod still
// schedules, every key "missing" on every node).
func spreadScenario(n int, labelled bool) string {
	var b strings.Builder
	b.WriteString("apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: spread}\nseed: 1\n")
	when := "ScheduleAnyway"
	if labelled {
		when = "DoNotSchedule"
		for i := 1; i <= 6; i++ {
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node%d\n  labels:\n", i)
			for k := 0; k < n; k++ {
				fmt.Fprintf(&b, "    k%d: v%d\n", k, (i+k)%3)
			}
			b.WriteString("status: {allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}}\n")
		}
	} else {
		b.WriteString("cluster:\n  zones:\n  - {name: zone-a, nodes: 3}\n  - {name: zone-b, nodes: 3}\n")
	}
	b.WriteString("---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: p}}\nspec:\n  topologySpreadConstraints:\n")
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "  - {maxSkew: 1, topologyKey: k%d, whenUnsatisfiable: %s, labelSelector: {matchLabels: {app: p}}}\n", k, when)
	}
	b.WriteString("  containers: [{name: c, image: nginx}]\n")
	return b.String()
}

// BenchmarkSpread5000Constraints loads, validates (as podlab validate:
// load, then run to the first instant) and schedules one pod with 5,000
// topology spread constraints.
func BenchmarkSpread5000Constraints(b *testing.B) {
	for _, labelled := range []bool{false, true} {
		name := "KeysMissing"
		if labelled {
			name = "KeysOnEveryNode"
		}
		b.Run(name, func(b *testing.B) {
			src := spreadScenario(5000, labelled)
			var cpu time.Duration
			var s *Session
			for b.Loop() {
				c0 := processCPU(b)
				f, err := LoadFile("bench.yaml", []byte(src))
				if err != nil {
					b.Fatal(err)
				}
				if err := Validate(io.Discard, f); err != nil {
					b.Fatal(err)
				}
				cpu += processCPU(b) - c0
				s = newBenchSession(b, src)
				if p := s.Engine().Pod("default/p"); p == nil || p.Spec.NodeName == "" {
					b.Fatal("pod p not scheduled")
				}
			}
			reportScale(b, cpu, s)
		})
	}
}
