package lab

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/engine/scheduler"
)

// benchFullPass: PODLAB_FULL_PASS=1 adds a run with the reference pass
// (the sampling before the tracker; give a short PODLAB_DAY_SECONDS).
func benchFullPass() bool { return os.Getenv("PODLAB_FULL_PASS") == "1" }

// BenchmarkMetricsDay is engine.BenchmarkDay's exact workload (500 nodes in
// 3 zones, 5,000 pods of 50 owners, 1 pod/s deleted and created, memory
// pressure every 10 minutes, a NotReady flap every 5; 24 virtual hours, or
// PODLAB_DAY_SECONDS) on a bare engine, without and with the lab's metrics
// recorder sampling every virtual second: the difference in cpu-ns/op is
// what recording costs. With the recorder it reports the store after the
// run: series, points, its estimated bytes (what the budget bounds), and
// the heap freed by dropping the tracker, then the store;
// With PODLAB_SAMPLE_CPU=1, sample-cpu-ns/s is the CPU the samples
// themselves used per virtual second (thread CPU time around each sample,
// two system calls a second that the other numbers then include): the
// recorder's direct cost,
// which the difference of two loaded runs measures only roughly; sample-%
// is that CPU against the rest of the run's process CPU (the same run, so
// the machine's load weighs on both alike).
func BenchmarkMetricsDay(b *testing.B) {
	for _, mode := range []string{"off", "tracker", "full-pass"} {
		if mode == "full-pass" && !benchFullPass() {
			continue
		}
		on := mode != "off"
		b.Run("recorder="+mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				e, live := dayEngine(b)
				var m *Metrics
				source := func() metricsSource { return engineMetricsSource(e) }
				if on {
					m = newMetrics(DefaultMetricsPoints)
					if mode == "full-pass" {
						m.fullPass = referencePass
					}
					m.sample(e, source)
				}
				runtime.GC()
				b.StartTimer()
				// the samples' own CPU: the thread's, around each sample, less
				// what reading the clock twice costs
				// LockOSThread only when the samples are timed (thread CPU
				// must be read on one thread): a locked thread makes the
				// whole day 2.5–3.5× slower (thread hand-offs around every
				// runtime block), which would inflate the baseline
				timed := os.Getenv("PODLAB_SAMPLE_CPU") == "1"
				if timed {
					runtime.LockOSThread()
				}
				c0 := processCPU(b)
				var inSample, clock time.Duration
				engineDay(b, e, live, daySeconds(), func() {
					switch {
					case m == nil:
					case timed:
						t0 := threadCPU()
						t1 := threadCPU()
						m.sample(e, source)
						t2 := threadCPU()
						inSample += t2 - t1
						clock += t1 - t0
					default:
						m.sample(e, source)
					}
				})
				cpu := processCPU(b) - c0
				if timed {
					runtime.UnlockOSThread()
				}
				b.StopTimer()
				b.ReportMetric(float64(cpu.Nanoseconds()), "cpu-ns/op")
				if m != nil && timed {
					own := inSample - clock
					b.ReportMetric(float64(own.Nanoseconds())/float64(daySeconds()), "sample-cpu-ns/s")
					b.ReportMetric(100*float64(own)/float64(cpu-own), "sample-%")
				}
				b.ReportMetric(float64(len(e.Events())), "events")
				if m != nil {
					pts, bytes := m.size()
					b.ReportMetric(float64(len(m.series)), "series")
					b.ReportMetric(float64(pts), "points")
					b.ReportMetric(float64(bytes), "store-bytes")
					// the heap each frees: the tracker, then the store
					var withAll, withStore, without runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&withAll)
					m.dropTracker()
					runtime.GC()
					runtime.ReadMemStats(&withStore)
					runtime.KeepAlive(m)
					m = nil
					runtime.GC()
					runtime.ReadMemStats(&without)
					b.ReportMetric(float64(int64(withAll.HeapAlloc)-int64(withStore.HeapAlloc)), "tracker-heap-bytes")
					b.ReportMetric(float64(int64(withStore.HeapAlloc)-int64(without.HeapAlloc)), "store-heap-bytes")
				}
				runtime.KeepAlive(e)
				b.StartTimer()
			}
		})
	}
}

// engineMetricsSource records a bare engine: no controllers, so a pod's
// workload is its owner reference (as Session.WorkloadOf answers for an
// owner it does not know), and node requests come from the scheduler's
// snapshot.
func engineMetricsSource(e *engine.Engine) metricsSource {
	return metricsSource{
		eng:     e,
		zoneKey: api.LabelTopologyZone,
		owner: func(_, kind, name string) (string, string) {
			return strings.ToLower(kind), name
		},
		requested: func(node string) (api.Resources, bool) {
			s, ok := e.Scheduler().(*scheduler.Scheduler)
			if !ok {
				return api.Resources{}, false
			}
			ni := s.Snapshot().Get(node)
			if ni == nil {
				return api.Resources{}, false
			}
			return ni.Requested, true
		},
	}
}

