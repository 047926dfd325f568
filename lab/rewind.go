package lab

import (
	"fmt"
	"slices"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/command"
)

// Rewind scrubs the session back to any earlier instant to look around:
// the present is parked (not copied), and the session shows what replaying
// the history up to that instant gives (restored from the nearest
// checkpoint). From there:
//   - RewindTo moves to another instant, earlier or later;
//   - Advance plays the recorded history forward (reaching the present
//     resumes);
//   - Resume returns to the present at once;
//   - Apply branches: the commands after the instant leave the history
//     for the redo stack (Redo re-applies them one by one) and the new
//     command is applied there.
//
// Undo and Redo refuse while rewound (resume or branch first).

// rewindState is the parked present.
type rewindState struct {
	present *checkpoint
	// applied is how many history entries the shown state has applied.
	applied int
}

// RewindInfo describes a rewound session.
type RewindInfo struct {
	At      api.Time // the instant shown
	Present api.Time // the instant Resume returns to
	// Applied of the history's entries are part of the shown state; the
	// later ones are its future (a time slider can draw them greyed).
	Applied int
}

// Rewound reports whether the session shows an earlier instant, and which.
func (s *Session) Rewound() (RewindInfo, bool) {
	if s.rewind == nil {
		return RewindInfo{}, false
	}
	return RewindInfo{At: s.eng.Now(), Present: s.rewind.present.at, Applied: s.rewind.applied}, true
}

// Present returns the virtual time of the present: Now, or while rewound
// the instant Resume returns to.
func (s *Session) Present() api.Time {
	if s.rewind != nil {
		return s.rewind.present.at
	}
	return s.eng.Now()
}

func errRewound(s *Session) error {
	return fmt.Errorf("rewound to %s: resume (back to %s) or apply a command to branch here first", s.eng.Now(), s.rewind.present.at)
}

// RewindTo shows the session as it was at t, 0 ≤ t ≤ the present: every
// command applied at or before t applied, nothing after. Moving forward
// from the instant shown plays the history on; moving back restores from
// a checkpoint. t equal to the present resumes.
func (s *Session) RewindTo(t api.Time) error {
	present := s.Present()
	if t < 0 || t > present {
		return fmt.Errorf("rewind: %s is outside the session (0s to %s)", t, present)
	}
	if t == present {
		s.Resume()
		return nil
	}
	if s.rewind == nil {
		s.rewind = &rewindState{present: s.park(), applied: len(s.history)}
	}
	n := entriesUpTo(s.history, t)
	if t >= s.eng.Now() && n >= s.rewind.applied {
		return s.playForward(t)
	}
	if err := s.restore("rewind to "+t.String(), true, n, t); err != nil {
		return err
	}
	s.rewind.applied = n
	return nil
}

// StepBack rewinds to the latest instant before the one shown at which a
// command was applied (the state right after it), or to t=0: what
// ctrl+← does, pressed repeatedly to walk back through the history.
func (s *Session) StepBack() error {
	now, target := s.eng.Now(), api.Time(0)
	for _, e := range s.history {
		if e.At < now {
			target = max(target, e.At)
		}
	}
	return s.RewindTo(target)
}

// Resume returns a rewound session to the present (the parked state, as
// it was); it does nothing otherwise.
func (s *Session) Resume() {
	if s.rewind == nil {
		return
	}
	p := s.rewind.present
	s.keepLive()
	s.rewind = nil
	s.use(p.eng, p.ctl)
	s.seed, s.nextTimeline, s.notes = p.seed, p.nextTimeline, p.notes
	s.replayCost = p.replayCost
}

// park captures the live state as a checkpoint without copying it: the
// live engine is parked and the caller replaces it.
func (s *Session) park() *checkpoint {
	return s.freeze(s.eng, s.ctl, len(s.history))
}

// playForward advances a rewound session along its recorded history to t,
// resuming at the present.
func (s *Session) playForward(t api.Time) error {
	present := s.rewind.present.at
	if t >= present {
		s.Resume()
		return nil
	}
	for s.rewind.applied < len(s.history) && s.history[s.rewind.applied].At <= t && !advancingAt(s.history[s.rewind.applied], t) {
		if err := s.replayEntry(s.history[s.rewind.applied]); err != nil {
			return err
		}
		s.rewind.applied++
	}
	return s.advanceTo(t)
}

// branch makes the instant shown the present: the history after it goes
// to the redo stack (the earliest on top) and the parked present becomes
// a checkpoint (redoing everything returns to it without replay).
func (s *Session) branch() {
	r := s.rewind
	s.rewind = nil
	later := slices.Clone(s.history[r.applied:])
	s.truncateHistory(r.applied)
	for i := len(later) - 1; i >= 0; i-- {
		s.redo = append(s.redo, later[i])
	}
	s.checkpoints = append(s.checkpoints, r.present)
	s.thinCheckpoints()
}

// appliedHistory is the history the shown state has applied.
func (s *Session) appliedHistory() []Entry {
	if s.replayed >= 0 {
		return s.history[:s.replayed]
	}
	if s.rewind != nil {
		return s.history[:s.rewind.applied]
	}
	return s.history
}

// entriesUpTo counts the entries applied at or before t (the history is
// in time order). An `advance D` still running at t is not counted: the
// state then is the earlier entries' with the clock run to t, and playing
// on runs the advance to its end.
func entriesUpTo(history []Entry, t api.Time) int {
	n := 0
	for n < len(history) && history[n].At <= t && !advancingAt(history[n], t) {
		n++
	}
	return n
}

// advancingAt reports whether e is an `advance D` whose clock is still
// running at t.
func advancingAt(e Entry, t api.Time) bool {
	cmd, err := command.Parse(e.Line)
	adv, ok := cmd.(command.Advance)
	return err == nil && ok && e.At.Add(adv.D) > t
}
