package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/engine/kubelet"
)

// BenchmarkDayHPA is BenchmarkDay with the workload controllers and an HPA
// on every Deployment: 500 nodes, 50 Deployments of 100 pods (5,000), each
// with an autoscaling/v2 HPA (cpu 50%, 50–150 replicas, 15 s sync) whose
// load follows a daily curve (a step every 10 minutes between 60% and
// 140% of the target), 1 pod/s deleted at random (its ReplicaSet replaces
// it), a memory-pressure episode every 10 minutes and a NotReady flap
// every 5 minutes. It runs benchHPASeconds of virtual time (see there).
func BenchmarkDayHPA(b *testing.B) { benchDayWorkloads(b, true) }

// BenchmarkDayWorkloads is BenchmarkDayHPA without the HPAs (fixed 100
// replicas, same churn): the difference is what the autoscalers cost.
func BenchmarkDayWorkloads(b *testing.B) { benchDayWorkloads(b, false) }

func benchDayWorkloads(b *testing.B, withHPA bool) {
	for i := 0; i < b.N; i++ {
		e := New(Config{Seed: 1, NewScheduler: DefaultScheduler})
		for n := 0; n < 500; n++ {
			nd := node(fmt.Sprintf("node-%03d", n), "32", "128Gi")
			nd.Labels[api.LabelTopologyZone] = fmt.Sprintf("zone-%d", n%3)
			must(b, e.AddNode(nd))
		}
		w := e.NewWorkloads(1)
		m := w.Manager
		const deployments, replicas = 50, 100
		for d := 0; d < deployments; d++ {
			name := fmt.Sprintf("app-%02d", d)
			tmpl := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name},
				Annotations: map[string]string{kubelet.AnnotationMemoryUsage: fmt.Sprintf("%d%%", 80+d%40)}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "app:1",
					Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("500m"), api.ResourceMemory: q("1Gi")}}}}}}
			r := int32(replicas)
			_, err := m.AddDeployment(&api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
				Spec: api.DeploymentSpec{Replicas: &r, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}}, Template: tmpl}})
			must(b, err)
			if !withHPA {
				continue
			}
			minR, pct := int32(50), int32(50)
			_, err = m.AddHPA(&api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
				Spec: api.HorizontalPodAutoscalerSpec{
					ScaleTargetRef: api.CrossVersionObjectReference{Kind: controllers.KindDeployment, Name: name, APIVersion: "apps/v1"},
					MinReplicas:    &minR, MaxReplicas: 150,
					Metrics: []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceCPU,
						Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: &pct}}}}}})
			must(b, err)
			// the daily curve: 100 pods × 250m (the target) × 0.6–1.4
			for t := 0; t < benchDaySeconds; t += 600 {
				f := 1 + 0.4*math.Sin(2*math.Pi*float64(t)/86400+float64(d))
				must(b, m.SetLoad(controllers.KindDeployment, "default", name, controllers.LoadStep{At: sec(float64(t)), MilliCPU: int64(replicas * 250 * f)}))
			}
		}
		m.Start()
		e.Settle()
		victims := newBenchPodKeys(e)
		r := rand.New(rand.NewPCG(1, 2))
		type undo struct {
			at   api.Time
			node string
			kind int
		}
		var pending []undo
		b.ResetTimer()
		cpu0 := cpuTime()
		for s := 1; s <= benchHPASeconds; s++ {
			must(b, e.Step(time.Second))
			now := e.Now()
			// the victim by index into the sorted pod keys (the same order,
			// so the same choice, as e.Pods() gives), kept by the driver
			// from the engine's watch (benchPodKeys)
			if n := victims.update(); n > 0 {
				_ = e.DeletePod(victims.at(r.IntN(n)), DeleteOptions{})
			}
			if s%600 == 0 {
				n := fmt.Sprintf("node-%03d", r.IntN(500))
				_ = e.SetNodePressure(n, 120, false)
				pending = append(pending, undo{now.Add(2 * time.Minute), n, 0})
			}
			if s%300 == 0 {
				n := fmt.Sprintf("node-%03d", r.IntN(500))
				_ = e.SetNodeCondition(n, NodeConditionNotReady)
				d := time.Minute
				if r.IntN(4) == 0 {
					d = 6 * time.Minute
				}
				pending = append(pending, undo{now.Add(d), n, 1})
			}
			kept := pending[:0]
			for _, u := range pending {
				if u.at > now {
					kept = append(kept, u)
					continue
				}
				if u.kind == 0 {
					_ = e.SetNodePressure(u.node, 0, true)
				} else {
					_ = e.SetNodeCondition(u.node, NodeConditionReady)
				}
			}
			pending = kept
		}
		b.StopTimer()
		cpu := cpuTime() - cpu0
		rescales := 0
		for _, ev := range e.Events() {
			if ev.Reason == "SuccessfulRescale" {
				rescales++
			}
		}
		total := int32(0)
		for _, d := range m.Deployments() {
			total += *d.Spec.Replicas
		}
		b.ReportMetric(float64(len(e.Events())), "events")
		b.ReportMetric(float64(rescales), "rescales")
		b.ReportMetric(cpu.Seconds()/float64(benchHPASeconds)*60, "cpu-s/virtual-min")
		b.Logf("end: %d pods, %d desired replicas, %d events, %d rescales", len(e.Pods()), total, len(e.Events()), rescales)
	}
}

