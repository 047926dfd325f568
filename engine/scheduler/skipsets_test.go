package scheduler

import (
	"maps"
	"reflect"
	"testing"
)

// An interned skip set holds exactly the masked plugins, is shared by
// cycles with the same mask and profile, and is nil when nothing skipped.
func TestSkipSetsAreInternedPerMaskAndProfile(t *testing.T) {
	names := []string{"A", "B", "C"}
	name := func(i int) string { return names[i] }
	p1, p2 := &profile{}, &profile{}
	s := &Scheduler{prof: p1}
	if got := s.skipSetOf(false, 0, name); got != nil {
		t.Fatalf("empty mask: %v", got)
	}
	ac := s.skipSetOf(false, 0b101, name)
	if want := map[string]bool{"A": true, "C": true}; !maps.Equal(ac, want) {
		t.Fatalf("mask 101: %v, want %v", ac, want)
	}
	if again := s.skipSetOf(false, 0b101, name); reflect.ValueOf(again).UnsafePointer() != reflect.ValueOf(ac).UnsafePointer() || len(s.skipSets) != 1 {
		t.Fatalf("same mask built a new set (%d interned)", len(s.skipSets))
	}
	if b := s.skipSetOf(false, 0b010, name); !maps.Equal(b, map[string]bool{"B": true}) {
		t.Fatalf("mask 010: %v", b)
	}
	s.skipSetOf(true, 0b101, name)
	s.prof = p2
	s.skipSetOf(false, 0b101, name)
	if len(s.skipSets) != 4 {
		t.Fatalf("interned %d sets, want 4 (per list and per profile)", len(s.skipSets))
	}
}
