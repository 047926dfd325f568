package cyclecache

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

type state struct{ n int }

func (s *state) Clone() framework.StateData { return s }

func TestGetPrefersTheCachedCycleAndFallsBackToTheSlot(t *testing.T) {
	var c Cache[*state]
	cycle := framework.NewCycleState()
	s := &state{n: 1}
	cycle.Write("k", s)
	c.Store(cycle, s)
	if got, ok := Get(&c, cycle, "k"); !ok || got != s {
		t.Fatalf("cached cycle: got %v %v", got, ok)
	}
	clone := cycle.Clone()
	if got, ok := Get(&c, clone, "k"); !ok || got.n != 1 {
		t.Fatalf("clone falls back to its slot: got %v %v", got, ok)
	}
	other := framework.NewCycleState()
	if got, ok := Get(&c, other, "k"); ok || got != nil {
		t.Fatalf("unrelated cycle: got %v %v", got, ok)
	}
	c.Store(cycle, nil) // a skipping PreFilter clears the entry
	if got, ok := c.Load(cycle); !ok || got != nil {
		t.Fatalf("after clearing: got %v %v", got, ok)
	}
}

func BenchmarkGet(b *testing.B) {
	var c Cache[*state]
	cycle := framework.NewCycleState()
	s := &state{}
	cycle.Write("k", s)
	c.Store(cycle, s)
	for b.Loop() {
		Get(&c, cycle, "k")
	}
}