// benchHPASeconds is BenchmarkDayHPA's virtual duration: 2 minutes, so
// that the package's benchmarks stay quick; PODLAB_HPA_SECONDS=86400
// measures the day (see docs/benchmarks.md).
var benchHPASeconds = envSeconds("PODLAB_HPA_SECONDS", 120)

// envSeconds reads a whole number of seconds from the environment.
func envSeconds(name string, dflt int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return dflt
}

// cpuTime is the process's user+system CPU time (GC included): on a
// shared machine it measures the loop where wall time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchPodKeys is the benchmark driver's sorted list of pod keys, kept
// from the engine's watch: the chaos that deletes a random pod every
// virtual second is not the cluster, and e.sortedPodKeys, which it used
// before, builds a new list of 5,000 keys on every change (half of what
// the day allocated). The keys sit in sorted blocks of at most
// 2×benchKeyBlock, so a change moves a block, not 5,000 strings; which
// pods are listed is kept by pod number (PodIDWatcher), so the many
// status-only changes cost one look-up each.
// TestBenchPodKeysIsSortedPodKeys pins it equal to e.sortedPodKeys.
type benchPodKeys struct {
	e      *Engine
	blocks [][]string // sorted, none empty
	// listed[id]: the pod of that number is in blocks
	listed  []bool
	n       int
	pending []benchPodChange
}

type benchPodChange struct {
	key string
	id  PodID
}

const benchKeyBlock = 128

func newBenchPodKeys(e *Engine) *benchPodKeys {
	x := &benchPodKeys{e: e}
	var keys []string
	e.EachPodID(func(p *api.Pod, _ PodState, id PodID) {
		keys = append(keys, p.Key())
		x.setListed(id, true)
	})
	slices.Sort(keys)
	for _, k := range keys {
		x.add(k)
	}
	e.Watch(x)
	return x
}

func (x *benchPodKeys) PodChanged(string) {}
func (x *benchPodKeys) PodChangedID(key string, id PodID) {
	x.pending = append(x.pending, benchPodChange{key, id})
}
func (x *benchPodKeys) NodeChanged(string) {}

func (x *benchPodKeys) setListed(id PodID, on bool) {
	for int(id) >= len(x.listed) {
		x.listed = append(x.listed, false)
	}
	x.listed[id] = on
}

// find returns the block that holds k or would, k's place in it and
// whether it is there.
func (x *benchPodKeys) find(k string) (b, i int, found bool) {
	b = sort.Search(len(x.blocks), func(j int) bool { blk := x.blocks[j]; return blk[len(blk)-1] >= k })
	if b == len(x.blocks) {
		b--
		return b, len(x.blocks[b]), false
	}
	i, found = slices.BinarySearch(x.blocks[b], k)
	return b, i, found
}

func (x *benchPodKeys) add(k string) {
	x.n++
	if len(x.blocks) == 0 {
		x.blocks = [][]string{{k}}
		return
	}
	b, i, _ := x.find(k)
	blk := slices.Insert(x.blocks[b], i, k)
	if len(blk) <= 2*benchKeyBlock {
		x.blocks[b] = blk
		return
	}
	lo, hi := slices.Clone(blk[:benchKeyBlock]), slices.Clone(blk[benchKeyBlock:])
	x.blocks = slices.Insert(x.blocks, b+1, hi)
	x.blocks[b] = lo
}

func (x *benchPodKeys) remove(b, i int) {
	x.n--
	x.blocks[b] = slices.Delete(x.blocks[b], i, i+1)
	if len(x.blocks[b]) == 0 {
		x.blocks = slices.Delete(x.blocks, b, b+1)
	}
}

// update brings the keys up to date (a reported pod is listed if and only
// if the engine stores it) and returns how many there are. A key removed
// and created again reports its old and its new number: each is settled
// on its own.
func (x *benchPodKeys) update() int {
	for _, c := range x.pending {
		_, _, cur := x.e.PodWithStateID(c.key)
		stored := cur == c.id
		listed := int(c.id) < len(x.listed) && x.listed[c.id]
		switch {
		case stored && !listed:
			x.add(c.key)
			x.setListed(c.id, true)
		case !stored && listed:
			if b, i, found := x.find(c.key); found {
				x.remove(b, i)
			}
			x.setListed(c.id, false)
		}
	}
	x.pending = x.pending[:0]
	return x.n
}

// at returns the i-th key in order.
func (x *benchPodKeys) at(i int) string {
	for _, blk := range x.blocks {
		if i < len(blk) {
			return blk[i]
		}
		i -= len(blk)
	}
	panic("benchPodKeys.at: out of range")
}

// all returns every key in order (the test).
func (x *benchPodKeys) all() []string {
	out := make([]string, 0, x.n)
	for _, blk := range x.blocks {
		out = append(out, blk...)
	}
	return out
}
