package ui

import (
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// Saving never destroys a file: the session is rendered on the UI
// goroutine (the session is not safe for concurrent use) and written off
// it through lab.WriteFile (a temporary file in the same directory,
// fsync, rename), after asking before it replaces an existing file. A
// failed save leaves the old file as it was and says why in the status
// line. The save records how the lab looks — paused or playing, the
// speed, the lesson step — so the file reopens that way.

// fileSavedMsg ends a save: err is why it failed; exists, that path is
// a file the save did not replace (it asks first); mark is the session
// as saved, sess the session (fork, the fork) it was taken from.
type fileSavedMsg struct {
	path   string
	err    error
	exists bool
	mark   lab.Mark
	sess   *lab.Session
	fork   *lab.Fork
}

// defaultSaveName is what the save palette offers: the scenario's name
// with -session.yaml, next to the file it came from.
func (m *Model) defaultSaveName() string {
	name := m.saveName
	if name == "" {
		name = m.sess.File().Name
	}
	name = strings.TrimSuffix(name, ".yaml")
	if name == "" || name == "<stdin>" {
		name = "podlab"
	}
	if strings.HasSuffix(name, "-session") {
		return name + ".yaml"
	}
	return name + "-session.yaml"
}

// saveOptions is how the lab looks now, for the file to reopen that way.
func (m *Model) saveOptions() lab.SaveOptions {
	step := m.sess.Step()
	return lab.SaveOptions{Clock: &lab.ClockSpec{Speed: speeds[m.speedIdx], Paused: m.paused}, Step: &step}
}

// saver renders the session (both lanes when forked) for writing.
func (m *Model) saver() (*lab.Saved, error) {
	if m.fork != nil {
		return m.fork.Saver(m.saveOptions())
	}
	return m.sess.Saver(m.saveOptions())
}

// saveText is what saving writes.
func (m *Model) saveText() (string, error) {
	sv, err := m.saver()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	_, err = sv.WriteTo(&b)
	return b.String(), err
}

// saveCmd saves the session to path; only an explicit save writes a
// file. Unless replace, an existing file is not touched: the answer says
// so and the lab asks.
func (m *Model) saveCmd(path string, replace bool) tea.Cmd {
	sv, err := m.saver()
	mark, sess, fork := m.mark(), m.sess, m.fork
	return func() tea.Msg {
		if err != nil {
			return fileSavedMsg{path: path, err: fmt.Errorf("could not save: %w", err)}
		}
		if path == "" {
			return fileSavedMsg{err: fmt.Errorf("could not save: give a file name")}
		}
		if !replace {
			exists, err := lab.FileExists(path)
			if err != nil {
				return fileSavedMsg{path: path, err: fmt.Errorf("could not save: %w", err)}
			}
			if exists {
				return fileSavedMsg{path: path, exists: true}
			}
		}
		err := lab.WriteFile(path, func(w io.Writer) error { _, err := sv.WriteTo(w); return err })
		return fileSavedMsg{path: path, err: err, mark: mark, sess: sess, fork: fork}
	}
}

// saved ends a save: asks before replacing a file, reports a failure, or
// records the save (and quits, when the save was the quit question's s).
func (m *Model) saved(msg fileSavedMsg) tea.Cmd {
	switch {
	case msg.exists:
		m.ask(&confirmOverlay{
			title:    "save",
			question: fmt.Sprintf("%s exists. Replace it with this session?", msg.path),
			keys: confirmKeys{
				Yes:   bind("y", "replace it", "y"),
				No:    bind("n", "choose another name", "n"),
				Other: bind("esc", "cancel the save", "esc"),
			},
			yes: func() tea.Cmd { return m.saveCmd(msg.path, true) },
			no:  func() tea.Cmd { return m.openPalette(modeSave, msg.path) },
			other: func() tea.Cmd {
				m.quitAfterSave = false
				m.setStatus("not saved: "+msg.path+" is unchanged", false)
				return nil
			},
		})
		return nil
	case msg.err != nil:
		m.quitAfterSave = false
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	m.setStatus("saved "+msg.path, false)
	if msg.sess != m.sess && (msg.fork == nil || msg.fork != m.fork) {
		// another file was opened meanwhile: this save is not its state
		// (the other lane of the same fork is)
		return nil
	}
	m.markSaved(msg.mark)
	m.recoverySaved()
	if m.quitAfterSave {
		return m.quitNow()
	}
	return nil
}
