package lab

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/manifest"
)

// ReasonTimelineCommandFailed is the reason of the Warning event a
// scenario timeline command that failed records: a lab is shown in front
// of a room, and a step that silently did not happen makes the lesson
// lie.
const ReasonTimelineCommandFailed = "TimelineCommandFailed"

// timelineEventObject is the object of that event: the scenario's
// timeline (the message says which entry).
const timelineEventObject = "timeline"

// ErrTimelineFailed is wrapped by `podlab run` when a timeline command
// failed: the run finished and printed everything, and exits 1.
var ErrTimelineFailed = errors.New("timeline command failed")

// Note is a lab message with its time: a timeline command that failed.
type Note struct {
	At api.Time // when the entry was due
	// Do is the entry's command, Pos where the file has it (zero for an
	// entry the lab made, e.g. a saved history) and Err why it failed.
	Do   string
	Pos  manifest.Position
	Err  string
	Text string // one line, the event's message
}

// timelineFailed records a timeline entry's failure as a Warning event
// (the events view, `podlab run`, the status line) and a note (run and
// check print them, and run exits 1).
func (s *Session) timelineFailed(e TimelineEntry, err error) {
	n := Note{At: api.Time(e.At), Do: e.Do, Pos: e.Pos, Err: err.Error()}
	n.Text = n.message()
	s.notes = append(s.notes, n)
	s.eng.RecordEvent(engine.EventWarning, ReasonTimelineCommandFailed, timelineEventObject, n.Text)
}

// message is "at 1s, delete pod ghost failed: unknown pod …
// (lesson.yaml:12:7)".
func (n Note) message() string {
	msg := fmt.Sprintf("at %s, %s failed: %s", n.At, shortCommand(n.Do), oneLineText(n.Err))
	if n.Pos.File != "" || n.Pos.Line != 0 {
		msg += " (" + n.Pos.String() + ")"
	}
	return msg
}

// TimelineFailures returns the timeline commands that failed so far,
// oldest first.
func (s *Session) TimelineFailures() []Note { return append([]Note(nil), s.notes...) }

// TimelineFailureSince returns the message of the last timeline failure
// among events[from:] (ok false: none), for the terminal lab's status
// line after a tick.
func TimelineFailureSince(events []engine.Event, from int) (string, bool) {
	for i := len(events) - 1; i >= max(from, 0); i-- {
		if events[i].Reason == ReasonTimelineCommandFailed {
			return "timeline: " + events[i].Message, true
		}
	}
	return "", false
}

// shortCommand is a command for a one-line message: its first line (an
// inline manifest is long), at most 100 characters.
func shortCommand(cmd string) string {
	const limit = 100
	first, rest, multi := strings.Cut(cmd, "\n")
	if utf8.RuneCountInString(first) > limit {
		first = string([]rune(first)[:limit])
		multi = true
	}
	if multi || rest != "" {
		first += "…"
	}
	return first
}

// oneLineText joins the lines of s with "; ".
func oneLineText(s string) string {
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "; ")
}

// timelineFailureError is what run returns after writing its report when
// a timeline command failed.
func timelineFailureError(notes []Note) error {
	if len(notes) == 0 {
		return nil
	}
	what := "1 timeline command failed: "
	if len(notes) > 1 {
		what = fmt.Sprintf("%d timeline commands failed; the first: ", len(notes))
	}
	return &timelineFailedError{msg: what + notes[0].Text}
}

// timelineFailedError is ErrTimelineFailed with what failed.
type timelineFailedError struct{ msg string }

func (e *timelineFailedError) Error() string        { return e.msg }
func (e *timelineFailedError) Is(target error) bool { return target == ErrTimelineFailed }

// writeTimelineFailuresText is the run report's section for them.
func writeTimelineFailuresText(w io.Writer, notes []Note) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintf(w, "\nTimeline commands that failed:\n")
	for _, n := range notes {
		where := ""
		if n.Pos.File != "" || n.Pos.Line != 0 {
			where = "  (" + n.Pos.String() + ")"
		}
		fmt.Fprintf(w, "  %-8s %s%s\n           %s\n", n.At.String(), shortCommand(n.Do), where, oneLineText(n.Err))
	}
}

// timelineFailuresJSON are the run report's lines for them.
func timelineFailuresJSON(notes []Note) []map[string]any {
	var out []map[string]any
	for _, n := range notes {
		line := map[string]any{"kind": "timelineFailure", "t": n.At.String(), "do": n.Do, "error": n.Err}
		if n.Pos.File != "" || n.Pos.Line != 0 {
			line["at"] = n.Pos.String()
		}
		out = append(out, line)
	}
	return out
}

// forkTimelineFailure is timelineFailureError for the lanes of a fork
// (`podlab compare`), naming the lane.
func forkTimelineFailure(fk *Fork) error {
	for _, lane := range []string{LaneA, LaneB} {
		if err := timelineFailureError(fk.Lane(lane).TimelineFailures()); err != nil {
			return &timelineFailedError{msg: "lane " + lane + ": " + err.Error()}
		}
	}
	return nil
}
