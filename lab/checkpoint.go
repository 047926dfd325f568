package lab

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers/attach"
	"podlab.dev/podlab/engine/descheduler"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// Undo, redo and rewind restore an earlier state of the session. The
// ground truth is replay: the scenario reloaded and the history re-applied
// at the same virtual times gives the same state, because the engine is
// deterministic. Replaying from t=0 costs seconds on a large cluster, so
// the session keeps checkpoints — frozen clones of the cluster
// (engine.Engine.Clone with its controllers) — and replays only from the
// nearest one before the target.
//
// Checkpoints are placed by cost, not by count: before a command, and
// between the steps of a running clock (advanceTo: a virtual second
// after a busy step, up to checkpointEvery while quiet), the live state
// is cloned when the work done on it since the last checkpoint (commands
// with their settling, and clock; wall time) is at least what a clone
// costs (the least of the recent ones). So checkpointing at most doubles
// the work, and a restore replays about one clone's worth of work — at
// 30,000 pods a clone costs 6–14 ms, a few commands' worth. A clone is
// cheap: it shares the pods' states, timelines and indexes with its
// original copy-on-write (engine cow.go, engine/internal/cowmap) and the
// controllers' indexes and caches (controllers queue_clone.go). A
// restore hands one of the newest checkpoints (undo, redo, stepping
// back) over to the live session instead of cloning it again; an older
// one, and the state at t=0 (so nothing ever needs a reload), stay and
// are cloned. Its replay checkpoints only when it is long
// (replayCheckpointFactor), so that a rewind does not wait for clones.
// The store keeps at most
// maxCheckpoints: the newest few and the others thinned to be spread
// evenly over the replay cost (thinningVictim). During a replay, a
// checkpoint that thinning would drop at once is not taken.

const (
	// checkpointEvery is the virtual time between chances to checkpoint
	// while the clock runs.
	checkpointEvery = 5 * time.Minute
	// maxCheckpoints bounds the store. A checkpoint (a clone sharing the
	// API objects, the event log and, copy-on-write, the pods' states,
	// timelines and indexes with its original) holds about 2.5–3.5 MB at
	// 1,000 nodes / 30,000 pods (0.02–0.03 of the session's heap: the
	// buckets and pod objects the live session changed since, and per
	// clone ≈ 1.1 MB of copies — the NodeInfos 0.46, the event queue,
	// the controllers'; PodTopologySpread's counted pods are shared
	// copy-on-write, counted.go); the state at t=0, whose pod objects all
	// differ from the present's, 0.3. BenchmarkUndo reports the ratio:
	// forty-eight stay within about 1.3× the engine's own memory (the
	// goal is ≤ 2×).
	maxCheckpoints = 48
	// hotCheckpoints is how many of the newest checkpoints a restore
	// hands over; the others are marked frozen (packCold) and cloned.
	hotCheckpoints = 3
	// keepRecent is how many of the newest checkpoints thinning keeps.
	keepRecent = 4
	// recentClones is how many clones' costs checkpointCost looks at.
	recentClones = 8
	// replayCheckpointFactor multiplies the work that earns a
	// checkpoint while a restore replays (maybeCheckpoint).
	replayCheckpointFactor = 8
)

// checkpoint is a frozen copy of the cluster at an instant: what replay
// would give after applying the first applied commands of the history
// (whose fingerprint is chain) and running until at. Nothing mutates eng
// or ctl while it is stored.
type checkpoint struct {
	at      api.Time
	applied int
	chain   uint64
	eng     *engine.Engine
	ctl     *attach.Controllers
	// session state that commands and the timeline change
	seed         int64
	nextTimeline int
	notes        []Note
	// the scheduler policy and Services in force (set scheduler and
	// apply change them; the engine's scheduler is cloned with it), and
	// the descheduler passes so far
	policy      *manifest.SchedulerConfiguration
	services    map[string]*api.Service
	descheduled []*descheduler.Result
	// replayCost is the work replaying the scenario to this state costs
	// (the session's replayCost then): thinning spreads the checkpoints
	// evenly on this axis, so a restore's replay stays short even where
	// one instant costs seconds (thousands of pods starting)
	replayCost time.Duration
	// root marks the state at t=0: restored by cloning, never handed over
	// or thinned away.
	root bool
}

// Progress reports a long operation (undo, redo, rewind) as it goes.
type Progress struct {
	// What names the operation ("undo", "rewind to 5m0s").
	What string
	// Done of Total steps are complete (commands replayed).
	Done, Total int
}

// SetProgress sets a function called during long operations, on the
// goroutine that runs them (see the concurrency contract on Session).
func (s *Session) SetProgress(f func(Progress)) { s.progress = f }

