package workshop

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// Status is a participant's marker in the instructor's table.
type Status string

const (
	StatusOK      Status = ""
	StatusIdle    Status = "idle"    // no key pressed for IdleAfter
	StatusStuck   Status = "stuck"   // typing, but no progress for StuckAfter
	StatusDone    Status = "done"    // the last step's checks all pass
	StatusOffline Status = "offline" // disconnected; the lab is kept for a reconnect
)

// Markers says when a participant counts as idle or stuck.
type Markers struct {
	IdleAfter  time.Duration
	StuckAfter time.Duration
}

// DefaultMarkers are what a workshop usually wants: a participant who has
// not typed for two minutes is idle; one who has not advanced a check or
// a step for five is stuck (and worth a visit).
var DefaultMarkers = Markers{IdleAfter: 2 * time.Minute, StuckAfter: 5 * time.Minute}

// StatusOf derives the marker at now. Stuck wins over idle: a participant
// who stopped typing without finishing the step is the one to help.
func (m Markers) StatusOf(p Progress, now time.Time) Status {
	switch {
	case !p.Online:
		return StatusOffline
	case p.Complete() && p.Step == p.Steps-1:
		return StatusDone
	case !p.Complete() && m.StuckAfter > 0 && now.Sub(p.LastProgress) >= m.StuckAfter:
		return StatusStuck
	case m.IdleAfter > 0 && now.Sub(p.LastInput) >= m.IdleAfter:
		return StatusIdle
	}
	return StatusOK
}

// SortKey is a column the instructor sorts the table by.
type SortKey int

const (
	ByName       SortKey = iota
	ByStep               // furthest first
	ByChecks             // most checks passed first (within the step order)
	ByTimeOnStep         // longest on the step first: who is slow
	ByIdle               // longest without input first
	numSortKeys
)

var sortNames = [...]string{"name", "step", "checks", "time on step", "idle"}

func (k SortKey) String() string { return sortNames[k] }

// Next cycles the sort keys.
func (k SortKey) Next() SortKey { return (k + 1) % numSortKeys }

// Sort orders rows by key at now; ties go by name so the table does not
// jump between frames.
func Sort(rows []Progress, key SortKey, now time.Time) {
	slices.SortStableFunc(rows, func(a, b Progress) int {
		var c int
		switch key {
		case ByStep:
			c = cmp.Compare(b.Step, a.Step)
		case ByChecks:
			c = cmp.Or(cmp.Compare(b.Step, a.Step), cmp.Compare(b.Passed, a.Passed))
		case ByTimeOnStep:
			c = cmp.Compare(now.Sub(b.StepSince), now.Sub(a.StepSince))
		case ByIdle:
			c = cmp.Compare(now.Sub(b.LastInput), now.Sub(a.LastInput))
		}
		return cmp.Or(c, strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), strings.Compare(a.Name, b.Name))
	})
}

// Summary is the room at the end of a workshop.
type Summary struct {
	Participants int
	// Reached counts participants by the furthest step they completed.
	Finished int // completed the last step
	// StepsDone is, per step, how many participants completed it.
	StepsDone []int
}

// Summarize counts the room: a step is done for a participant who saw its
// checks all pass while on it (being pushed past a step does not count).
func Summarize(rows []Progress) Summary {
	s := Summary{Participants: len(rows)}
	steps := 0
	for _, r := range rows {
		steps = max(steps, r.Steps)
	}
	s.StepsDone = make([]int, steps)
	for _, r := range rows {
		for i := 0; i < r.Steps && i < 64; i++ {
			if r.DoneMask&(1<<i) != 0 {
				s.StepsDone[i]++
			}
		}
		if r.Steps > 0 && r.Step == r.Steps-1 && r.Complete() {
			s.Finished++
		}
	}
	return s
}
