package lab

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestCheckpointsAgreeWithReplayOnEveryPreset plays every preset's lesson
// (each step's solution, then 30 s) twice — with checkpoints, and with
// undo replaying from t=0, the ground truth — then undoes everything and
// redoes it, comparing the two sessions after every operation. The
// presets exercise what a checkpoint must carry besides the cluster: the
// scheduler policy (set scheduler), the autoscaler and descheduler
// controllers, HPAs, probes and restarts.
func TestCheckpointsAgreeWithReplayOnEveryPreset(t *testing.T) {
	for _, p := range Presets() {
		t.Run(p.Name, func(t *testing.T) {
			f, err := LoadPreset(p.Name)
			if err != nil {
				t.Fatal(err)
			}
			withCP, err := NewSession(f, SessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			zero := time.Duration(0)
			withCP.costOverride = &zero // a checkpoint before every command
			replay, err := NewSession(f, SessionOptions{NoCheckpoints: true})
			if err != nil {
				t.Fatal(err)
			}
			lines := lessonUntilFork(f)
			if len(lines) == 0 {
				lines = []string{"advance 30s"}
			}
			same := func(what string) {
				t.Helper()
				a, b := presetDigest(withCP), presetDigest(replay)
				if a != b {
					t.Fatalf("%s: checkpoints and replay differ:\n%s", what, firstDiff(a, b))
				}
			}
			for _, l := range lines {
				_, e1 := withCP.Apply(l)
				_, e2 := replay.Apply(l)
				if (e1 == nil) != (e2 == nil) {
					t.Fatalf("%s: %v vs %v", l, e1, e2)
				}
				same(l)
			}
			if withCP.CheckpointCount() < 2 {
				t.Fatalf("%d checkpoints: the test compares nothing", withCP.CheckpointCount())
			}
			for i := 0; withCP.CanUndo(); i++ {
				if _, err := withCP.Undo(); err != nil {
					t.Fatal(err)
				}
				if _, err := replay.Undo(); err != nil {
					t.Fatal(err)
				}
				same(fmt.Sprintf("undo #%d", i+1))
			}
			for i := 0; withCP.CanRedo(); i++ {
				if _, err := withCP.Redo(); err != nil {
					t.Fatal(err)
				}
				if _, err := replay.Redo(); err != nil {
					t.Fatal(err)
				}
				same(fmt.Sprintf("redo #%d", i+1))
			}
		})
	}
}

// presetDigest is fullDigest (nodes, pods, events, HPAs) plus the
// scheduler policy in force and the autoscaler's state.
func presetDigest(s *Session) string {
	var b strings.Builder
	b.WriteString(fullDigest(s))
	if s.policy != nil {
		j, err := json.Marshal(s.policy)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&b, "policy %s\n", j)
	}
	if a := s.Autoscaler(); a != nil {
		fmt.Fprintf(&b, "autoscaler %+v\n", a.Status())
	}
	return b.String()
}

// TestForkLanesStayIdenticalOnEveryPreset forks each preset after its
// lesson's solutions: lane b (a clone) must equal lane a, and stay equal
// while both run on — the autoscaler, descheduler, HPAs and probes
// included.
func TestForkLanesStayIdenticalOnEveryPreset(t *testing.T) {
	for _, p := range Presets() {
		t.Run(p.Name, func(t *testing.T) {
			f, err := LoadPreset(p.Name)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewSession(f, SessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range lessonUntilFork(f) {
				if _, err := s.Apply(l); err != nil {
					t.Fatalf("%s: %v", l, err)
				}
			}
			fk, err := s.Fork()
			if err != nil {
				t.Fatal(err)
			}
			a, b := fk.Lane(LaneA), fk.Lane(LaneB)
			if da, db := presetDigest(a), presetDigest(b); da != db {
				t.Fatalf("at the fork: %s", firstDiff(db, da))
			}
			if err := fk.Advance(3 * time.Minute); err != nil {
				t.Fatal(err)
			}
			if da, db := presetDigest(a), presetDigest(b); da != db {
				t.Fatalf("3 minutes on: %s", firstDiff(db, da))
			}
		})
	}
}

// lessonUntilFork is a preset's lesson as commands — each step's solution
// then 30 s — up to a fork the lesson makes (what follows a fork is lane
// commands, which TestForkSaveProperty and the presets' own checks cover).
func lessonUntilFork(f *File) []string {
	var lines []string
	if f.Scenario == nil || f.Scenario.Lesson == nil {
		return lines
	}
	for _, st := range f.Scenario.Lesson.Steps {
		sol := st.Solution
		if len(sol) == 0 {
			sol = st.Do
		}
		for _, l := range sol {
			if strings.TrimSpace(l) == "fork" {
				// at least a few commands to undo and redo
				return append(lines, "advance 30s", "advance 45s", "advance 1m")
			}
			lines = append(lines, l)
		}
		lines = append(lines, "advance 30s")
	}
	return lines
}
