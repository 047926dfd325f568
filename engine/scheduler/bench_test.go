package scheduler

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Benchmarks in the shapes of scheduler_perf (test/integration/scheduler_perf
// config/performance-config.yaml). Binding is what the engine does: a copy
// of the pod with spec.nodeName set, added to the Snapshot. Run with
//
//	go test ./engine/scheduler -run '^$' -bench . -benchtime 1x
//
// Each iteration builds the cluster with the timer stopped and measures
// scheduling (and binding) of the pending pods only.

var (
	benchZones = []string{"zone-a", "zone-b", "zone-c"}
	gi         = int64(1) << 30
	mi         = int64(1) << 20
)

func benchNode(i int, cpu int64) *api.Node {
	name := fmt.Sprintf("node-%04d", i)
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{
		api.LabelHostname:     name,
		api.LabelTopologyZone: benchZones[i%len(benchZones)],
	}}}
	n.Status.Allocatable = api.ResourceList{
		api.ResourceCPU:    api.Units(cpu),
		api.ResourceMemory: api.Units(32 * gi),
		api.ResourcePods:   api.Units(110),
	}
	n.Status.Capacity = n.Status.Allocatable
	return n
}

func benchPod(name string, milliCPU, mem int64, labels map[string]string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name, Labels: labels}}
	p.Spec.Containers = []api.Container{{Name: "c", Image: "pause", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{api.ResourceCPU: api.Milli(milliCPU), api.ResourceMemory: api.Units(mem)},
	}}}
	api.DefaultPod(p)
	return p
}

// cpuTime is the process's user+system CPU time: on a shared machine it
// measures the work done better than the wall clock does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func bindCopy(snap *framework.Snapshot, pi *framework.PodInfo, node string) {
	p := *pi.Pod
	p.Spec.NodeName = node
	c := *pi
	c.Pod = &p
	snap.AddPod(&c)
}

// BenchmarkTopologySpreading is scheduler_perf's TopologySpreading: 5,000
// nodes in 3 zones, 5,000 running pods, 5,000 pods with one zone
// constraint (maxSkew 5, DoNotSchedule).
func BenchmarkTopologySpreading(b *testing.B) {
	forEachMode(b, benchTopologySpreading)
}

// forEachMode runs a benchmark with every node evaluated (the lab's
// default) and with upstream's adaptive percentageOfNodesToScore (a
// default kube-scheduler: 10 % of 5,000 nodes).
func forEachMode(b *testing.B, bench func(b *testing.B, percentage *int32)) {
	adaptive := int32(0)
	b.Run("AllNodes", func(b *testing.B) { bench(b, nil) })
	b.Run("Adaptive", func(b *testing.B) { bench(b, &adaptive) })
}

func benchTopologySpreading(b *testing.B, percentage *int32) {
	benchTopologySpreadingWith(b, Config{PercentageOfNodesToScore: percentage})
}

// benchTopologySpreadingWith is the TopologySpreading shape with a
// scheduler configuration (profiles: bench_policy_test.go).
func benchTopologySpreadingWith(b *testing.B, cfg Config) {
	const numNodes, numInit, numPods = 5000, 5000, 5000
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "spread"}}
	pending := make([]*framework.PodInfo, numPods)
	for i := range pending {
		p := benchPod(fmt.Sprintf("spread-%05d", i), 100, 500*mi, map[string]string{"app": "spread"})
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{
			MaxSkew: 5, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel,
		}}
		pending[i] = framework.NewPodInfo(p)
	}
	var elapsed, cpu time.Duration
	for it := 0; it < b.N; it++ {
		b.StopTimer()
		snap := framework.NewSnapshot()
		for i := 0; i < numNodes; i++ {
			snap.AddNode(benchNode(i, 4))
		}
		for i := 0; i < numInit; i++ {
			p := benchPod(fmt.Sprintf("init-%05d", i), 100, 500*mi, map[string]string{"app": "spread"})
			p.Spec.NodeName = fmt.Sprintf("node-%04d", i%numNodes)
			snap.AddPod(framework.NewPodInfo(p))
		}
		cfg.TieBreak = TieBreakByName
		s, err := Build(cfg, snap)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime()
		for _, pi := range pending {
			res := s.ScheduleOne(pi)
			if res.Node == "" {
				b.Fatalf("%s unschedulable: %s", pi.Pod.Name, res.Message)
			}
			bindCopy(snap, pi, res.Node)
		}
		elapsed += time.Since(start)
		cpu += cpuTime() - cpu0
	}
	b.ReportMetric(float64(numPods*b.N)/elapsed.Seconds(), "pods/s")
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(numPods*b.N*numNodes), "ns/node/pod")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(numPods*b.N*numNodes), "cpu-ns/node/pod")
	b.ReportMetric(float64(numPods*b.N)/cpu.Seconds(), "pods/cpu-s")
}

