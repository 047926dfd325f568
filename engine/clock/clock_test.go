package clock

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

func sec(s float64) api.Time { return api.Time(time.Duration(s * float64(time.Second))) }

func TestSimultaneousActionsRunInScheduleOrder(t *testing.T) {
	c := New[string](0)
	c.Schedule(sec(2), "b1")
	c.Schedule(sec(1), "a")
	c.Schedule(sec(2), "b2")
	c.Schedule(sec(2), "b3")
	var got []string
	var times []api.Time
	if err := c.RunUntil(sec(5), func(now api.Time, a string) {
		got = append(got, a)
		times = append(times, now)
		if a == "b1" {
			c.Schedule(now, "b1-child") // same instant: after b2, b3
		}
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "b1", "b2", "b3", "b1-child"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if times[0] != sec(1) || times[4] != sec(2) {
		t.Fatalf("times %v", times)
	}
	if c.Now() != sec(5) {
		t.Fatalf("now %s, want 5s", c.Now())
	}
}

func TestRunUntilStopsAtBoundaryAndRefusesToGoBack(t *testing.T) {
	c := New[int](0)
	c.Schedule(sec(3), 3)
	c.Schedule(sec(3.5), 4)
	n := 0
	_ = c.Step(3*time.Second, func(api.Time, int) { n++ })
	if n != 1 {
		t.Fatalf("ran %d actions by 3s, want 1 (the action at exactly 3s)", n)
	}
	if err := c.RunUntil(sec(1), func(api.Time, int) {}); err == nil {
		t.Fatal("RunUntil into the past succeeded")
	}
	if err := c.Step(-time.Second, func(api.Time, int) {}); err == nil {
		t.Fatal("negative Step succeeded")
	}
	if at, ok := c.NextAt(); !ok || at != sec(3.5) {
		t.Fatalf("NextAt = %s,%v", at, ok)
	}
}

func TestPastScheduleRunsNowAndCancel(t *testing.T) {
	c := New[string](sec(10))
	c.Schedule(sec(1), "late")
	id := c.Schedule(sec(11), "cancelled")
	c.Schedule(sec(11), "kept")
	c.Cancel(id)
	if c.Len() != 2 {
		t.Fatalf("Len = %d, want 2", c.Len())
	}
	var got []string
	_ = c.RunUntil(sec(20), func(now api.Time, a string) { got = append(got, a+"@"+now.String()) })
	if len(got) != 2 || got[0] != "late@10s" || got[1] != "kept@11s" {
		t.Fatalf("got %v", got)
	}
}

func TestCloneIsIndependentAndReplaysIdentically(t *testing.T) {
	c := New[int](0)
	for i := 0; i < 5; i++ {
		c.Schedule(sec(float64(5-i)), i)
	}
	d := c.Clone()
	var a, b []int
	_ = c.RunUntil(sec(3), func(_ api.Time, v int) { a = append(a, v) })
	_ = d.RunUntil(sec(10), func(_ api.Time, v int) { b = append(b, v) })
	if len(a) != 3 || len(b) != 5 || a[0] != b[0] || a[2] != b[2] {
		t.Fatalf("a=%v b=%v", a, b)
	}
	if c.Now() != sec(3) || d.Now() != sec(10) {
		t.Fatal("clones share time")
	}
}

func TestRandCloneReplays(t *testing.T) {
	r := NewRand(42)
	r.IntN(10)
	s := r.Clone()
	for i := 0; i < 20; i++ {
		if x, y := r.Int64(), s.Int64(); x != y {
			t.Fatalf("draw %d differs: %d vs %d", i, x, y)
		}
	}
	if NewRand(1).Int64() == NewRand(2).Int64() {
		t.Fatal("different seeds drew the same first number")
	}
}
