package ui

import (
	"time"

	"podlab.dev/podlab/lab"
)

// A forked lab (lab.Fork) has two lanes on one clock. The views draw the
// lane being looked at (m.sess is that lane's session); commands go
// through the fork, which routes @a/@b lines to one lane and others to
// both; the compare and metrics views show both.

// driver is the lab's Driver over the model's session and fork.
func (m *Model) driver() *lab.Driver {
	s := m.sess
	if m.fork != nil {
		s = m.fork.Lane(lab.LaneA)
	}
	return &lab.Driver{Session: s, Fork: m.fork}
}

// advance moves the lab's time (both lanes when forked).
func (m *Model) advance(d time.Duration) error { return m.driver().Advance(d) }

// run applies a command line through the lab's Driver: fork commands act
// on the lab itself, the rest go to the fork or the session. A fork made
// or closed here changes what the model shows.
func (m *Model) run(line string) (string, error) {
	d := m.driver()
	out, err := d.Apply(line)
	switch {
	case d.Fork != nil && m.fork == nil:
		m.fork, m.lane = d.Fork, lab.LaneA
		m.watchProgress(d.Fork.Lane(lab.LaneB))
		out += " · B shows the other lane · 6 compare"
	case d.Fork == nil && m.fork != nil:
		m.fork, m.lane, m.sess = nil, "", d.Session
	}
	return out, err
}

// toggleFork is the F key: fork, or close keeping the lane on screen.
func (m *Model) toggleFork() {
	line := "fork"
	if m.fork != nil {
		line = "fork close " + m.lane
	}
	m.apply(line)
}

// switchLane is the B key: look at the other lane.
func (m *Model) switchLane() {
	if m.fork == nil {
		return
	}
	if m.lane == lab.LaneA {
		m.lane = lab.LaneB
	} else {
		m.lane = lab.LaneA
	}
	m.sess = m.fork.Lane(m.lane)
	m.setStatus("showing lane "+m.lane, false)
	m.refresh()
}

// laneTag is the header's fork mark: "⑂ lane b" (empty when not forked).
func (m *Model) laneTag() string {
	if m.fork == nil {
		return ""
	}
	return "⑂ lane " + m.lane
}

// laneSessions are the sessions the compare and metrics views draw:
// both lanes when forked, else the one session.
func (m *Model) laneSessions() []*lab.Session {
	if m.fork == nil {
		return []*lab.Session{m.sess}
	}
	return []*lab.Session{m.fork.Lane(lab.LaneA), m.fork.Lane(lab.LaneB)}
}

// adoptFork makes a reloaded forked session the lab's (after adopt of
// its lane a).
func (m *Model) adoptFork(f *lab.Fork) {
	if f == nil {
		return
	}
	for _, s := range []*lab.Session{f.Lane(lab.LaneA), f.Lane(lab.LaneB)} {
		if s.Metrics() == nil {
			s.EnableMetrics(0)
		}
	}
	m.fork, m.lane, m.sess = f, lab.LaneA, f.Lane(lab.LaneA)
	m.watchProgress(f.Lane(lab.LaneB))
	m.markSaved(f.Mark()) // as opened: nothing unsaved
}

// resume advances a loaded session (or both lanes of a loaded fork) to
// where it was saved.
func resume(sess *lab.Session, f *lab.Fork) error {
	sc := sess.File().Scenario
	if sc == nil || sc.Clock.ResumeAt <= 0 {
		return nil
	}
	if f != nil {
		return f.Advance(sc.Clock.ResumeAt)
	}
	return sess.Advance(sc.Clock.ResumeAt)
}

// canUndo and canRedo ask the fork when forked (its history starts at
// the fork), else the session.
func (m *Model) canUndo() bool {
	if m.fork != nil {
		return m.fork.CanUndo()
	}
	return m.sess.CanUndo()
}

func (m *Model) canRedo() bool {
	if m.fork != nil {
		return m.fork.CanRedo()
	}
	return m.sess.CanRedo()
}
