package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// Nothing a user did is lost on one key: q (and ctrl+c, from anywhere)
// asks before quitting a lab with unsaved changes — commands run since
// the file was opened or last saved (lab.Mark). A served workshop
// session quits at once: the server keeps its progress and a reconnect
// resumes it.

// mark identifies what a save would record now (see lab.Mark).
func (m *Model) mark() lab.Mark {
	if m.fork != nil {
		return m.fork.Mark()
	}
	return m.sess.Mark()
}

// commands is how many commands a save would record.
func (m *Model) commands() int {
	if m.fork != nil {
		return m.fork.Commands()
	}
	return m.sess.Commands()
}

// unsaved reports changes a quit would lose.
func (m *Model) unsaved() bool {
	if m.opts.NoFiles {
		return false
	}
	return m.restored || m.mark() != m.savedMark
}

// markSaved records that the session as marked is on disk.
func (m *Model) markSaved(mk lab.Mark) {
	m.savedMark, m.restored = mk, false
	m.savedCommands = m.commands()
}

// requestQuit is q and ctrl+c: quit, or ask first when there are unsaved
// changes.
func (m *Model) requestQuit() tea.Cmd {
	if !m.unsaved() {
		return m.quitNow()
	}
	n := m.commands()
	what := fmt.Sprintf("%d command", n)
	if n != 1 {
		what += "s"
	}
	q := fmt.Sprintf("This lab has unsaved changes (%s since it was opened). Quit without saving?", what)
	if m.savedCommands > 0 {
		// the history goes on after a save (and an undo may shorten
		// it): its length is not what is unsaved
		q = "This lab has changes since it was last saved. Quit without saving?"
	}
	if m.restored && m.mark() == m.savedMark {
		q = "This lab was restored from the recovery file and has not been saved. Quit without saving?"
	}
	if m.recov != nil {
		q += " (Quitting removes the recovery file.)"
	}
	m.ask(&confirmOverlay{
		title:    "quit",
		question: q,
		keys: confirmKeys{
			Yes:   bind("y", "quit without saving", "y", "ctrl+c"),
			No:    bind("n", "keep working", "n", "esc"),
			Other: bind("s", "save, then quit", "s"),
		},
		yes: m.quitNow,
		other: func() tea.Cmd {
			m.quitAfterSave = true
			return m.openPalette(modeSave, m.defaultSaveName())
		},
	})
	return nil
}

// quitNow quits cleanly: the recovery file goes (ui.Run removes it once
// the program has stopped).
func (m *Model) quitNow() tea.Cmd {
	m.quitClean = true
	return tea.Quit
}

// confirmReplace runs open, which replaces the session with another file
// or preset, at once — or after asking when the session has unsaved
// changes (opening used to drop them, and the recovery file with them).
func (m *Model) confirmReplace(what string, open func() tea.Cmd) tea.Cmd {
	if !m.unsaved() {
		return open()
	}
	m.ask(&confirmOverlay{
		title:    "open",
		question: fmt.Sprintf("Open %s? This lab has unsaved changes, and opening replaces it (n, then ctrl+s, saves them first).", what),
		keys: confirmKeys{
			Yes: bind("y", "open it, losing the changes", "y"),
			No:  bind("n", "keep this lab", "n", "esc"),
		},
		yes: open,
	})
	return nil
}
