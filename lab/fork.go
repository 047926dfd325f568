package lab

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/autoscaler"
	"podlab.dev/podlab/engine/descheduler"
	"podlab.dev/podlab/lab/command"
)

// Lane names of a fork. A command line prefixed "@a " or "@b " goes to
// that lane only; a line without a prefix goes to both.
const (
	LaneA = "a"
	LaneB = "b"
)

// Fork is a session split into two lanes at one instant. Lane B starts as
// an exact copy of lane A (the engine is deterministic: B is the scenario
// with A's history replayed to the fork instant, the same path undo
// takes), and from then on each lane takes its own changes while commands
// without a lane prefix — drains, scale-ups, failures — reach both at the
// same virtual instant with the same seed. Both lanes always show the
// same virtual time.
//
// Like Session, a Fork is not safe for concurrent use.
type Fork struct {
	lanes [2]*Session
	at    api.Time
	// shared is how many entries of lane a's history are from before the
	// fork (both lanes ran them).
	shared int
	// history is what was applied since the fork, lane by lane; redo holds
	// what undo took back.
	history, redo []ForkEntry
}

// ForkEntry is a command applied to a fork: to one lane or ("") to both.
type ForkEntry struct {
	At   api.Time
	Lane string
	Line string
}

// String is the entry as it is typed: "@b set …" or "drain node-1".
func (e ForkEntry) String() string {
	if e.Lane == "" {
		return e.Line
	}
	return "@" + e.Lane + " " + e.Line
}

// Fork splits the session at the current instant. The session becomes
// lane A; lane B is rebuilt from the scenario and the history.
func (s *Session) Fork() (*Fork, error) {
	b, err := s.clone()
	if err != nil {
		return nil, fmt.Errorf("fork: copying the session for lane b: %w", err)
	}
	f := &Fork{lanes: [2]*Session{s, b}, at: s.Now(), shared: len(s.history)}
	s.fork, b.fork = f, f
	return f, nil
}

// clone is an independent session in the same state: the cluster cloned
// as a checkpoint is (engine and controllers; identical by construction,
// and TestForkStartsIdentical checks it against replay), with the
// history, the scheduler policy, the lesson step and the metrics copied.
// The copy starts with no checkpoints of its own: its first undo past the
// fork replays from t=0.
func (s *Session) clone() (*Session, error) {
	if s.rewind != nil {
		return nil, fmt.Errorf("the session is rewound: resume or branch first")
	}
	seed := s.seed0()
	b := &Session{
		file: s.file, opts: s.opts, seed: s.seed,
		policy: s.policy, schedBase: s.schedBase, services: maps.Clone(s.services), autoscaler: s.autoscaler,
		nextTimeline: s.nextTimeline,
		history:      slices.Clone(s.history), chain: slices.Clone(s.chain),
		notes: slices.Clip(s.notes), descheduled: slices.Clip(s.descheduled),
		step: s.step, replayed: -1,
	}
	b.opts.Seed = &seed
	// b's scheduler must look owners up in b (its factory closes over the
	// session that builds it), not in a: the lanes' workloads diverge.
	cfg := b.schedBase
	applySchedulerConfiguration(&cfg, b.policy)
	eng := s.eng.CloneWith(b.schedulerFactory(cfg))
	ctl, err := s.ctl.Clone(eng)
	if err != nil {
		return nil, err
	}
	b.use(eng, ctl)
	b.rebindControllers()
	if s.metrics != nil {
		b.metrics = s.metrics.clone()
	}
	return b, nil
}

// OpenSession opens a scenario file as the lab does: a saved forked
// session comes back as its two lanes (fork is nil otherwise). Neither is
// advanced to clock.resumeAt: the caller does, as for a session.
func OpenSession(f *File, opts SessionOptions) (s *Session, fork *Fork, err error) {
	if f.Scenario == nil || f.Scenario.Fork == nil {
		s, err = NewSession(f, opts)
		return s, nil, err
	}
	var lanes [2]*Session
	for i := range lanes {
		o := opts
		o.Lane = laneName(i)
		if lanes[i], err = NewSession(f, o); err != nil {
			return nil, nil, fmt.Errorf("lane %s: %w", laneName(i), err)
		}
	}
	fk := &Fork{lanes: lanes, at: api.Time(f.Scenario.Fork.At)}
	lanes[0].fork, lanes[1].fork = fk, fk
	return lanes[0], fk, nil
}

