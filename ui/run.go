package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// Run opens the lab on a session and blocks until the user quits.
func Run(sess *lab.Session, opts Options) error {
	if sc := sess.File().Scenario; sc != nil && sc.Clock.ResumeAt > 0 {
		if err := sess.Advance(sc.Clock.ResumeAt); err != nil {
			return err
		}
	}
	m := New(sess, opts)
	p := tea.NewProgram(m)
	m.send = p.Send
	m.watchProgress(sess)
	if _, err := p.Run(); err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	return nil
}
