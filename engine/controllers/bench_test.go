package controllers

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// roundRobin places pods on nodes in turn: the controller benchmarks
// measure the controllers, not scheduling (see attach for the full path).
func roundRobin() func(fc *fakeCluster, p *api.Pod) string {
	i := 0
	return func(fc *fakeCluster, p *api.Pod) string {
		n := fc.nodes[i%len(fc.nodes)].Name
		i++
		return n
	}
}

func benchFake(b *testing.B) *fakeCluster {
	var ns []*api.Node
	for i := 0; i < 5000; i++ {
		ns = append(ns, mkNode(fmt.Sprintf("node-%04d", i), nil))
	}
	fc := newFakeCluster(b, ns...)
	fc.place = roundRobin()
	return fc
}

// BenchmarkControllersScaleUp10k: Deployment 0 -> 10,000 replicas,
// controllers only (pods bound round-robin to 5,000 nodes).
func BenchmarkControllersScaleUp10k(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		fc := benchFake(b)
		if _, err := fc.m.AddDeployment(nginxDeployment(0)); err != nil {
			b.Fatal(err)
		}
		fc.runUntil(sec(1))
		b.StartTimer()
		if err := fc.m.Scale(KindDeployment, "default", "nginx-deployment", 10000); err != nil {
			b.Fatal(err)
		}
		fc.runUntil(sec(60))
		b.StopTimer()
		if d := fc.m.Deployment("default", "nginx-deployment"); d.Status.AvailableReplicas != 10000 {
			b.Fatalf("status %+v", d.Status)
		}
	}
}

// BenchmarkControllersRollingUpdate10k: a full 25%/25% rolling update of
// 10,000 replicas, controllers only.
func BenchmarkControllersRollingUpdate10k(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		fc := benchFake(b)
		if _, err := fc.m.AddDeployment(nginxDeployment(10000)); err != nil {
			b.Fatal(err)
		}
		fc.runUntil(sec(60))
		b.StartTimer()
		if err := fc.m.SetImage("default", "nginx-deployment", "app", "nginx:2"); err != nil {
			b.Fatal(err)
		}
		fc.runUntil(sec(1000))
		b.StopTimer()
		if d := fc.m.Deployment("default", "nginx-deployment"); d.Status.UpdatedReplicas != 10000 || d.Status.AvailableReplicas != 10000 || d.Status.Replicas != 10000 {
			b.Fatalf("status %+v", d.Status)
		}
	}
}
