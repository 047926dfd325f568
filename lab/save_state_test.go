package lab

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A session saved paused, at ×4, on lesson step 3 reopens that way; one
// saved without options opens as its header said (backward compatible).
func TestSaveKeepsTheClockAndTheStep(t *testing.T) {
	s := presetSession(t, "spread-basics")
	if _, err := s.Apply("cordon node1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	step := 2
	var buf bytes.Buffer
	if err := s.SaveWith(&buf, SaveOptions{Clock: &ClockSpec{Speed: 4, Paused: true}, Step: &step}); err != nil {
		t.Fatal(err)
	}
	g, err := LoadFile("saved.yaml", buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	c := g.Scenario.Clock
	if !c.Paused || c.Speed != 4 || c.ResumeAt != 5*time.Second {
		t.Fatalf("clock %+v: want paused at ×4, resuming at 5s", c)
	}
	back, err := NewSession(g, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if back.Step() != 2 {
		t.Fatalf("reopened on step %d, want 2 (0-based)", back.Step())
	}
	// playing at ×1 on the first step: the defaults, not written
	buf.Reset()
	zero := 0
	if err := s.SaveWith(&buf, SaveOptions{Clock: &ClockSpec{Speed: 1}, Step: &zero}); err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"paused", "speed", "step:"} {
		if strings.Contains(buf.String(), absent) {
			t.Errorf("a default %q is written:\n%s", absent, buf.String())
		}
	}
	// no options: the header's clock (speed 2) as before
	buf.Reset()
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if g, err = LoadFile("plain.yaml", buf.Bytes()); err != nil || g.Scenario.Clock.Speed != 2 || g.Scenario.Clock.Paused {
		t.Fatalf("plain save: %v %+v", err, g.Scenario.Clock)
	}
}

// lesson.step is checked like every header field.
func TestLessonStepIsValidated(t *testing.T) {
	base := "apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: x}\nlesson:\n  step: %s\n  steps:\n  - {title: one}\n  - {title: two}\n"
	for _, c := range []struct{ step, want string }{
		{"2", ""},
		{"3", "lesson.step 3: the lesson has 2 steps"},
		{"0", "lesson.step must be a whole number from 1"},
		{"x", "lesson.step must be a whole number"},
	} {
		f, err := LoadFile("l.yaml", []byte(strings.Replace(base, "%s", c.step, 1)))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("step %s: %v", c.step, err)
		case c.want == "" && f.Scenario.Lesson.Step != 1:
			t.Errorf("step %s: got %d", c.step, f.Scenario.Lesson.Step)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("step %s: error %v, want %q", c.step, err, c.want)
		}
	}
}

// The descheduler's interval in the header survives a save (it was
// dropped: the saved session stopped descheduling).
func TestSaveKeepsTheDeschedulingInterval(t *testing.T) {
	src := "apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: d}\ndescheduler: {deschedulingInterval: 5m}\n"
	f, err := LoadFile("d.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := LoadFile("d2.yaml", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Scenario.Descheduler.DeschedulingInterval; got != 5*time.Minute {
		t.Fatalf("deschedulingInterval after a save: %v\n%s", got, buf.String())
	}
}

// The mark changes with each command, returns with undo, and differs for
// a different command at the same place.
func TestMarkFollowsTheHistory(t *testing.T) {
	s := presetSession(t, "spread-basics")
	m0 := s.Mark()
	if err := s.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if s.Mark() != m0 {
		t.Fatal("the clock running by itself is not a change")
	}
	if _, err := s.Apply("cordon node1"); err != nil {
		t.Fatal(err)
	}
	m1 := s.Mark()
	if m1 == m0 || s.Commands() != 1 {
		t.Fatalf("a command changes the mark (%v %v, %d commands)", m0, m1, s.Commands())
	}
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if s.Mark() != m0 {
		t.Fatal("undo back to the saved history is unchanged")
	}
	if _, err := s.Apply("cordon node2"); err != nil {
		t.Fatal(err)
	}
	if s.Mark() == m0 || s.Mark() == m1 {
		t.Fatal("a different command is a change")
	}
	fk, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	fm := fk.Mark()
	if _, err := fk.Apply("@b cordon node3"); err != nil {
		t.Fatal(err)
	}
	if fk.Mark() == fm || fk.Commands() != 2 {
		t.Fatalf("a lane's command changes the fork's mark (%d commands)", fk.Commands())
	}
}