func (s *Session) report(p Progress) {
	if s.progress != nil {
		s.progress(p)
	}
}

// maybeCheckpoint freezes the live state if the work since the last
// checkpoint has reached the cost of a clone.
func (s *Session) maybeCheckpoint() error {
	cost := s.checkpointCost()
	if s.replayed >= 0 {
		// a restore replaying: its latency is what the user waits for,
		// and the store it replays between already covers the stretch
		// (restore keeps cold checkpoints), so only a long replay (from
		// far back, or a store thinned out) leaves checkpoints behind
		cost *= replayCheckpointFactor
	}
	if s.opts.NoCheckpoints || s.work < cost {
		return nil
	}
	if !s.wouldKeep(s.replayCost) {
		// a replay far back, in a stretch the store already covers as
		// densely as it can: the clone would be thinned away at once
		return nil
	}
	return s.takeCheckpoint(false)
}

// wouldKeep reports whether a checkpoint of the given replay cost would
// survive thinCheckpoints: the store has room, or another would be
// dropped first.
func (s *Session) wouldKeep(cost time.Duration) bool {
	if len(s.checkpoints) < maxCheckpoints {
		return true
	}
	p := float64(cost)
	pos := make([]float64, 0, len(s.checkpoints)+1)
	for _, c := range s.checkpoints {
		pos = append(pos, float64(c.replayCost))
	}
	pos = append(pos, p)
	slices.Sort(pos)
	drop := thinningVictim(pos)
	return drop < 0 || pos[drop] != p
}

// thinningVictim returns the index (in pos, sorted) of the checkpoint
// thinCheckpoints drops; -1 when there are too few to drop one. The
// first (the root) and the keepRecent newest stay: undo, redo and
// stepping back land on those. Among the others it is the one whose
// removal widens the gaps the least. The axis is replay cost (the work
// replaying from t=0 to a checkpoint costs, checkpoint.replayCost), so a
// gap is what a restore inside it may replay: the sum of the gaps'
// squares grows by 2·l·r when a checkpoint between gaps l and r goes, and
// the checkpoints left are spread evenly over what replay costs — densely
// where the history was expensive, not over commands or virtual time
// (on a positions axis the checkpoint just after the first seconds of a
// 30,000-pod scenario, which replaying costs seconds, was thinned away
// as "close to t=0").
func thinningVictim(pos []float64) int {
	drop, best := -1, 0.0
	for j := 1; j < len(pos)-1-keepRecent; j++ {
		left, right := pos[j]-pos[j-1], pos[j+1]-pos[j]
		if cost := left * right; drop < 0 || cost < best {
			drop, best = j, cost
		}
	}
	if drop < 0 && len(pos) > 2 {
		drop = 1 // too few to keep keepRecent: the oldest after the root
	}
	return drop
}

// checkpointCost is the work that earns a checkpoint: what a clone costs
// (the least of the recent ones: a clone that met a garbage collection
// or a busy machine costs several times the others, and an average would
// space the next checkpoints out as much), or the test override.
func (s *Session) checkpointCost() time.Duration {
	if s.costOverride != nil {
		return *s.costOverride
	}
	return s.cloneCost
}

// timed runs f, adding its wall time to the work since the last
// checkpoint.
func (s *Session) timed(f func() error) error {
	start := time.Now()
	err := f()
	d := time.Since(start)
	s.work += d
	s.replayCost += d
	return err
}

// takeCheckpoint clones the live state into the store, unless a
// checkpoint of exactly this state is there.
func (s *Session) takeCheckpoint(root bool) error {
	if s.opts.NoCheckpoints {
		return nil
	}
	now, applied := s.eng.Now(), len(s.appliedHistory())
	for _, c := range s.checkpoints {
		if c.at == now && c.applied == applied && c.chain == s.chain[applied] {
			s.work = 0
			return nil
		}
	}
	start := time.Now()
	eng := s.eng.Clone()
	ctl, err := s.ctl.Clone(eng)
	if err != nil {
		return err
	}
	cost := time.Since(start)
	s.cloneCosts = append(s.cloneCosts, cost)
	if len(s.cloneCosts) > recentClones {
		s.cloneCosts = s.cloneCosts[1:]
	}
	s.cloneCost = slices.Min(s.cloneCosts)
	c := s.freeze(eng, ctl, applied)
	c.root = root
	s.checkpoints = append(s.checkpoints, c)
	s.work = 0
	s.thinCheckpoints()
	return nil
}

// valid reports whether c is a state on the way to (history[:n], at t):
// its commands are the first of the history, the next command is not due
// before it, and it is not after t.
func (s *Session) valid(c *checkpoint, n int, t api.Time) bool {
	k := c.applied
	if k > n || c.at > t || c.chain != s.chain[k] {
		return false
	}
	return k == n || s.history[k].At >= c.at
}

