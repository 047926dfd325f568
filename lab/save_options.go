package lab

// SaveOptions are what the user interface adds to a save: how the lab
// looked when it was saved, so the file reopens that way. The header
// already holds each of them (clock.speed, clock.paused, lesson.step); a
// file saved without them (headless, or by an older podlab) opens as its
// header says, as before.
type SaveOptions struct {
	// Clock, when set, replaces the header's clock.speed and
	// clock.paused: a session saved paused reopens paused.
	Clock *ClockSpec
	// Step, when set, is the lesson step shown (0-based; written 1-based
	// as lesson.step).
	Step *int
}

// apply writes the options into the header to save.
func (o SaveOptions) apply(sc *Scenario) {
	if o.Clock != nil {
		sc.Clock.Speed, sc.Clock.Paused = o.Clock.Speed, o.Clock.Paused
		if sc.Clock.Speed == 1 {
			sc.Clock.Speed = 0 // the default: not written
		}
	}
	if o.Step != nil && sc.Lesson != nil {
		l := *sc.Lesson
		l.Step = max(0, min(*o.Step, len(l.Steps)-1))
		sc.Lesson = &l
	}
}
