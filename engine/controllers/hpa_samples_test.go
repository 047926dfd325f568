package controllers

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// The samples implied by a workload's load (hpaLoadSamples, read where
// the calculator reads them) are hpaSamples' list, pod by pod, with the
// same count, and the calculator answers the same over both — on random
// pod sets (every group, missing requests) and demands.
func TestHPALoadSamplesAreHPASamples(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	now := sec(3600)
	m := &Manager{now: now}
	c := newReplicaCalc(now)
	compared := 0
	for iter := 0; iter < 20000; iter++ {
		pods, _ := randomHPAPods(r, now)
		facts := readHPAPods(pods)
		load := &workloadLoad{Steps: []LoadStep{{At: now.Add(-time10m), MilliCPU: int64(r.IntN(50000))}}}
		if r.IntN(10) == 0 {
			load.Steps[0].At = now + 1 // not in effect yet: no demand
		}
		list, n := m.hpaSamples(nil, api.ResourceCPU, facts, load)
		implied, n2, ok := m.hpaLoadSamples(api.ResourceCPU, facts, load)
		if _, has := load.demandAt(now); ok != has {
			t.Fatalf("case %d: hpaLoadSamples applies %v with a demand %v", iter, ok, has)
		}
		if !ok {
			continue
		}
		if n != n2 {
			t.Fatalf("case %d: %d samples, hpaSamples %d", iter, n2, n)
		}
		for i := range facts {
			if got, want := implied.at(i, &facts[i]), list[i]; got != want {
				t.Fatalf("case %d, pod %d: sample %+v, hpaSamples %+v", iter, i, got, want)
			}
		}
		current, target := int32(1+r.IntN(10)), int32(10+r.IntN(190))
		g1, u1, w1, e1 := c.resourceReplicasOver(current, target, api.ResourceCPU, facts, implied, n2)
		g2, u2, w2, e2 := c.resourceReplicasOver(current, target, api.ResourceCPU, facts, podSamples{list: list}, n)
		if g1 != g2 || u1 != u2 || w1 != w2 || fmt.Sprint(e1) != fmt.Sprint(e2) {
			t.Fatalf("case %d: %d, %d, %d, %v over implied samples; %d, %d, %d, %v over the list", iter, g1, u1, w1, e1, g2, u2, w2, e2)
		}
		compared++
	}
	if compared < 10000 {
		t.Fatalf("only %d cases compared", compared)
	}
	// per-pod settings (podCPU) take the list
	m.podCPU = map[string]int64{"x": 1}
	if _, _, ok := m.hpaLoadSamples(api.ResourceCPU, nil, &workloadLoad{Steps: []LoadStep{{At: 0, MilliCPU: 1}}}); ok {
		t.Fatal("hpaLoadSamples applies with per-pod CPU settings")
	}
	m.podCPU = nil
	if _, _, ok := m.hpaLoadSamples(api.ResourceMemory, nil, &workloadLoad{Steps: []LoadStep{{At: 0, MilliCPU: 1}}}); ok {
		t.Fatal("hpaLoadSamples applies to memory")
	}
}

const time10m = 10 * 60 * 1e9
