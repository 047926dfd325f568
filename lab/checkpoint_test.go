package lab

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// groundTruth is what the session must show: the scenario reloaded, the
// applied history replayed at its times, run until the same instant — no
// checkpoint involved.
func groundTruth(t *testing.T, s *Session) string {
	t.Helper()
	g, err := NewSession(s.file, SessionOptions{NoCheckpoints: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range s.appliedHistory() {
		if err := g.replayEntry(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.advanceTo(s.Now()); err != nil {
		t.Fatal(err)
	}
	return sessionDigest(g)
}

func sessionDigest(s *Session) string {
	return fmt.Sprintf("seed %d timeline %d\n%s", s.seed, s.nextTimeline, fullDigest(s))
}

// TestCheckpointsAgreeWithReplay is the property behind instant undo:
// over random sequences of commands, clock advances, undo, redo, rewind,
// resume and branch, the state restored from checkpoints is exactly what
// replaying from t=0 gives (nodes, pods, states and the whole event
// stream). Each run uses a different checkpoint policy: one before every
// command, none at all (restores replay from t=0), and the cost-based one.
func TestCheckpointsAgreeWithReplay(t *testing.T) {
	zero, never := time.Duration(0), time.Duration(1<<62)
	policies := []struct {
		name string
		cost *time.Duration
	}{{"always", &zero}, {"never", &never}, {"by-cost", nil}}
	runs := 12
	if testing.Short() {
		runs = 2
	}
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		p := policies[int(seed)%len(policies)]
		t.Run(fmt.Sprintf("%d-%s", seed, p.name), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 2026))
			s := exampleSession(t)
			s.costOverride = p.cost
			var log []string
			for i := 0; i < 60; i++ {
				op := randomOp(r, s)
				log = append(log, op)
				if got, want := sessionDigest(s), groundTruth(t, s); got != want {
					t.Fatalf("after %s:\n%s", strings.Join(log, "; "), firstDiff(got, want))
				}
				// explanations and view caches read the live scheduler
				if engine.Scheduler(s.sched) != s.eng.Scheduler() {
					t.Fatalf("after %s: the session's scheduler is not the live engine's", strings.Join(log, "; "))
				}
			}
			if len(s.checkpoints) > maxCheckpoints {
				t.Fatalf("%d checkpoints, the bound is %d", len(s.checkpoints), maxCheckpoints)
			}
		})
	}
}

// randomOp does one random thing to the session and names it.
func randomOp(r *rand.Rand, s *Session) string {
	switch k := r.IntN(20); {
	case k < 9:
		line := randomCommand(r, s)
		if r.IntN(8) == 0 {
			line = fmt.Sprintf("seed %d", r.IntN(100))
		}
		_, err := s.Apply(line)
		return fmt.Sprintf("apply %q (%v)", line, err)
	case k < 12:
		d := time.Duration(1+r.IntN(240)) * time.Second
		if err := s.Advance(d); err != nil {
			panic(err)
		}
		return "advance " + d.String()
	case k < 15:
		_, err := s.Undo()
		return fmt.Sprintf("undo (%v)", err)
	case k < 17:
		_, err := s.Redo()
		return fmt.Sprintf("redo (%v)", err)
	case k < 19:
		to := api.Time(r.Int64N(int64(s.Present()) + 1))
		err := s.RewindTo(to)
		return fmt.Sprintf("rewind to %s (%v)", to, err)
	default:
		s.Resume()
		return "resume"
	}
}

