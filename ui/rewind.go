package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// Rewind: ctrl+← scrubs the clock back, ctrl+→ forward, R returns to the
// present; while rewound the status line is a time slider (a click on it
// jumps there), space plays the recorded history forward and a command
// branches from the instant shown (the lab keeps the later history for
// redo). The lab does the work (Session.RewindTo, Resume, Present, from
// checkpoints); the keys are enabled only when the session can rewind.

// rewinder is the lab's rewind API.
type rewinder interface {
	RewindTo(t lab.Time) error
	Resume()
	Present() lab.Time
}

// rewinder returns the session's rewind API, if it has one.
func (m *Model) rewinder() (rewinder, bool) {
	r, ok := any(m.sess).(rewinder)
	return r, ok
}

// rewound reports a session showing an earlier instant than its present.
func (m *Model) rewound() (at, present lab.Time, ok bool) {
	r, can := m.rewinder()
	if !can {
		return 0, 0, false
	}
	at, present = m.sess.Now(), r.Present()
	return at, present, at < present
}

// rewindStep is how far one ctrl+← or ctrl+→ moves: a round twentieth of
// the session, one second at least.
func rewindStep(present lab.Time) lab.Time {
	want := present.Seconds() / 20
	for _, s := range tickSteps {
		if s >= want {
			return lab.Time(s * 1e9)
		}
	}
	return lab.Time(tickSteps[len(tickSteps)-1] * 1e9)
}

// rewindTo shows the session at t (clamped to [0, present]), off the UI
// goroutine (a rewind may replay); the clock stops, so the user looks
// around before playing on.
func (m *Model) rewindTo(t lab.Time) tea.Cmd {
	r, ok := m.rewinder()
	if !ok {
		return nil
	}
	t = max(0, min(t, r.Present()))
	m.paused = true
	return m.runLong("rewind to "+t.Clock(), func() (string, error) { return "", r.RewindTo(t) }, func(m *Model, _ string, err error) {
		switch _, _, rewound := m.rewound(); {
		case err != nil:
			m.setStatus(err.Error(), true)
		case rewound:
			m.setStatus("", false)
		default:
			m.setStatus("back to the present", false)
		}
		m.changed()
		m.refresh()
	})
}

// resume returns to the present.
func (m *Model) resume() {
	if r, ok := m.rewinder(); ok {
		r.Resume()
		m.setStatus("back to the present", false)
		m.changed()
		m.refresh()
	}
}

// rewindLine is the status line of a rewound session: a slider from 0 to
// the present with the instant shown, and what the keys do. The slider's
// cells are recorded as hit regions (a click rewinds there).
func (m *Model) rewindLine(w int, at, present lab.Time) string {
	head := fmt.Sprintf(" ⏪ %s ", at.Clock())
	tail := fmt.Sprintf(" %s · ␣ plays on · R present · : a command branches here", present.Clock())
	barW := w - cellWidth(head) - cellWidth(tail)
	if barW < 10 {
		tail = fmt.Sprintf(" %s", present.Clock())
		barW = max(w-cellWidth(head)-cellWidth(tail), 4)
	}
	pos := 0
	if present > 0 {
		pos = min(int(float64(at)/float64(present)*float64(barW-1)+0.5), barW-1)
	}
	x0 := cellWidth(head)
	for c := 0; c < barW; c++ {
		m.hits.add(hit{x0: x0 + c, y0: m.h - 2, x1: x0 + c + 1, y1: m.h - 1, kind: hitTime,
			index: int(float64(present) * float64(c) / float64(max(barW-1, 1)))})
	}
	bar := m.st.Accent.Render(strings.Repeat("━", pos)) + m.st.Selected.Render("●") + m.st.Muted.Render(strings.Repeat("─", barW-pos-1))
	return fit(m.st.Warn.Render(head)+bar+m.st.Muted.Render(tail), w)
}
