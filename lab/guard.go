package lab

import (
	"errors"
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/command"
)

// Guard vets the commands of a session that is not the user's own, such as
// a participant's lab in a workshop served over SSH (lab/workshop's
// limits). Before may refuse a command before it runs (a scale to 100000
// replicas should not first create the pods); After sees the settled
// result and may refuse it too, in which case the session undoes the
// command, so a refused command changes nothing.
type Guard interface {
	Before(s *Session, cmd command.Command) error
	After(s *Session) error
}

// ErrNoFiles is returned by a command that would read a host file in a
// session opened with SessionOptions.NoFiles.
var ErrNoFiles = errors.New("this lab cannot read files (a served workshop session): give the manifest inline instead: apply --inline 'kind: …'")

// guardBefore runs the session's guard, if any, before cmd.
func (s *Session) guardBefore(cmd command.Command) error {
	if s.opts.Guard == nil {
		return nil
	}
	return s.opts.Guard.Before(s, cmd)
}

// guardAfter runs the guard after a command applied at time at; when it
// refuses, the history is replayed to at (as a partly applied command is
// undone), so the refused command leaves no trace.
func (s *Session) guardAfter(at api.Time) error {
	if s.opts.Guard == nil {
		return nil
	}
	err := s.opts.Guard.After(s)
	if err == nil {
		return nil
	}
	if rerr := s.restore("limit", false, len(s.history), at); rerr != nil {
		return fmt.Errorf("%w; restoring the state before it failed too: %v", err, rerr)
	}
	return err
}