// Save writes the forked session as one scenario file: the timeline has
// what both lanes ran and, marked with their lane, what each ran alone;
// the header's fork.at is where they split. OpenSession reloads it as two
// lanes.
func (f *Fork) Save(w io.Writer) error {
	sv, err := f.Saver(SaveOptions{})
	if err != nil {
		return err
	}
	_, err = sv.WriteTo(w)
	return err
}

// Saver renders what Save writes, for writing later (see Saved).
func (f *Fork) Saver(opts SaveOptions) (*Saved, error) {
	a := f.lanes[0]
	sc := a.scenarioToSave()
	var tl []TimelineEntry
	if a.file.Scenario != nil {
		tl = append(tl, a.file.Scenario.Timeline...)
	}
	for _, e := range a.history[:f.shared] {
		tl = append(tl, TimelineEntry{At: time.Duration(e.At), Do: e.Line})
	}
	for _, e := range f.history {
		tl = append(tl, TimelineEntry{At: time.Duration(e.At), Do: e.Line, Lane: e.Lane})
	}
	sc.Fork = &ForkSpec{At: time.Duration(f.at)}
	opts.apply(&sc)
	return a.prepare(sc, tl)
}

// At is the instant the fork was made.
func (f *Fork) At() api.Time { return f.at }

// Now is the lanes' virtual time.
func (f *Fork) Now() api.Time { return f.lanes[0].Now() }

// Lane returns lane "a" or "b" (nil for another name).
func (f *Fork) Lane(name string) *Session {
	switch name {
	case LaneA:
		return f.lanes[0]
	case LaneB:
		return f.lanes[1]
	}
	return nil
}

// CanUndo reports whether a command since the fork can be undone.
func (f *Fork) CanUndo() bool { return len(f.history) > 0 }

// CanRedo reports whether an undone command can be redone.
func (f *Fork) CanRedo() bool { return len(f.redo) > 0 }

// History is what was applied since the fork, oldest first.
func (f *Fork) History() []ForkEntry { return append([]ForkEntry(nil), f.history...) }

// Changes lists the lane-only commands of one lane since the fork, as
// typed without the prefix: what makes the lane differ.
func (f *Fork) Changes(lane string) []string {
	var out []string
	for _, e := range f.history {
		if e.Lane == lane {
			out = append(out, e.Line)
		}
	}
	return out
}

// SplitLane separates a lane prefix from a command line: "@b scale …"
// is ("b", "scale …"); a line without a prefix is ("", line).
func SplitLane(line string) (lane, rest string, err error) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "@") {
		return "", t, nil
	}
	word, rest, _ := strings.Cut(t, " ")
	lane = strings.ToLower(strings.TrimPrefix(word, "@"))
	if lane != LaneA && lane != LaneB {
		return "", "", fmt.Errorf("unknown lane %q: a command starts with @a or @b to go to one lane, or with neither to go to both", word)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return "", "", fmt.Errorf("%s: missing command after the lane", word)
	}
	return lane, rest, nil
}

// Apply runs a command line on the lane it names or on both. A command
// for both lanes applies to both or to neither: when lane B refuses what
// lane A took, A's change is undone. undo and redo act on the fork's own
// history; time (advance) is shared, so it cannot be lane-only.
func (f *Fork) Apply(line string) (string, error) {
	lane, rest, err := SplitLane(line)
	if err != nil {
		return "", err
	}
	cmd, err := command.Parse(rest)
	if err != nil {
		return "", err
	}
	switch cmd.(type) {
	case command.Undo:
		if lane != "" {
			return "", fmt.Errorf("undo takes back the fork's last command whatever its lane: type it without @%s", lane)
		}
		return f.Undo()
	case command.Redo:
		if lane != "" {
			return "", fmt.Errorf("redo re-applies the fork's last undone command whatever its lane: type it without @%s", lane)
		}
		return f.Redo()
	case command.Advance:
		if lane != "" {
			return "", fmt.Errorf("both lanes share one clock: type advance without @%s", lane)
		}
	}
	at := f.Now()
	if lane != "" {
		msg, err := f.Lane(lane).Apply(rest)
		if err != nil {
			return "", fmt.Errorf("lane %s: %w", lane, err)
		}
		f.record(ForkEntry{At: at, Lane: lane, Line: f.lastLine(lane, rest)})
		return "@" + lane + " " + msg, f.sync(f.Lane(lane).Now())
	}
	msgA, err := f.lanes[0].Apply(rest)
	if err != nil {
		return "", fmt.Errorf("lane a: %w", err)
	}
	msgB, err := f.lanes[1].Apply(rest)
	if err != nil {
		if _, uerr := f.lanes[0].Undo(); uerr != nil {
			return "", fmt.Errorf("lane b: %w; undoing it in lane a too: %v", err, uerr)
		}
		f.lanes[0].redo = f.lanes[0].redo[:len(f.lanes[0].redo)-1]
		return "", fmt.Errorf("lane b: %w (lane a left as it was; prefix the command with @a to apply it there only)", err)
	}
	f.record(ForkEntry{At: at, Line: f.lastLine(LaneA, rest)})
	if msgA == msgB {
		return msgA, f.sync(f.lanes[0].Now())
	}
	return "a: " + msgA + " · b: " + msgB, f.sync(f.lanes[0].Now())
}