// nearestCheckpoint returns the latest checkpoint on the way to
// (history[:n], at t), or nil.
func (s *Session) nearestCheckpoint(n int, t api.Time) *checkpoint {
	var best *checkpoint
	for _, c := range s.checkpoints {
		if !s.valid(c, n, t) {
			continue
		}
		if best == nil || c.applied > best.applied || (c.applied == best.applied && c.at > best.at) {
			best = c
		}
	}
	return best
}

// restore makes the session's cluster what replaying history[:n] and
// running until t gives, starting from the nearest checkpoint (the
// scenario reloaded when there is none). The checkpoint is handed over:
// the live session continues from it, and it leaves the store. With
// keep, the state being replaced is stored as a checkpoint (free: it is
// not copied) — after an undo, redo returns to it, and the other way
// round; without, it is dropped (a command that failed half-way).
func (s *Session) restore(what string, keep bool, n int, t api.Time) error {
	if keep {
		s.keepLive()
	}
	history := s.history
	start := 0
	// checkpoints taken on the way record what is replayed so far
	defer func() { s.replayed = -1 }()
	if m := s.metrics; m != nil {
		// The store already holds every instant replayed here (the
		// session lived them): it is cut back to t and sampled once, at
		// the end, so that it does not depend on which checkpoint the
		// replay started from (metrics_tracker.go).
		s.metrics = nil
		defer func() { s.metrics = m; s.sample() }()
	}
	if c := s.nearestCheckpoint(n, t); c != nil {
		eng, ctl := c.eng, c.ctl
		if c.root || c.eng.Frozen() {
			// kept: the root always, and a cold checkpoint (not one of
			// the newest, which undo, redo and stepping back hand over) —
			// a clone costs less than the checkpoints a replay would
			// have to take again to cover what handing it over uncovers
			c.eng.Thaw()
			eng = c.eng.Clone()
			c.eng.Freeze()
			var err error
			if ctl, err = c.ctl.Clone(eng); err != nil {
				return err
			}
		} else {
			s.checkpoints = slices.DeleteFunc(s.checkpoints, func(x *checkpoint) bool { return x == c })
		}
		s.use(eng, ctl)
		s.seed, s.nextTimeline, s.notes = c.seed, c.nextTimeline, c.notes
		s.policy, s.services, s.descheduled = c.policy, maps.Clone(c.services), c.descheduled
		start = c.applied
		s.work, s.replayCost = 0, c.replayCost
	} else {
		s.replayCost = 0
		if err := s.timed(s.reset); err != nil {
			return err
		}
	}
	s.replayed = start
	total := n - start
	s.report(Progress{What: what, Done: 0, Total: total})
	for i, e := range history[start:n] {
		if err := s.maybeCheckpoint(); err != nil {
			return err
		}
		if err := s.replayEntry(e); err != nil {
			return err
		}
		s.replayed++
		s.report(Progress{What: what, Done: i + 1, Total: total})
	}
	return s.advanceTo(t)
}

// keepLive stores the live state as a checkpoint, as it is: the caller
// is about to replace it. The parked present of a rewind stays parked.
func (s *Session) keepLive() {
	if s.opts.NoCheckpoints || (s.rewind != nil && s.eng == s.rewind.present.eng) {
		return
	}
	now, applied := s.eng.Now(), len(s.appliedHistory())
	for _, c := range s.checkpoints {
		if c.at == now && c.applied == applied && c.chain == s.chain[applied] {
			return
		}
	}
	s.checkpoints = append(s.checkpoints, s.freeze(s.eng, s.ctl, applied))
	s.thinCheckpoints()
}

// freeze is a checkpoint of the session's state with the cluster eng/ctl
// after the first applied commands: every field a command or the
// timeline changes besides the cluster is in it (restore puts them back).
func (s *Session) freeze(eng *engine.Engine, ctl *attach.Controllers, applied int) *checkpoint {
	return &checkpoint{
		at: eng.Now(), applied: applied, chain: s.chain[applied], eng: eng, ctl: ctl,
		replayCost: s.replayCost,
		seed:       s.seed, nextTimeline: s.nextTimeline, notes: slices.Clip(s.notes),
		policy: s.policy, services: maps.Clone(s.services), descheduled: slices.Clip(s.descheduled),
	}
}

