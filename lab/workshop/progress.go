package workshop

import (
	"time"

	"podlab.dev/podlab/lab"
)

// Progress is what the instructor sees of one participant: a snapshot
// taken on the participant's own goroutine (sessions are not safe for
// concurrent use) and read by the instructor's.
type Progress struct {
	Name   string
	Online bool
	// Step is the lesson step (0-based); Steps how many the lesson has.
	Step, Steps int
	StepTitle   string
	// Passed and Total are the current step's checks.
	Passed, Total int
	// Done counts the steps whose checks all passed while the participant
	// was on them; DoneMask has bit i set for step i (steps past 64 are
	// counted in Done only).
	Done     int
	DoneMask uint64
	// StepSince is when the participant arrived at the step.
	StepSince time.Time
	// LastCommand is the last command applied, and when.
	LastCommand   string
	LastCommandAt time.Time
	// LastInput is the last key, click or paste.
	LastInput time.Time
	// LastProgress is the last change of step or of checks passed.
	LastProgress time.Time
	// Commands counts the commands applied.
	Commands int
	// Joined is when the participant first connected.
	Joined time.Time
	// Note is the last limit or error the participant hit.
	Note string
}

// Complete reports whether the current step's checks all pass.
func (p Progress) Complete() bool { return p.Total > 0 && p.Passed == p.Total }

// Tracker keeps one participant's Progress up to date from their session.
// It is owned by the participant's goroutine.
type Tracker struct {
	p       Progress
	hist    int
	done    map[int]bool
	measure time.Time
}

// NewTracker starts tracking a participant who joined at now.
func NewTracker(name string, now time.Time) *Tracker {
	return &Tracker{p: Progress{Name: name, Online: true, Joined: now, StepSince: now, LastInput: now, LastProgress: now}, done: map[int]bool{}}
}

// Input records a key, click or paste at now.
func (t *Tracker) Input(now time.Time) { t.p.LastInput = now }

// Note records a message the participant was shown (a limit hit).
func (t *Tracker) Note(msg string) { t.p.Note = msg }

// Observe updates the progress from the session at now. Checks are
// evaluated when the step or history changed, or at most every `every`
// otherwise (the cluster moves with the clock: pods start, nodes fail);
// it reports whether the progress changed.
func (t *Tracker) Observe(s *lab.Session, now time.Time, every time.Duration) bool {
	hist := s.History()
	step := s.Step()
	changed := len(hist) != t.hist || step != t.p.Step
	if !changed && now.Sub(t.measure) < every && !t.measure.IsZero() {
		return false
	}
	t.measure = now
	before := t.p
	if step != t.p.Step {
		t.p.Step, t.p.StepSince = step, now
	}
	if len(hist) != t.hist {
		if len(hist) > 0 {
			// an inline manifest is a command too: one safe line of it
			t.p.LastCommand, t.p.LastCommandAt = OneLine(hist[len(hist)-1].Line, 200), now
		}
		// undo shortens the history; count what was applied, not undone
		if len(hist) > t.hist {
			t.p.Commands += len(hist) - t.hist
		}
		t.hist = len(hist)
	}
	t.p.Steps, t.p.StepTitle, t.p.Passed, t.p.Total = 0, "", 0, 0
	if l := s.Lesson(); l != nil && len(l.Steps) > 0 {
		t.p.Steps = len(l.Steps)
		t.p.StepTitle = l.Steps[step].Title
		for _, r := range s.CheckStep(step) {
			t.p.Total++
			if r.OK && r.Err == nil {
				t.p.Passed++
			}
		}
	}
	if t.p.Complete() {
		t.done[step] = true
		if step < 64 {
			t.p.DoneMask |= 1 << step
		}
	}
	t.p.Done = len(t.done)
	if t.p.Step != before.Step || t.p.Passed != before.Passed || t.p.Done != before.Done {
		t.p.LastProgress = now
	}
	return t.p != before
}

// Progress returns the snapshot.
func (t *Tracker) Progress() Progress { return t.p }

// Online records a connect or disconnect.
func (t *Tracker) Online(on bool) { t.p.Online = on }

// Reset starts the participant over on a fresh session (the instructor's
// reset): the step, checks and commands start again; name, joined and
// the connection stay.
func (t *Tracker) Reset(s *lab.Session, now time.Time) {
	*t = Tracker{p: Progress{Name: t.p.Name, Online: t.p.Online, Joined: t.p.Joined, StepSince: now, LastInput: now, LastProgress: now}, done: map[int]bool{}}
	t.Observe(s, now, 0)
}

// Rename sets the participant's name (the room made it unique).
func (t *Tracker) Rename(name string) { t.p.Name = name }
