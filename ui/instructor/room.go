package instructor

import "podlab.dev/podlab/lab/workshop"

// Room is what the instructor's view reads and acts on; podlab serve
// (serve.Room) implements it. Every method is safe to call from the
// view's goroutine while participants' sessions run on theirs.
type Room interface {
	// Snapshot is every participant's progress, in no particular order.
	Snapshot() []workshop.Progress
	// Frame is a participant's last screen (the lab's view content, ANSI
	// styled) and the size it was drawn for.
	Frame(name string) (frame string, w, h int, ok bool)
	// PushStep moves every participant's lesson to step (0-based).
	PushStep(step int)
	// Broadcast shows a one-line message on every participant's screen.
	Broadcast(msg string)
	// Reset gives a participant a fresh lab on the lesson.
	Reset(name string) error
	// End ends the workshop: participants are told and disconnected.
	End()
	// Lesson is the lesson's title and its steps' titles.
	Lesson() (title string, steps []string)
	// Events are recent server events (joins, leaves, limits, panics),
	// oldest first.
	Events() []string
	// Connect is the line participants type, e.g. "ssh -p 2222 host".
	Connect() string
}
