package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// TestMergeSortedKeys pins mergeSortedKeys to the plain answer (the set
// old − gone + add, sorted) on hand-picked edges and random sets.
func TestMergeSortedKeys(t *testing.T) {
	cases := []struct{ old, add, gone, want []string }{
		{nil, nil, nil, []string{}},
		{[]string{"b"}, []string{"a"}, nil, []string{"a", "b"}},
		{[]string{"b"}, []string{"c"}, nil, []string{"b", "c"}},
		{[]string{"a", "b", "c"}, nil, []string{"a", "c"}, []string{"b"}},
		{[]string{"a", "c"}, []string{"b"}, []string{"c"}, []string{"a", "b"}},
		{[]string{"a", "c"}, []string{"d"}, []string{"a", "c"}, []string{"d"}},
		{[]string{"b", "d"}, []string{"a", "c", "e"}, []string{"b", "d"}, []string{"a", "c", "e"}},
	}
	for _, c := range cases {
		if got := mergeSortedKeys(c.old, c.add, c.gone); !slices.Equal(got, c.want) {
			t.Errorf("merge(%v + %v − %v) = %v, want %v", c.old, c.add, c.gone, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 2000; n++ {
		var old, add, gone []string
		keep := map[string]bool{}
		for i := 0; i < r.IntN(40); i++ {
			k := fmt.Sprintf("ns/p-%03d", r.IntN(200))
			switch {
			case slices.Contains(old, k) || slices.Contains(add, k):
			case r.IntN(2) == 0:
				old = append(old, k)
				if r.IntN(3) == 0 {
					gone = append(gone, k)
				} else {
					keep[k] = true
				}
			default:
				add = append(add, k)
				keep[k] = true
			}
		}
		slices.Sort(old)
		slices.Sort(add)
		slices.Sort(gone)
		want := make([]string, 0, len(keep))
		for k := range keep {
			want = append(want, k)
		}
		slices.Sort(want)
		if got := mergeSortedKeys(old, add, gone); !slices.Equal(got, want) {
			t.Fatalf("merge(%v + %v − %v) = %v, want %v", old, add, gone, got, want)
		}
	}
}

// TestBenchPodKeysIsSortedPodKeys: the benchmark driver's watched key list
// is the engine's sorted pod keys after every step of a churning cluster
// (deletions replaced by ReplicaSets, creations, a node going NotReady).
func TestBenchPodKeysIsSortedPodKeys(t *testing.T) {
	e := New(Config{Seed: 1, NewScheduler: DefaultScheduler})
	for n := 0; n < 6; n++ {
		must(t, e.AddNode(node(fmt.Sprintf("node-%d", n), "8", "32Gi")))
	}
	m := e.NewWorkloads(1).Manager
	for d := 0; d < 3; d++ {
		name := fmt.Sprintf("app-%d", d)
		r := int32(8)
		_, err := m.AddDeployment(&api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &r, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "c:1"}}}}}})
		must(t, err)
	}
	m.Start()
	e.Settle()
	x := newBenchPodKeys(e)
	r := rand.New(rand.NewPCG(5, 6))
	for s := 1; s <= 300; s++ {
		must(t, e.Step(time.Second))
		if s%2 == 0 {
			_ = e.DeletePod(x.at(r.IntN(x.update())), DeleteOptions{})
		}
		if s%50 == 0 {
			must(t, e.CreatePod(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "other", Name: fmt.Sprintf("bare-%d", s)},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "c:1"}}}}))
		}
		if s == 100 {
			_ = e.SetNodeCondition("node-2", NodeConditionNotReady)
		}
		if s == 120 {
			// many new pods at once: blocks split
			for i := 0; i < 700; i++ {
				must(t, e.CreatePod(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "batch", Name: fmt.Sprintf("p-%03d", (i*37)%700)},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "c:1"}}}}))
			}
		}
		if s == 200 {
			// and gone again: blocks emptied
			for i := 0; i < 700; i++ {
				_ = e.DeletePod(fmt.Sprintf("batch/p-%03d", i), DeleteOptions{GracePeriodSeconds: new(int64)})
			}
			e.Settle()
		}
		x.update()
		if got, want := x.all(), e.sortedPodKeys(); !slices.Equal(got, want) || x.n != len(want) {
			t.Fatalf("second %d: the watched keys are %v, the engine's %v", s, got, want)
		}
	}
}
