package ui

import "podlab.dev/podlab/lab"

// eventsMark is the length of the event log before the clock moved: a
// timeline command that failed on the way is flashed in the status line
// (it is in the events view too), so a lesson step that did not happen
// does not go unnoticed.
func (m *Model) eventsMark() int { return len(m.sess.Engine().Events()) }

// flashTimelineFailure shows the last timeline failure recorded since
// mark as an error in the status line, reporting whether there was one.
func (m *Model) flashTimelineFailure(mark int) bool {
	events := m.sess.Engine().Events()
	if mark > len(events) {
		return false // another line of history (undo, open): not ours
	}
	msg, ok := lab.TimelineFailureSince(events, mark)
	if ok {
		m.setStatus(msg, true)
	}
	return ok
}
