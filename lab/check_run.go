package lab

import (
	"time"

	"podlab.dev/podlab/lab/command"
)

// checkRun is the lab `podlab check` drives: a session, forked into two
// lanes when a lesson's commands say `fork` (as the terminal lab does on
// F), back to one lane on `fork close a|b`.
type checkRun struct {
	s  *Session
	fk *Fork
}

func (r *checkRun) apply(line string) error {
	if cmd, err := command.Parse(line); err == nil {
		if c, ok := cmd.(command.Fork); ok {
			return r.forkCommand(c)
		}
	}
	var err error
	if r.fk != nil {
		_, err = r.fk.Apply(line)
	} else {
		_, err = r.s.Apply(line)
	}
	return err
}

func (r *checkRun) forkCommand(c command.Fork) error {
	if c.Close == "" {
		if r.fk != nil {
			return errAlreadyForked
		}
		fk, err := r.s.Fork()
		if err != nil {
			return err
		}
		r.fk = fk
		return nil
	}
	if r.fk == nil {
		return errNotForked
	}
	s, err := r.fk.Close(c.Close)
	if err != nil {
		return err
	}
	r.s, r.fk = s, nil
	return nil
}

func (r *checkRun) advance(d time.Duration) error {
	if r.fk != nil {
		return r.fk.Advance(d)
	}
	return r.s.Advance(d)
}