func TestRewindBranchKeepsLaterHistoryForRedo(t *testing.T) {
	s := exampleSession(t)
	for i, step := range []string{"cordon node-1", "cordon node-2", "cordon node-3"} {
		if i > 0 {
			if err := s.Advance(10 * time.Second); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Apply(step); err != nil {
			t.Fatal(err)
		}
	}
	present, before := s.Now(), s.Engine()
	if err := s.RewindTo(api.Time(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	info, ok := s.Rewound()
	if !ok || info.At != api.Time(5*time.Second) || info.Present != present || info.Applied != 1 {
		t.Fatalf("Rewound() = %+v, %v; want at 5s, present %s, 1 entry applied", info, ok, present)
	}
	if !s.Engine().Node("node-1").Spec.Unschedulable || s.Engine().Node("node-2").Spec.Unschedulable {
		t.Fatalf("at 5s node-1 is cordoned and node-2 not yet")
	}
	if _, err := s.Undo(); err == nil || !strings.Contains(err.Error(), "rewound to 5s") {
		t.Fatalf("undo while rewound: %v, want a refusal", err)
	}
	// resume returns the parked present itself
	s.Resume()
	if s.Engine() != before || s.Now() != present {
		t.Fatalf("resume did not return to the present")
	}
	if err := s.RewindTo(api.Time(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	// branch: a command at 5s; the later entries wait on the redo stack
	if _, err := s.Apply("cordon node-4"); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Rewound(); ok {
		t.Fatal("still rewound after a branch")
	}
	var lines []string
	for _, e := range s.History() {
		lines = append(lines, e.Line+"@"+e.At.String())
	}
	if got := strings.Join(lines, ", "); got != "cordon node-1@0s, cordon node-4@5s" {
		t.Fatalf("history after the branch: %s", got)
	}
	for _, want := range []string{"cordon node-2", "cordon node-3"} {
		msg, err := s.Redo()
		if err != nil || msg != "redid: "+want {
			t.Fatalf("redo = %q, %v; want %q", msg, err, want)
		}
	}
	if got, want := sessionDigest(s), groundTruth(t, s); got != want {
		t.Fatalf("after redoing the later history:\n%s", firstDiff(got, want))
	}
}

func TestRewindPlaysForwardAndResumesAtThePresent(t *testing.T) {
	s := exampleSession(t)
	if err := s.Advance(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("cordon node-1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(40 * time.Second); err != nil {
		t.Fatal(err)
	}
	present := s.Engine()
	if err := s.RewindTo(api.Time(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(15 * time.Second); err != nil { // plays the recorded cordon at 20s
		t.Fatal(err)
	}
	if info, _ := s.Rewound(); info.At != api.Time(25*time.Second) || info.Applied != 1 || !s.Engine().Node("node-1").Spec.Unschedulable {
		t.Fatalf("played forward to %+v", info)
	}
	if got, want := sessionDigest(s), groundTruth(t, s); got != want {
		t.Fatalf("played forward:\n%s", firstDiff(got, want))
	}
	if err := s.Advance(time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Rewound(); ok || s.Engine() != present {
		t.Fatalf("reaching the present must resume it")
	}
	if err := s.RewindTo(s.Now() + 1); err == nil {
		t.Fatalf("rewinding into the future must fail")
	}
}

func TestRestoreReportsProgress(t *testing.T) {
	s := exampleSession(t)
	never := time.Duration(1 << 62)
	s.costOverride = &never // no checkpoint but t=0: undo replays
	for _, line := range []string{"cordon node-1", "cordon node-2", "cordon node-3"} {
		if _, err := s.Apply(line); err != nil {
			t.Fatal(err)
		}
	}
	var got []Progress
	s.SetProgress(func(p Progress) { got = append(got, p) })
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	want := []Progress{{"undo", 0, 2}, {"undo", 1, 2}, {"undo", 2, 2}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("progress %v, want %v", got, want)
	}
}

func TestStepBackWalksTheCommandInstants(t *testing.T) {
	s := exampleSession(t)
	for _, line := range []string{"cordon node-1", "cordon node-2"} {
		if err := s.Advance(10 * time.Second); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Apply(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 4 {
		if err := s.StepBack(); err != nil {
			t.Fatal(err)
		}
		info, _ := s.Rewound()
		got = append(got, fmt.Sprintf("%s/%d", info.At, info.Applied))
	}
	if want := "20s/2 10s/1 0s/0 0s/0"; strings.Join(got, " ") != want {
		t.Fatalf("step back visits %s, want %s", strings.Join(got, " "), want)
	}
	if d, want := sessionDigest(s), groundTruth(t, s); d != want {
		t.Fatalf("at t=0:\n%s", firstDiff(d, want))
	}
}
