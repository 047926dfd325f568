package descheduler

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// randomDuplicatesState is a cluster for RemoveDuplicates: nodes some of
// them tainted or labelled, pods of a few owners in two namespaces with
// one or two containers (images shared or not), some with two owner
// references, tolerations, a nodeSelector or a required node affinity.
func randomDuplicatesState(r *rand.Rand) *State {
	s := &State{Now: api.Time(3600e9)}
	nn := 2 + r.IntN(30)
	if r.IntN(3) == 0 {
		nn = 2 + r.IntN(2) // few nodes: a variant may fit only one
	}
	for i := 0; i < nn; i++ {
		n := buildNode(fmt.Sprintf("n%02d", i), 8000, 32<<30, 110, nodeLabels("disk", []string{"ssd", "hdd"}[r.IntN(2)]))
		if r.IntN(6) == 0 || (nn < 4 && i > 0) {
			n.Spec.Taints = []api.Taint{{Key: "gpu", Value: "yes", Effect: api.TaintEffectNoSchedule}}
		}
		s.Nodes = append(s.Nodes, n)
	}
	images := []string{"", "nginx", "docker.io/library/redis:7", "app"}
	for i := 0; i < 100+r.IntN(600); i++ {
		p := buildPod(fmt.Sprintf("p%03d", i), 100, 64<<20, fmt.Sprintf("n%02d", r.IntN(nn)))
		p.Namespace = []string{"default", "team"}[r.IntN(2)]
		owner := fmt.Sprintf("rs-%d", r.IntN(4))
		p.OwnerReferences = []api.OwnerReference{{Kind: []string{"ReplicaSet", "StatefulSet"}[r.IntN(2)], Name: owner, UID: owner, Controller: true}}
		if r.IntN(10) == 0 {
			p.OwnerReferences = append(p.OwnerReferences, api.OwnerReference{Kind: "Job", Name: "job-1", UID: "job-1"})
		}
		if r.IntN(15) == 0 {
			p.OwnerReferences = nil
		}
		if r.IntN(4) == 0 {
			p.Spec.Containers[0].Image = images[r.IntN(len(images))]
		}
		if r.IntN(6) == 0 {
			p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "side", Image: images[r.IntN(len(images))]})
		}
		switch r.IntN(10) {
		case 0:
			p.Spec.Tolerations = []api.Toleration{{Key: "gpu", Operator: api.TolerationOpExists}}
		case 1:
			p.Spec.NodeSelector = map[string]string{"disk": "ssd"}
		case 2:
			p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "disk", Operator: api.NodeSelectorOpIn, Values: []string{"hdd"}}}}}}}}
		}
		s.Pods = append(s.Pods, p)
	}
	return s
}

// TestDuplicatesMatchReference runs RemoveDuplicates and the reference
// implementation (upstream's per-pod string keys, targets per owner) on
// 300 random clusters, with eviction limits, and requires the same
// evictions with the same reasons in the same order.
func TestDuplicatesMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 1))
	total := 0
	for i := 0; i < 300; i++ {
		s := randomDuplicatesState(r)
		pol := &Policy{Profiles: []Profile{{Name: "p", Balance: []string{DuplicatesName}}}}
		switch i % 3 {
		case 1:
			pol.MaxNoOfPodsToEvictPerNode = ptr(uint(1 + r.IntN(3)))
		case 2:
			pol.MaxNoOfPodsToEvictTotal = ptr(uint(1 + r.IntN(20)))
		}
		if i%4 == 0 {
			pol.Profiles[0].Args.Duplicates.ExcludeOwnerKinds = []string{"StatefulSet"}
		}
		ok := func(*api.Pod, *Eviction) string { return "" }
		got := Run(pol, s, true, ok)
		duplicatesPlugin = removeDuplicatesReference
		want := Run(pol, s, true, ok)
		duplicatesPlugin = removeDuplicates
		if !reflect.DeepEqual(got.Evictions, want.Evictions) {
			t.Fatalf("cluster %d: evictions differ\ngot  %+v\nwant %+v", i, got.Evictions, want.Evictions)
		}
		total += len(got.Evictions)
	}
	if total < 1000 {
		t.Fatalf("only %d evictions over the clusters: the test does not exercise the plugin", total)
	}
	t.Logf("%d evictions compared", total)
}