// replayEntry re-applies one recorded command at its time.
func (s *Session) replayEntry(e Entry) error {
	if err := s.advanceTo(e.At); err != nil {
		return err
	}
	cmd, err := command.Parse(e.Line)
	if err != nil {
		return fmt.Errorf("replay %q: %w", e.Line, err)
	}
	if adv, ok := cmd.(command.Advance); ok {
		// the clock ran from the entry's instant; a rewound session may
		// already be part of the way (rewind.go)
		return s.advanceTo(max(s.eng.Now(), e.At.Add(adv.D)))
	}
	return s.timed(func() error {
		if _, err := s.exec(cmd); err != nil {
			return fmt.Errorf("replay %q at %s: %w", e.Line, e.At, err)
		}
		if err := s.eng.RunUntil(s.eng.Now()); err != nil {
			return err
		}
		s.sample() // the instant as the command left it, as Apply records it
		return nil
	})
}

// thinCheckpoints drops checkpoints that can no longer be reached (their
// commands are not a prefix of the history or the redo stack), then, over
// maxCheckpoints, the one thinningVictim picks: the keepRecent newest
// stay and the others are spread evenly over the replay cost. The root (t=0)
// is never dropped.
func (s *Session) thinCheckpoints() {
	reachable := s.reachable()
	kept := s.checkpoints[:0]
	for _, c := range s.checkpoints {
		if c.root || reachable(c) {
			kept = append(kept, c)
		}
	}
	clear(s.checkpoints[len(kept):])
	s.checkpoints = kept
	for len(s.checkpoints) > maxCheckpoints {
		slices.SortStableFunc(s.checkpoints, func(a, b *checkpoint) int {
			return cmp.Compare(a.replayCost, b.replayCost)
		})
		pos := make([]float64, len(s.checkpoints))
		for i, c := range s.checkpoints {
			pos[i] = float64(c.replayCost)
		}
		drop := thinningVictim(pos)
		s.checkpoints = slices.Delete(s.checkpoints, drop, drop+1)
	}
	s.packCold()
}

// packCold freezes (engine freeze.go) every checkpoint but the
// hotCheckpoints newest, which undo, redo and stepping back hand over as
// they are; a restore clones a frozen one and leaves it in the store.
func (s *Session) packCold() {
	// the newest by position (of equals, the earlier in the store)
	hot := slices.Clone(s.checkpoints)
	slices.SortStableFunc(hot, func(a, b *checkpoint) int {
		return cmpFloat(s.position(b), s.position(a))
	})
	hot = hot[:min(hotCheckpoints, len(hot))]
	for _, c := range s.checkpoints {
		if !slices.Contains(hot, c) && (s.rewind == nil || c != s.rewind.present) {
			c.eng.Freeze()
		}
	}
}

// position places a checkpoint on one axis: a unit per command and per
// checkpointEvery of virtual time.
func (s *Session) position(c *checkpoint) float64 {
	return positionAt(c.applied, c.at)
}

// positionAt is the position after applied commands at virtual time at.
func positionAt(applied int, at api.Time) float64 {
	return float64(applied) + float64(at)/float64(api.Time(checkpointEvery))
}

// reachable reports whether a checkpoint's commands are a prefix of the
// history followed by the redo stack (what undo, redo and rewind can
// reach).
func (s *Session) reachable() func(*checkpoint) bool {
	line := slices.Clone(s.chain)
	for i := len(s.redo) - 1; i >= 0; i-- {
		line = append(line, chainNext(line[len(line)-1], s.redo[i]))
	}
	return func(c *checkpoint) bool {
		return c.applied < len(line) && line[c.applied] == c.chain
	}
}

// The history's fingerprints: chain[i] identifies history[:i] (FNV-1a
// over each entry's time and line, chained), so a checkpoint is matched
// to the history in O(1) however long it grows.
const chainStart uint64 = 14695981039346656037

func chainNext(h uint64, e Entry) uint64 {
	const prime = 1099511628211
	for i := 0; i < 8; i++ {
		h = (h ^ uint64(byte(uint64(e.At)>>(8*i)))) * prime
	}
	for i := 0; i < len(e.Line); i++ {
		h = (h ^ uint64(e.Line[i])) * prime
	}
	return (h ^ 0xff) * prime // entry separator
}

// pushHistory appends an entry to the history and its fingerprint.
func (s *Session) pushHistory(e Entry) {
	s.history = append(s.history, e)
	s.chain = append(s.chain[:len(s.history)], chainNext(s.chain[len(s.history)-1], e))
}

// truncateHistory keeps the first n entries.
func (s *Session) truncateHistory(n int) {
	s.history = slices.Clone(s.history[:n])
	s.chain = slices.Clone(s.chain[:n+1])
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CheckpointCount returns how many checkpoints the session holds (for
// tests and the benchmark's memory report).
func (s *Session) CheckpointCount() int { return len(s.checkpoints) }
