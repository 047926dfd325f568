package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab/command"
)

// A long `advance` (a year of virtual time takes the engine seconds of
// CPU, a century minutes) runs off the UI goroutine like undo: the screen
// keeps its last frame with a progress line that counts the seconds and
// says ctrl+c quits, instead of a frozen terminal with the palette open.

// longAdvance is how much virtual time an advance may run on the UI
// goroutine; a shorter one returns at once.
const longAdvance = time.Hour

// isLongAdvance reports whether line is an advance of longAdvance or more.
func isLongAdvance(line string) bool {
	c, err := command.Parse(line)
	if err != nil {
		return false
	}
	a, ok := c.(command.Advance)
	return ok && a.D >= longAdvance
}

// advanceLong is apply for a long advance: off the UI goroutine, its
// result (or why it failed) in the status line, a timeline failure on the
// way flashed as apply does.
func (m *Model) advanceLong(line string) tea.Cmd {
	mark := m.eventsMark()
	return m.runLong(line, func() (string, error) { return m.run(line) }, func(m *Model, out string, err error) {
		m.reportApplied(line, out, err)
		if err == nil {
			m.flashTimelineFailure(mark)
		}
	})
}
