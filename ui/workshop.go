package ui

import "time"

// What podlab serve (serve/) needs from the lab model for a participant's
// session; the server wraps the model and calls these on the program's
// own goroutine (from its Update), never concurrently.

// noFilesStatus is the status line when a served session presses open,
// save or the preset picker.
const noFilesStatus = "this workshop lab cannot open or save files or switch lessons — your progress is kept by the server"

// SetStep moves the lesson to step i (0-based) and shows it, as the
// instructor's "push the room to step N" does.
func (m *Model) SetStep(i int) {
	m.sess.SetStep(i)
	m.lessonOpen = true
	m.refresh()
}

// tickEvery is Options.TickEvery, else the default.
func (m *Model) tickEvery() time.Duration {
	if m.opts.TickEvery > 0 {
		return m.opts.TickEvery
	}
	return tickEvery
}

// SetTickEvery changes the clock tick from the next tick on (podlab serve
// ticks idle participants less often); the virtual time per tick follows,
// so the clock keeps its speed.
func (m *Model) SetTickEvery(d time.Duration) { m.opts.TickEvery = d }