// BenchmarkMixedScheduling schedules 50,000 pods on 5,000 nodes with the
// default-like spreading (zone and hostname, ScheduleAnyway), 10% tainted
// nodes that a third of the pods tolerate, required and preferred node
// affinity and resource scoring. It reports the overall rate, the rates of
// the first and last 10,000 pods, and the heap in use at the end.
func BenchmarkMixedScheduling(b *testing.B) {
	forEachMode(b, benchMixedScheduling)
}

func benchMixedScheduling(b *testing.B, percentage *int32) {
	const numNodes, numPods, window = 5000, 50000, 10000
	pending := make([]*framework.PodInfo, numPods)
	for i := range pending {
		app := fmt.Sprintf("app-%02d", i%20)
		p := benchPod(fmt.Sprintf("pod-%05d", i), int64(50+50*(i%4)), int64(128+128*(i%3))*mi, map[string]string{"app": app})
		sel := &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{
			{MaxSkew: 5, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway, LabelSelector: sel},
			{MaxSkew: 3, TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway, LabelSelector: sel},
		}
		if i%3 == 0 {
			p.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpEqual, Value: "batch", Effect: api.TaintEffectNoSchedule}}
		}
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelTopologyZone, Operator: "In", Values: benchZones}},
			}}},
			PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{
				Weight: 10, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "disktype", Operator: "In", Values: []string{"ssd"}}}},
			}},
		}}
		pending[i] = framework.NewPodInfo(p)
	}
	var elapsed, first, last, cpu time.Duration
	var heapMB float64
	for it := 0; it < b.N; it++ {
		b.StopTimer()
		snap := framework.NewSnapshot()
		for i := 0; i < numNodes; i++ {
			n := benchNode(i, 8)
			if i%10 == 0 {
				n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "batch", Effect: api.TaintEffectNoSchedule}}
			}
			if i%3 == 0 {
				n.Labels["disktype"] = "ssd"
			}
			snap.AddNode(n)
		}
		s := benchScheduler(b, snap, percentage)
		runtime.GC()
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime()
		var windowStart time.Time
		for i, pi := range pending {
			if i == 0 || i == numPods-window {
				windowStart = time.Now()
			}
			res := s.ScheduleOne(pi)
			if res.Node == "" {
				b.Fatalf("%s unschedulable: %s", pi.Pod.Name, res.Message)
			}
			bindCopy(snap, pi, res.Node)
			switch i {
			case window - 1:
				first += time.Since(windowStart)
			case numPods - 1:
				last += time.Since(windowStart)
			}
		}
		elapsed += time.Since(start)
		cpu += cpuTime() - cpu0
		b.StopTimer()
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		heapMB = float64(ms.HeapInuse) / float64(1<<20)
		b.StartTimer()
	}
	b.ReportMetric(float64(numPods*b.N)/elapsed.Seconds(), "pods/s")
	b.ReportMetric(float64(window*b.N)/first.Seconds(), "first10k-pods/s")
	b.ReportMetric(float64(window*b.N)/last.Seconds(), "last10k-pods/s")
	b.ReportMetric(first.Seconds()/last.Seconds(), "last/first")
	b.ReportMetric(heapMB, "heap-MB")
	b.ReportMetric(float64(numPods*b.N)/cpu.Seconds(), "pods/cpu-s")
}

