package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// withProbes gives a day pod readiness and liveness probes (every 10 s),
// a 20 s warm-up, and to one pod in 50 a liveness failure after 5 minutes
// (restarts, CrashLoopBackOff), when probes is set.
func withProbes(p *api.Pod, i int, probes bool) *api.Pod {
	if !probes {
		return p
	}
	c := &p.Spec.Containers[0]
	c.ReadinessProbe = &api.Probe{Handler: "httpGet", PeriodSeconds: 10}
	c.LivenessProbe = &api.Probe{Handler: "httpGet", PeriodSeconds: 10, InitialDelaySeconds: 30}
	p.Annotations[kubelet.AnnotationReadyAfter] = "20s"
	if i%50 == 0 {
		p.Annotations[kubelet.AnnotationLivenessFailsAt] = "5m"
	}
	return p
}

// dayClusterProbes is 500 nodes with 5,000 running pods (withProbes).
func dayClusterProbes(b *testing.B, factory SchedulerFactory, probes bool) (*Engine, []string) {
	e := New(Config{Seed: 1, NewScheduler: factory})
	var names []string
	for i := 0; i < 500; i++ {
		n := node(fmt.Sprintf("node-%03d", i), "32", "128Gi")
		n.Labels[api.LabelTopologyZone] = fmt.Sprintf("zone-%d", i%3)
		must(b, e.AddNode(n))
	}
	for i := 0; i < 5000; i++ {
		name := fmt.Sprintf("pod-%05d", i)
		p := pod(name).on(fmt.Sprintf("node-%03d", i%500)).label("app", fmt.Sprintf("app-%d", i%50)).
			req("500m", "1Gi").owner("ReplicaSet", fmt.Sprintf("app-%d", i%50)).
			ann(kubelet.AnnotationMemoryUsage, fmt.Sprintf("%d%%", 80+i%60)).obj()
		must(b, e.CreatePod(withProbes(p, i, probes)))
		names = append(names, "default/"+name)
	}
	return e, names
}

// BenchmarkDay simulates 24 virtual hours of 500 nodes and 5,000 pods
// with 1 pod/s create/delete churn, a memory-pressure episode every 10
// minutes and a NotReady flap every 5 minutes (one in four outlasts the
// 300 s default toleration).
func BenchmarkDay(b *testing.B) { benchDay(b, false) }

// BenchmarkDayProbes is BenchmarkDay with readiness and liveness probes
// on every pod (withProbes): one pod in 50 crash-loops on its liveness
// probe, every pod warms up behind its readiness probe.
func BenchmarkDayProbes(b *testing.B) { benchDay(b, true) }

func benchDay(b *testing.B, probes bool) {
	for i := 0; i < b.N; i++ {
		e, live := dayClusterProbes(b, DefaultScheduler, probes)
		r := rand.New(rand.NewPCG(1, 2))
		next := 5000
		type undo struct {
			at   api.Time
			node string
			kind int
		}
		var pending []undo
		b.ResetTimer()
		for s := 1; s <= benchDaySeconds; s++ {
			must(b, e.Step(time.Second))
			now := e.Now()
			// churn: delete one pod, create one
			k := r.IntN(len(live))
			_ = e.DeletePod(live[k], DeleteOptions{})
			name := fmt.Sprintf("pod-%05d", next)
			next++
			live[k] = "default/" + name
			_ = e.CreatePod(withProbes(pod(name).label("app", fmt.Sprintf("app-%d", next%50)).req("500m", "1Gi").
				owner("ReplicaSet", fmt.Sprintf("app-%d", next%50)).ann(kubelet.AnnotationMemoryUsage, fmt.Sprintf("%d%%", 80+next%60)).obj(), next, probes))
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
		c := e.Snapshot().Counts
		evicted := 0
		for _, ev := range e.Events() {
			if ev.Reason == ReasonEvicted || ev.Reason == ReasonTaintManagerEviction {
				evicted++
			}
		}
		b.ReportMetric(float64(len(e.Events())), "events")
		b.ReportMetric(float64(evicted), "evictions")
		b.Logf("end: %+v, %d events, %d evictions/taint deletions", c, len(e.Events()), evicted)
	}
}

// BenchmarkPreemption: 5,000 nodes packed 90% with 20,000 low-priority
// pods; 5,000 high-priority pods, arriving in waves of 50 two virtual
// seconds apart, each preempt one victim and bind once it is gone.
func BenchmarkPreemption(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := New(Config{Seed: 1, NewScheduler: DefaultScheduler})
		must(b, e.AddPriorityClass(&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000}))
		for n := 0; n < benchNodes; n++ {
			must(b, e.AddNode(node(fmt.Sprintf("node-%04d", n), "4", "16Gi")))
		}
		for p := 0; p < 4*benchNodes; p++ {
			must(b, e.CreatePod(pod(fmt.Sprintf("low-%05d", p)).on(fmt.Sprintf("node-%04d", p%benchNodes)).req("900m", "1Gi").obj()))
		}
		b.StartTimer()
		start := time.Now()
		// preemptors arrive in waves of 50; between waves the victims
		// terminate (1 s) and the preemptors bind, as in a running cluster
		for p := 0; p < benchNodes; p++ {
			must(b, e.CreatePod(pod(fmt.Sprintf("high-%04d", p)).class("high").req("1", "1Gi").obj()))
			if p%50 == 49 {
				must(b, e.Step(2*time.Second))
			}
		}
		elapsed := time.Since(start)
		b.StopTimer()
		preempted := 0
		for _, ev := range e.Events() {
			if ev.Reason == ReasonPreempted {
				preempted++
			}
		}
		must(b, e.Step(time.Minute))
		scheduled := 0
		for p := 0; p < benchNodes; p++ {
			if e.Pod(fmt.Sprintf("default/high-%04d", p)).Spec.NodeName != "" {
				scheduled++
			}
		}
		b.ReportMetric(float64(preempted)/elapsed.Seconds(), "preemptions/s")
		b.Logf("%d preemptions in %s; %d/%d preemptors running a minute later", preempted, elapsed, scheduled, benchNodes)
	}
}

// benchNodes scales BenchmarkPreemption (5,000 in the goal).
var benchNodes = 5000

// benchDaySeconds is BenchmarkDay's virtual duration (24 h in the goal).
var benchDaySeconds = 24 * 3600
