package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Long operations (undo and redo replay history; a rewind restores a
// checkpoint and replays) run off the UI goroutine as a tea.Cmd. Until
// the operation returns, nothing else touches the session (its
// concurrency contract): keys and clicks wait, the clock does not
// advance, and the screen is the last frame drawn with a progress line
// in place of the status line — so the UI never freezes.

// busy is the long operation under way.
type busy struct {
	what  string
	since time.Time
	// op runs the operation; it is called once, off the UI goroutine
	// (tests call it in place: settle).
	op func() tea.Msg
	// resize: the terminal changed size meanwhile (refresh after)
	resize bool
	// done of total steps, as the lab reports them (progressMsg)
	done, total int
}

// progressMsg is the lab's report on a long operation (forwarded by the
// session's progress function, which runs on the operation's goroutine
// and only sends this message: see watchProgress).
type progressMsg struct {
	what        string
	done, total int
}

// longDoneMsg ends a long operation: done finishes it on the UI
// goroutine (status line, refresh).
type longDoneMsg struct{ done func(*Model) }

// busyAfter is how long an operation runs before the progress line shows
// (shorter ones show no flicker).
const busyAfter = 150 * time.Millisecond

// runLong starts op off the UI goroutine; finish runs on the UI goroutine
// with op's results once it returns.
func (m *Model) runLong(what string, op func() (string, error), finish func(m *Model, out string, err error)) tea.Cmd {
	b := &busy{what: what, since: time.Now()}
	b.op = func() tea.Msg {
		out, err := op()
		return longDoneMsg{done: func(m *Model) { finish(m, out, err) }}
	}
	m.busy = b
	return b.op
}

// applyLong is apply for a command that may take long (undo, redo).
func (m *Model) applyLong(line string) tea.Cmd {
	return m.runLong(line, func() (string, error) { return m.run(line) }, func(m *Model, out string, err error) {
		m.reportApplied(line, out, err)
	})
}

// updateBusy handles a message while an operation runs: only its end,
// the clock's ticks (kept alive, not advancing), sizes and ctrl+c.
func (m *Model) updateBusy(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case longDoneMsg:
		resize := m.busy.resize
		m.busy = nil
		msg.done(m)
		if resize {
			m.refreshLayout()
		}
		return m, m.afterBusy()
	case fileLoadedMsg: // openFileCmd's end
		resize := m.busy.resize
		m.busy = nil
		cmd := m.finishOpen(msg)
		if resize {
			m.refreshLayout()
		}
		return m, tea.Batch(cmd, m.afterBusy())
	case tickMsg:
		if msg.id != m.tickID {
			return m, nil
		}
		return m, m.tick()
	case fileSavedMsg:
		// a save that ended meanwhile: reported once the session is free
		m.savedWhileBusy = append(m.savedWhileBusy, msg)
	case progressMsg:
		m.busy.done, m.busy.total = msg.done, msg.total
		if msg.what != "" {
			m.busy.what = msg.what
		}
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.busy.resize = true
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
	}
	return m, nil
}

// busyFrame is the last frame with the progress line over its status
// line; it reads nothing from the session.
func (m *Model) busyFrame() string {
	lines := strings.Split(m.lastFrame, "\n")
	if time.Since(m.busy.since) >= busyAfter && len(lines) >= 2 {
		spin := []string{"◐", "◓", "◑", "◒"}[int(time.Since(m.busy.since)/(250*time.Millisecond))%4]
		steps := ""
		if b := m.busy; b.total > 0 {
			steps = fmt.Sprintf(" %s %d/%d", hbar(m.st, float64(b.done)/float64(b.total), 20), b.done, b.total)
		}
		lines[len(lines)-2] = fit(m.st.Warn.Render(fmt.Sprintf(" %s %s…", spin, safe(m.busy.what)))+steps+
			m.st.Warn.Render(fmt.Sprintf(" %.1fs — keys wait until it is done (ctrl+c quits)", time.Since(m.busy.since).Seconds())), m.w)
	}
	return strings.Join(lines, "\n")
}

// afterBusy handles what arrived while the operation ran.
func (m *Model) afterBusy() tea.Cmd {
	var cmds []tea.Cmd
	for _, msg := range m.savedWhileBusy {
		cmds = append(cmds, m.saved(msg))
	}
	m.savedWhileBusy = nil
	return tea.Batch(cmds...)
}