// lastLine is the canonical form the lane recorded (Session keeps
// command.Command.String(), with `apply -f` inlined).
func (f *Fork) lastLine(lane, typed string) string {
	h := f.Lane(lane).history
	if len(h) == 0 {
		return typed
	}
	return h[len(h)-1].Line
}

func (f *Fork) record(e ForkEntry) {
	f.history = append(f.history, e)
	f.redo = nil
}

// Advance moves both lanes forward by d.
func (f *Fork) Advance(d time.Duration) error {
	for i, s := range f.lanes {
		if err := s.Advance(d); err != nil {
			return fmt.Errorf("lane %s: %w", laneName(i), err)
		}
	}
	return nil
}

// Undo takes back the fork's last command in the lane(s) it went to; both
// lanes return to the instant it was applied.
func (f *Fork) Undo() (string, error) {
	if len(f.history) == 0 {
		return "", fmt.Errorf("nothing to undo since the fork (close it with fork close a|b to go back further)")
	}
	e := f.history[len(f.history)-1]
	for i, s := range f.lanes {
		if e.Lane != "" && e.Lane != laneName(i) {
			continue
		}
		if _, err := s.Undo(); err != nil {
			return "", fmt.Errorf("lane %s: %w", laneName(i), err)
		}
	}
	f.history = f.history[:len(f.history)-1]
	f.redo = append(f.redo, e)
	return "undid: " + e.String(), f.sync(e.At)
}

// Redo re-applies the fork's last undone command.
func (f *Fork) Redo() (string, error) {
	if len(f.redo) == 0 {
		return "", fmt.Errorf("nothing to redo")
	}
	e := f.redo[len(f.redo)-1]
	for i, s := range f.lanes {
		if e.Lane != "" && e.Lane != laneName(i) {
			continue
		}
		if _, err := s.Redo(); err != nil {
			return "", fmt.Errorf("lane %s: %w", laneName(i), err)
		}
	}
	f.redo = f.redo[:len(f.redo)-1]
	f.history = append(f.history, e)
	t := f.lanes[0].Now()
	if e.Lane == LaneB {
		t = f.lanes[1].Now()
	}
	return "redid: " + e.String(), f.sync(t)
}

// sync brings both lanes to virtual time t: forward by running the clock,
// backward by replaying the lane's history (as undo does).
func (f *Fork) sync(t api.Time) error {
	for i, s := range f.lanes {
		var err error
		switch {
		case s.Now() < t:
			err = s.advanceTo(t)
		case s.Now() > t:
			err = s.restore("fork", true, len(s.history), t)
		}
		if err != nil {
			return fmt.Errorf("lane %s: %w", laneName(i), err)
		}
	}
	return nil
}

// Close ends the fork keeping one lane, which becomes the session (its
// history is the whole story, lane changes included).
func (f *Fork) Close(keep string) (*Session, error) {
	s := f.Lane(keep)
	if s == nil {
		return nil, fmt.Errorf("fork close: keep lane a or b, not %q", keep)
	}
	s.redo = nil
	s.fork = nil
	return s, nil
}

func laneName(i int) string {
	if i == 0 {
		return LaneA
	}
	return LaneB
}

// rebindControllers points the engine's controllers that report to the
// session at s: a cloned engine's controllers still report to the session
// that was cloned (the descheduler's passes, the autoscaler's owner
// selectors for its simulated scheduling).
func (s *Session) rebindControllers() {
	for _, c := range s.eng.Controllers() {
		switch c := c.(type) {
		case *descheduler.Controller:
			c.OnPass = func(r *descheduler.Result) { s.descheduled = append(s.descheduled, r) }
		case *autoscaler.Autoscaler:
			c.SetSpreadSelectors(s.ownerSelector)
		}
	}
}
