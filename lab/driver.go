package lab

import (
	"fmt"
	"time"

	"podlab.dev/podlab/lab/command"
)

// Driver is what a user drives — the terminal lab, `podlab check`: one
// session, split into the two lanes of a fork by the `fork` command and
// back to one session by `fork close a|b`. Other lines go to the fork
// (which routes @a/@b) or to the session.
type Driver struct {
	// Session is the lab when not forked, and lane a of a new fork.
	Session *Session
	// Fork is the fork while forked (nil otherwise).
	Fork *Fork
}

// Apply runs one command line.
func (d *Driver) Apply(line string) (string, error) {
	if cmd, err := command.Parse(line); err == nil {
		if c, ok := cmd.(command.Fork); ok {
			return d.fork(c)
		}
	}
	if d.Fork != nil {
		return d.Fork.Apply(line)
	}
	return d.Session.Apply(line)
}

func (d *Driver) fork(c command.Fork) (string, error) {
	if c.Close == "" {
		if d.Fork != nil {
			return "", fmt.Errorf("already forked at %s: fork close a|b ends it", d.Fork.At().Clock())
		}
		f, err := d.Session.Fork()
		if err != nil {
			return "", err
		}
		d.Fork = f
		return fmt.Sprintf("forked at %s: @a CMD or @b CMD changes one lane, CMD both", f.At().Clock()), nil
	}
	if d.Fork == nil {
		return "", fmt.Errorf("not forked")
	}
	s, err := d.Fork.Close(c.Close)
	if err != nil {
		return "", err
	}
	d.Session, d.Fork = s, nil
	return "fork closed, kept lane " + c.Close, nil
}

// Advance moves the lab's time (both lanes when forked).
func (d *Driver) Advance(dur time.Duration) error {
	if d.Fork != nil {
		return d.Fork.Advance(dur)
	}
	return d.Session.Advance(dur)
}