type nopFilter struct{ name string }

func (p nopFilter) Name() string { return p.name }
func (nopFilter) Filter(*framework.CycleState, *framework.PodInfo, *framework.NodeInfo) *framework.Status {
	return nil
}

type nopScore struct{ name string }

func (p nopScore) Name() string { return p.name }
func (nopScore) Score(*framework.CycleState, *framework.PodInfo, *framework.NodeInfo) (int64, *framework.Status) {
	return 0, nil
}
func (nopScore) ScoreExtensions() framework.ScoreExtensions { return nil }

// BenchmarkRuntimeOverhead measures the runtime alone: 8 filters and 9
// score plugins that do nothing, on 5,000 nodes (what a cycle costs
// before any plugin work).
func BenchmarkRuntimeOverhead(b *testing.B) {
	snap := framework.NewSnapshot()
	for i := 0; i < 5000; i++ {
		snap.AddNode(benchNode(i, 4))
	}
	var plugins []framework.Plugin
	for _, n := range []string{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity"} {
		plugins = append(plugins, nopFilter{n})
	}
	for _, n := range []string{"TaintToleration.", "NodeAffinity.", "NodeResourcesFit.", "PodTopologySpread.", "InterPodAffinity.", "NodeResourcesBalancedAllocation", "ImageLocality"} {
		plugins = append(plugins, nopScore{n})
	}
	s := newScheduler(Config{TieBreak: TieBreakByName}, snap, plugins, nil, nil)
	pi := framework.NewPodInfo(benchPod("p", 100, 100*mi, nil))
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if s.ScheduleOne(pi).Node == "" {
			b.Fatal("unschedulable")
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*5000), "cpu-ns/node/pod")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*5000), "ns/node/pod")
}

type nopBatchFilter struct{ nopFilter }

func (nopBatchFilter) FilterBatch(_ *framework.CycleState, _ *framework.PodInfo, _ []*framework.NodeInfo, cand []int32, _ func(int32, *framework.Status)) []int32 {
	return cand
}

type nopBatchScore struct{ nopScore }

func (nopBatchScore) ScoreBatch(_ *framework.CycleState, _ *framework.PodInfo, nodes []*framework.NodeInfo, scores []framework.NodeScore) *framework.Status {
	for i := range nodes {
		scores[i].Score = 0
	}
	return nil
}

// BenchmarkRuntimeOverheadBatch is BenchmarkRuntimeOverhead with plugins
// that implement the batch fast paths (framework.BatchFilterPlugin /
// BatchScorePlugin): what the runtime costs when plugins loop themselves.
func BenchmarkRuntimeOverheadBatch(b *testing.B) {
	snap := framework.NewSnapshot()
	for i := 0; i < 5000; i++ {
		snap.AddNode(benchNode(i, 4))
	}
	var plugins []framework.Plugin
	for _, n := range []string{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity"} {
		plugins = append(plugins, nopBatchFilter{nopFilter{n}})
	}
	for _, n := range []string{"TaintToleration.", "NodeAffinity.", "NodeResourcesFit.", "PodTopologySpread.", "InterPodAffinity.", "NodeResourcesBalancedAllocation", "ImageLocality"} {
		plugins = append(plugins, nopBatchScore{nopScore{n}})
	}
	s := newScheduler(Config{TieBreak: TieBreakByName}, snap, plugins, nil, nil)
	pi := framework.NewPodInfo(benchPod("p", 100, 100*mi, nil))
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if s.ScheduleOne(pi).Node == "" {
			b.Fatal("unschedulable")
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*5000), "cpu-ns/node/pod")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*5000), "ns/node/pod")
}
