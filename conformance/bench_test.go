package conformance

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"podlab.dev/podlab/conformance/gen"
	"podlab.dev/podlab/conformance/podside"
	"podlab.dev/podlab/conformance/real"
	"podlab.dev/podlab/conformance/result"
	"podlab.dev/podlab/conformance/scenario"
	"podlab.dev/podlab/engine/api"
)

// BenchmarkSpeed runs the real framework in-process (UpdateSnapshot →
// PreFilter → Filter on every node → PreScore → Score → select → assume,
// parallelism 2) and podlab's engine (ScheduleOne + bind, parallelism 2)
// on the same scheduler_perf shapes, reports pods/s of each and the ratio,
// and fails unless both put the same number of pods in every zone.
// Size: CONFORMANCE_BENCH_NODES (default 5000) nodes and as many init
// pods; CONFORMANCE_BENCH_PODS measured pods (default 1000; scheduler_perf
// measures 5000 / 10000).
//
//	go test -run '^$' -bench Speed -benchtime 1x
func BenchmarkSpeed(b *testing.B) {
	nodes := envIntB(b, "CONFORMANCE_BENCH_NODES", 5000)
	pods := envIntB(b, "CONFORMANCE_BENCH_PODS", 1000)
	for _, shape := range []string{gen.PerfTopologySpreading, gen.PerfDefaultTopologySpreading} {
		b.Run(fmt.Sprintf("%s/%dNodes_%dPods", shape, nodes, pods), func(b *testing.B) {
			data, err := gen.Perf(shape, nodes, nodes, pods)
			if err != nil {
				b.Fatal(err)
			}
			var realTime, labTime time.Duration
			for i := 0; i < b.N; i++ {
				rt, lt := speedOnce(b, shape, data)
				realTime += rt
				labTime += lt
			}
			realRate := float64(pods*b.N) / realTime.Seconds()
			labRate := float64(pods*b.N) / labTime.Seconds()
			b.ReportMetric(realRate, "real-pods/s")
			b.ReportMetric(labRate, "podlab-pods/s")
			b.ReportMetric(labRate/realRate, "ratio")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func speedOnce(b *testing.B, shape string, data []byte) (realTime, labTime time.Duration) {
	b.StopTimer()
	defer b.StartTimer()
	rs, err := scenario.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	ps, err := podside.Load("perf.yaml", data)
	if err != nil {
		b.Fatal(err)
	}
	var opts podside.Options
	if shape == gen.PerfDefaultTopologySpreading {
		// The Service of the shape (templates/service.yaml) selecting
		// app=scheduler-perf in service-ns: the system default constraints
		// count pods with its selector.
		svc := &v1.Service{ObjectMeta: metav1.ObjectMeta{Name: "service-0", Namespace: gen.PerfServiceNamespace},
			Spec: v1.ServiceSpec{Selector: map[string]string{"app": "scheduler-perf"}}}
		rs.Services = append(rs.Services, svc)
		sel := api.SelectorFromSet(svc.Spec.Selector)
		opts.SpreadSelectors = func(p *api.Pod) api.Selector {
			if p.Namespace == svc.Namespace && sel.Matches(p.Labels) {
				return sel
			}
			return api.Everything()
		}
	}
	rr, err := real.New(rs, real.Options{DisablePreemption: true})
	if err != nil {
		b.Fatal(err)
	}
	defer rr.Close()
	opts.DisablePreemption = true
	pr := podside.New(ps, opts)

	t0 := time.Now()
	want, err := rr.Schedule(rs.Pending)
	if err != nil {
		b.Fatal(err)
	}
	realTime = time.Since(t0)
	t0 = time.Now()
	got := pr.Schedule(ps.Pending)
	labTime = time.Since(t0)

	zoneOf := map[string]string{}
	for _, n := range rs.Nodes {
		zoneOf[n.Name] = n.Labels[v1.LabelTopologyZone]
	}
	wz, gz := zoneCounts(want, zoneOf), zoneCounts(got, zoneOf)
	if wz != gz {
		b.Fatalf("%s: per-zone counts differ: real %s, podlab %s", shape, wz, gz)
	}
	b.Logf("%s: per-zone counts %s (both); real %.1fs, podlab %.2fs", shape, wz, realTime.Seconds(), labTime.Seconds())
	return realTime, labTime
}

func zoneCounts(s *result.Schedule, zoneOf map[string]string) string {
	counts := map[string]int{}
	for _, p := range s.Placements {
		z := "unschedulable"
		if p.Node != "" {
			z = zoneOf[p.Node]
		}
		counts[z]++
	}
	var parts []string
	for z, n := range counts {
		parts = append(parts, fmt.Sprintf("%s=%d", z, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

func envIntB(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var n int
	if _, err := fmt.Sscanf(v, "%d", &n); err != nil || n <= 0 {
		b.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}