// dayEngine is engine's dayClusterProbes without probes: 500 nodes
// (32 CPU, 128Gi, zones 0–2) and 5,000 running pods of 50 owners.
func dayEngine(b testing.TB) (*engine.Engine, []string) {
	b.Helper()
	e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.DefaultScheduler})
	for i := range 500 {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%03d", i), Labels: map[string]string{
			api.LabelTopologyZone: fmt.Sprintf("zone-%d", i%3),
		}}}
		n.Status.Capacity = api.ResourceList{api.ResourceCPU: mustQuantity(b, "32"), api.ResourceMemory: mustQuantity(b, "128Gi"), api.ResourcePods: mustQuantity(b, "110")}
		if err := e.AddNode(n); err != nil {
			b.Fatal(err)
		}
	}
	var live []string
	for i := range 5000 {
		name := fmt.Sprintf("pod-%05d", i)
		if err := e.CreatePod(dayPod(b, name, fmt.Sprintf("node-%03d", i%500), i, i)); err != nil {
			b.Fatal(err)
		}
		live = append(live, "default/"+name)
	}
	return e, live
}

// dayPod is engine.BenchmarkDay's pod: app-(app%50), 500m / 1Gi, owned by
// the ReplicaSet app-(app%50), a memory usage of 80–139 % of its request.
func dayPod(b testing.TB, name, node string, app, usage int) *api.Pod {
	b.Helper()
	owner := fmt.Sprintf("app-%d", app%50)
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default",
			Labels:          map[string]string{"app": owner},
			Annotations:     map[string]string{kubelet.AnnotationMemoryUsage: fmt.Sprintf("%d%%", 80+usage%60)},
			OwnerReferences: []api.OwnerReference{{Kind: "ReplicaSet", Name: owner, UID: "ReplicaSet/" + owner, Controller: true}},
		},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "app", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{api.ResourceCPU: mustQuantity(b, "500m"), api.ResourceMemory: mustQuantity(b, "1Gi")},
		}}}},
	}
}

func mustQuantity(b testing.TB, s string) api.Quantity {
	q, err := api.ParseQuantity(s)
	if err != nil {
		b.Fatal(err)
	}
	return q
}

// engineDay is engine.benchDay's loop (probes off), calling tick after
// every virtual second's step.
func engineDay(b testing.TB, e *engine.Engine, live []string, seconds int, tick func()) {
	newDayDriver(e, live).run(b, seconds, tick)
}

// dayDriver is engineDay's loop in pieces: run goes on from where the last
// call stopped, so that two engines can be driven in alternation
// (BenchmarkMetricsOverhead) through the same sequence as one whole day.
type dayDriver struct {
	e       *engine.Engine
	live    []string
	r       *rand.Rand
	next, s int
	pending []dayUndo
}

// dayUndo is a pressure or NotReady episode to end at a given time.
type dayUndo struct {
	at   api.Time
	node string
	kind int
}

func newDayDriver(e *engine.Engine, live []string) *dayDriver {
	return &dayDriver{e: e, live: live, r: rand.New(rand.NewPCG(1, 2)), next: 5000}
}

// run drives the next seconds of the day, calling tick after every
// virtual second's step.
func (d *dayDriver) run(b testing.TB, seconds int, tick func()) {
	e, r := d.e, d.r
	for end := d.s + seconds; d.s < end; {
		d.s++
		s := d.s
		if err := e.Step(time.Second); err != nil {
			b.Fatal(err)
		}
		tick()
		now := e.Now()
		k := r.IntN(len(d.live))
		_ = e.DeletePod(d.live[k], engine.DeleteOptions{})
		name := fmt.Sprintf("pod-%05d", d.next)
		d.next++
		d.live[k] = "default/" + name
		_ = e.CreatePod(dayPod(b, name, "", d.next, d.next))
		if s%600 == 0 {
			n := fmt.Sprintf("node-%03d", r.IntN(500))
			_ = e.SetNodePressure(n, 120, false)
			d.pending = append(d.pending, dayUndo{now.Add(2 * time.Minute), n, 0})
		}
		if s%300 == 0 {
			n := fmt.Sprintf("node-%03d", r.IntN(500))
			_ = e.SetNodeCondition(n, engine.NodeConditionNotReady)
			dur := time.Minute
			if r.IntN(4) == 0 {
				dur = 6 * time.Minute
			}
			d.pending = append(d.pending, dayUndo{now.Add(dur), n, 1})
		}
		kept := d.pending[:0]
		for _, u := range d.pending {
			if u.at > now {
				kept = append(kept, u)
				continue
			}
			if u.kind == 0 {
				_ = e.SetNodePressure(u.node, 0, true)
			} else {
				_ = e.SetNodeCondition(u.node, engine.NodeConditionReady)
			}
		}
		d.pending = kept
	}
}
