package attach

import (
	"fmt"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
)

// benchCluster is 5,000 nodes in 10 zones.
func benchCluster(b *testing.B) (*engine.Engine, *Controllers) {
	e := engine.New(engine.Config{Seed: 1})
	for i := 0; i < 5000; i++ {
		if err := e.AddNode(zoneNode(fmt.Sprintf("node-%04d", i), fmt.Sprintf("zone-%d", i%10))); err != nil {
			b.Fatal(err)
		}
	}
	return e, New(e, 1)
}

func benchDeployment(replicas int32) *api.Deployment {
	d := webDeployment(replicas)
	d.Spec.Template.Spec.TopologySpreadConstraints = nil // the default constraints still apply
	return d
}

// BenchmarkScaleUp10k scales a Deployment from 0 to 10,000 replicas on
// 5,000 nodes: controllers, scheduler (default profile) and kubelet start.
func BenchmarkScaleUp10k(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e, c := benchCluster(b)
		if _, err := c.AddDeployment(benchDeployment(0)); err != nil {
			b.Fatal(err)
		}
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := c.Do(func(m *controllers.Manager) error {
			return m.Scale(controllers.KindDeployment, "default", "web", 10000)
		}); err != nil {
			b.Fatal(err)
		}
		if err := e.RunUntil(e.Now().Add(time.Minute)); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if d := c.Deployment("default", "web"); d.Status.AvailableReplicas != 10000 {
			b.Fatalf("available %d", d.Status.AvailableReplicas)
		}
	}
}

// BenchmarkRollingUpdate10k rolls a 10,000-replica Deployment (25%/25%)
// to a new image on 5,000 nodes until it is complete.
func BenchmarkRollingUpdate10k(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e, c := benchCluster(b)
		if _, err := c.AddDeployment(benchDeployment(10000)); err != nil {
			b.Fatal(err)
		}
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		if err := e.RunUntil(e.Now().Add(time.Minute)); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := c.Do(func(m *controllers.Manager) error { return m.SetImage("default", "web", "web", "nginx:1.26") }); err != nil {
			b.Fatal(err)
		}
		if err := e.RunUntil(e.Now().Add(30 * time.Minute)); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		d := c.Deployment("default", "web")
		if d.Status.UpdatedReplicas != 10000 || d.Status.AvailableReplicas != 10000 || d.Status.Replicas != 10000 {
			b.Fatalf("status %+v", d.Status)
		}
	}
}
