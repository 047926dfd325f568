package attach

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
)

// Random controller operations inside the real engine (scheduler,
// kubelet, graceful termination, node loss): with room in the cluster
// every workload converges to its spec, and the event stream is the same
// for the same seed.
func TestEngineRandomOperationsConverge(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		a := engineRandomRun(t, seed)
		if b := engineRandomRun(t, seed); a != b {
			t.Fatalf("seed %d: runs differ", seed)
		}
	}
}

func engineRandomRun(t *testing.T, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 11))
	var nodes []*api.Node
	for i := 0; i < 6; i++ {
		nodes = append(nodes, zoneNode(fmt.Sprintf("n-%d", i), fmt.Sprintf("z-%d", i%3)))
	}
	e, c := newCluster(t, nodes...)
	if _, err := c.AddDeployment(webDeployment(3, api.LabelPodTemplateHash)); err != nil {
		t.Fatal(err)
	}
	sts := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"},
		Spec: api.StatefulSetSpec{Replicas: ptr32(2), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "db"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "db", Image: "db:1"}}}}}}
	if _, err := c.AddStatefulSet(sts); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	now := time.Duration(0)
	for op := 0; op < 20; op++ {
		var err error
		switch r.IntN(6) {
		case 0:
			err = c.Do(func(m *controllers.Manager) error {
				return m.Scale(controllers.KindDeployment, "default", "web", int32(r.IntN(7)))
			})
		case 1:
			err = c.Do(func(m *controllers.Manager) error {
				return m.SetImage("default", "web", "web", fmt.Sprintf("nginx:%d", r.IntN(3)))
			})
		case 2:
			err = c.Do(func(m *controllers.Manager) error { _, e := m.Undo("default", "web", 0); return e })
		case 3:
			err = c.Do(func(m *controllers.Manager) error {
				return m.Scale(controllers.KindStatefulSet, "default", "db", int32(r.IntN(4)))
			})
		case 4:
			pods := e.Pods()
			if len(pods) > 0 {
				p := pods[r.IntN(len(pods))]
				_ = e.DeletePod(p.Key(), engine.DeleteOptions{})
			}
		case 5:
			err = c.Do(func(m *controllers.Manager) error { return m.Restart("default", "web") })
		}
		_ = err // undo without history and the like are refused, as kubectl would
		now += time.Duration(1+r.IntN(30)) * time.Second
		if err := e.RunUntil(api.Time(now)); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.RunUntil(api.Time(now + 30*time.Minute)); err != nil {
		t.Fatal(err)
	}
	d := c.Deployment("default", "web")
	if d.Status.Replicas != *d.Spec.Replicas || d.Status.AvailableReplicas != *d.Spec.Replicas || d.Status.UpdatedReplicas != *d.Spec.Replicas {
		t.Errorf("seed %d: deployment spec %d status %+v", seed, *d.Spec.Replicas, d.Status)
	}
	if revs, _ := c.RevisionSpreads("default", "web", api.LabelTopologyZone); len(revs) > 0 && revs[len(revs)-1].Skew > 1 {
		t.Errorf("seed %d: current revision spread %+v", seed, revs[len(revs)-1])
	}
	s := c.StatefulSet("default", "db")
	if s.Status.ReadyReplicas != *s.Spec.Replicas {
		t.Errorf("seed %d: statefulset spec %d status %+v", seed, *s.Spec.Replicas, s.Status)
	}
	var sb strings.Builder
	for _, ev := range e.Events() {
		fmt.Fprintf(&sb, "%v %s %s %s\n", ev.Time, ev.Reason, ev.Object, ev.Message)
	}
	return sb.String()
}
