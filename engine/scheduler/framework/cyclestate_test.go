package framework

import (
	"fmt"
	"testing"
)

type counter struct{ n int }

func (c *counter) Clone() StateData { d := *c; return &d }

// The slot list behaves as the map it replaced: last write wins, absent
// keys read nil, more keys than the inline slots, clones deep-copy, and a
// WithFilterSkipped view cannot write into the original.
func TestCycleStateSlots(t *testing.T) {
	c := NewCycleState()
	for i := 0; i < 2*inlineSlots; i++ {
		c.Write(StateKey(fmt.Sprint("k", i)), &counter{i})
	}
	c.Write("k3", &counter{300})
	c.Write("nil", nil)
	for i := 0; i < 2*inlineSlots; i++ {
		want := i
		if i == 3 {
			want = 300
		}
		if got, _ := c.Read(StateKey(fmt.Sprint("k", i))).(*counter); got == nil || got.n != want {
			t.Fatalf("k%d = %v, want %d", i, got, want)
		}
	}
	if c.Read("absent") != nil || c.Read("nil") != nil {
		t.Fatal("absent or nil key read non-nil")
	}
	cl := c.Clone()
	cl.Read("k1").(*counter).n = 99
	if c.Read("k1").(*counter).n != 1 {
		t.Fatal("clone shares data with the original")
	}
	small := NewCycleState()
	small.Write("a", &counter{1})
	view := small.WithFilterSkipped("P")
	view.Write("b", &counter{2})
	small.Write("c", &counter{3})
	if view.Read("b") == nil || small.Read("b") != nil || view.Read("c") != nil || !view.SkipFilterPlugins["P"] {
		t.Fatal("a WithFilterSkipped view and its original share writes")
	}
}
