package lab

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestForkSaveProperty: random command sequences — some before the fork,
// then a mix of lane-a, lane-b and shared commands with undo and redo —
// saved as a forked session and reloaded give both lanes exactly the
// states they had (nodes, pods, events, HPAs), as the save/replay round
// trip does for one session.
func TestForkSaveProperty(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 1234))
			s := exampleSession(t)
			for applied := 0; applied < 8; {
				if _, err := s.Apply(randomCommand(r, s)); err == nil {
					applied++
				}
			}
			f, err := s.Fork()
			if err != nil {
				t.Fatal(err)
			}
			for applied := 0; applied < 30; {
				lane := []string{"", "@a ", "@b "}[r.IntN(3)]
				target := f.Lane(LaneA)
				if lane == "@b " {
					target = f.Lane(LaneB)
				}
				line := lane + randomCommand(r, target)
				if lane != "" && bytes.HasPrefix([]byte(line[3:]), []byte("advance")) {
					line = line[3:] // time is shared
				}
				if r.IntN(8) == 0 && f.CanUndo() {
					line = "undo"
				} else if r.IntN(10) == 0 && f.CanRedo() {
					line = "redo"
				}
				if _, err := f.Apply(line); err == nil {
					applied++
				}
			}
			if err := f.Advance(time.Duration(r.IntN(60)) * time.Second); err != nil {
				t.Fatal(err)
			}
			if fullDigest(f.Lane(LaneA)) == fullDigest(f.Lane(LaneB)) {
				t.Fatal("the lanes never diverged: the test compares nothing")
			}
			var buf bytes.Buffer
			if err := f.Save(&buf); err != nil {
				t.Fatal(err)
			}
			file, err := LoadFile("forked.yaml", buf.Bytes())
			if err != nil {
				t.Fatalf("saved fork does not load: %v\n%s", err, buf.String())
			}
			_, f2, err := OpenSession(file, SessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if f2 == nil {
				t.Fatal("a saved fork reloads as one session")
			}
			if err := f2.Advance(file.Scenario.Clock.ResumeAt); err != nil {
				t.Fatal(err)
			}
			for _, lane := range []string{LaneA, LaneB} {
				if got, want := fullDigest(f2.Lane(lane)), fullDigest(f.Lane(lane)); got != want {
					t.Fatalf("lane %s after reload:\n%s", lane, firstDiff(got, want))
				}
			}
		})
	}
}
