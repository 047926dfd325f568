package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// Run opens the lab on a session and blocks until the user quits. A saved
// forked session (a scenario with fork:) opens as its two lanes.
func Run(sess *lab.Session, opts Options) error {
	var fork *lab.Fork
	if sc := sess.File().Scenario; sc != nil && sc.Fork != nil {
		seed := sess.Seed()
		var err error
		if sess, fork, err = lab.OpenSession(sess.File(), lab.SessionOptions{Seed: &seed}); err != nil {
			return err
		}
	}
	if err := resume(sess, fork); err != nil {
		return err
	}
	m := New(sess, opts)
	m.adoptFork(fork)
	m.refresh()
	p := tea.NewProgram(m)
	m.send = p.Send
	m.watchProgress(sess)
	_, err := p.Run()
	if m.recov != nil {
		// a clean quit removes the recovery file; anything else keeps it
		if rerr := m.recov.finish(m.quitClean && err == nil); rerr != nil && err == nil {
			return rerr
		}
	}
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	return nil
}
