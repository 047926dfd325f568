package lab

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/autoscaler"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/engine/controllers/attach"
	"podlab.dev/podlab/engine/descheduler"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/preemption"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// Entry is one command the user applied, with the virtual time it was
// applied at. History is a list of entries; replaying them on the scenario
// rebuilds the exact state (the engine is deterministic).
type Entry struct {
	At   api.Time
	Line string // canonical command (command.Command.String())
}

// SessionOptions override the scenario's settings.
type SessionOptions struct {
	Seed     *int64
	TieBreak string // "random" or "name"; "" ⇒ the scenario's
	// Guard vets commands (limits of a served session); nil allows all.
	Guard Guard
	// NoFiles refuses commands that read host files (apply -f).
	NoFiles bool
	// Lane is the lane of a saved fork this session runs ("a" or "b";
	// "" ⇒ a). Scenarios that never forked ignore it.
	Lane string
	// NoCheckpoints turns checkpoints off (headless runs never undo):
	// undo and rewind then replay from t=0.
	NoCheckpoints bool
	// MaxObjects is the object budget (pods and nodes); 0 ⇒ ObjectBudget.
	MaxObjects int
}

// Session is a running lab: a scenario loaded into an engine with its
// controllers, the history of applied commands for undo/redo/save, and the
// lesson's progress.
//
// Concurrency: a Session is not safe for concurrent use. Its long
// operations — Undo, Redo, RewindTo, Apply of a heavy command, Advance
// over a long time — may run on a goroutine other than the UI's (a
// tea.Cmd) provided nothing else calls the Session, its accessors
// included (Engine, Controllers, Now…), until they return: the UI keeps
// drawing what it derived before and shows a progress indicator. The
// progress function (SetProgress) is called on the goroutine running the
// operation; it may only forward the value (tea.Program.Send), never touch
// the Session. After any operation, re-read Engine(): undo, redo and
// rewind replace it.
type Session struct {
	file *File
	opts SessionOptions
	seed int64

	eng *engine.Engine
	ctl *attach.Controllers
	// sched is the engine's scheduler (built by schedulerFactory), kept
	// for explanations.
	sched *scheduler.Scheduler
	// policy is the KubeSchedulerConfiguration in force (the file's, then
	// what `set scheduler` made of it; nil: the default profile) and
	// schedBase the scheduler.Config without it (set_scheduler.go).
	policy    *manifest.SchedulerConfiguration
	schedBase scheduler.Config
	// services are the Services (by namespace/name) whose selectors the
	// spreading defaults count with (api.DefaultSelector).
	services map[string]*api.Service
	// autoscaler is the cluster autoscaler (nil: the scenario has none).
	autoscaler *autoscaler.Autoscaler
	// nextTimeline is the index of the first scenario timeline entry not yet run.
	nextTimeline int

	history []Entry
	// chain[i] fingerprints history[:i] (checkpoint.go)
	chain []uint64
	redo  []Entry
	// metrics records the cluster's history when on (metrics.go).
	metrics *Metrics
	// fork is the fork this session is a lane of (nil: not forked), for
	// checks that name a lane (skew@b(…)).
	fork  *Fork
	notes []Note
	// descheduled are the descheduler passes run so far (command or
	// deschedulingInterval), for the run report.
	descheduled []*descheduler.Result
	// step is the current lesson step (not part of the cluster's state:
	// undo leaves it alone).
	step int

	// checkpoints are frozen states to restore from (checkpoint.go); work
	// is the wall time spent on the live state since the last one.
	checkpoints []*checkpoint
	work        time.Duration
	cloneCost   time.Duration
	cloneCosts  []time.Duration // the last recentClones
	// replayCost is the work replaying the scenario to the live state
	// costs: the work of the commands and clock that made it, summed
	// from t=0 (checkpoint.replayCost)
	replayCost   time.Duration
	costOverride *time.Duration // tests: the work that earns a checkpoint
	progress     func(Progress)
	// replayed is, while restore replays, how many history entries the
	// live state has applied (-1 otherwise).
	replayed int
	// rewind is the parked present while the session shows an earlier
	// instant (rewind.go); nil otherwise.
	rewind *rewindState
}

// NewSession loads a scenario into a fresh engine at virtual time 0.
func NewSession(f *File, opts SessionOptions) (*Session, error) {
	s := &Session{file: f, opts: opts, chain: []uint64{chainStart}, replayed: -1}
	if err := s.reset(); err != nil {
		return nil, err
	}
	// the state at t=0: restores never need to reload the scenario
	if err := s.takeCheckpoint(true); err != nil {
		return nil, err
	}
	if l := s.Lesson(); l != nil {
		s.SetStep(l.Step) // a saved session's lesson.step
	}
	return s, nil
}

// File returns the scenario the session was loaded from.
func (s *Session) File() *File { return s.file }

// Engine returns the engine (read it, don't mutate it: go through Apply).
func (s *Session) Engine() *engine.Engine { return s.eng }

// Controllers returns the workload controllers.
func (s *Session) Controllers() *controllers.Manager { return s.ctl.Manager }

// Now returns the virtual time.
func (s *Session) Now() api.Time { return s.eng.Now() }

// Seed returns the seed in force.
func (s *Session) Seed() int64 { return s.seed }

// History returns the applied commands, oldest first.
func (s *Session) History() []Entry { return append([]Entry(nil), s.history...) }

// CanUndo / CanRedo report whether undo / redo would do anything.
func (s *Session) CanUndo() bool { return len(s.history) > 0 && s.rewind == nil }

// CanRedo reports whether an undone command can be re-applied.
func (s *Session) CanRedo() bool { return len(s.redo) > 0 && s.rewind == nil }

// reset rebuilds the engine from the scenario at t=0.
func (s *Session) reset() error {
	f := s.file
	sc := f.Scenario
	s.seed = 0
	if sc != nil {
		s.seed = sc.Seed
	}
	if s.opts.Seed != nil {
		s.seed = *s.opts.Seed
	}
	sched, err := schedulerConfig(sc, s.seed, s.opts.TieBreak)
	if err != nil {
		return err
	}
	s.policy, s.schedBase = f.SchedulerConfig, sched
	s.services = map[string]*api.Service{}
	for _, svc := range f.Objects.Services {
		s.services[svc.Namespace+"/"+svc.Name] = svc
	}
	applySchedulerConfiguration(&sched, s.policy)
	cfg := engine.Config{Seed: s.seed, NewScheduler: s.schedulerFactory(sched), Admit: s.admit, MaxObjects: s.opts.MaxObjects}
	if cfg.MaxObjects <= 0 {
		cfg.MaxObjects = ObjectBudget
	}
	if sc != nil {
		ev, err := evictionConfig(sc.Kubelet)
		if err != nil {
			return err
		}
		cfg.Eviction = ev
	}
	eng := engine.New(cfg)
	s.use(eng, attach.New(eng, s.seed))
	s.nextTimeline = 0
	s.notes = nil
	if err := s.buildAutoscaler(); err != nil {
		return err
	}
	if err := s.load(); err != nil {
		return err
	}
	if err := s.ctl.Start(); err != nil {
		return err
	}
	s.startAutoscaler()
	s.startDescheduler()
	return s.eng.RunUntil(0)
}

// use makes eng and its controllers the session's cluster.
func (s *Session) use(eng *engine.Engine, ctl *attach.Controllers) {
	eng.Thaw() // a checkpoint handed over (checkpoint.go)
	s.eng, s.ctl = eng, ctl
	s.sched, _ = eng.Scheduler().(*scheduler.Scheduler)
	// the autoscaler is one of the engine's controllers (cloned with it)
	if s.autoscaler != nil {
		for _, c := range eng.Controllers() {
			if a, ok := c.(*autoscaler.Autoscaler); ok {
				s.autoscaler = a
			}
		}
	}
}

// admit is the API server's admission for every pod the engine creates
// (engine/admission: defaulting, Priority, DefaultTolerationSeconds,
// pod-affinity matchLabelKeys), plus the scenario's default start-up delay
// written as the lab annotation the kubelet model reads.
func (s *Session) admit(e *engine.Engine, p *api.Pod) error {
	if sc := s.file.Scenario; sc != nil && sc.Kubelet.StartupDelay > 0 {
		if _, ok := p.Annotations[kubelet.AnnotationStartup]; !ok {
			// a fresh map: the pod's may be shared with its template
			ann := copyMap(p.Annotations)
			if ann == nil {
				ann = map[string]string{}
			}
			ann[kubelet.AnnotationStartup] = sc.Kubelet.StartupDelay.String()
			p.Annotations = ann
		}
	}
	return engine.DefaultAdmit(e, p)
}

// schedulerFactory builds the default profile with the scenario's
// settings (base, from schedulerConfig), and the owning
// ReplicaSet/StatefulSet selector as the source of PodTopologySpread's
// default constraints (as upstream's DefaultSelector takes the selectors of
// the controllers that own the pod).
func (s *Session) schedulerFactory(base scheduler.Config) engine.SchedulerFactory {
	return func(seed int64, snap *framework.Snapshot, pdbs func() []*api.PodDisruptionBudget) engine.Scheduler {
		cfg := base
		cfg.Seed, cfg.PDBs, cfg.SpreadSelectors = seed, pdbs, s.ownerSelector
		// The running lab preempts like a running kube-scheduler (upstream's
		// candidate window); `podlab schedule` dry-runs every candidate.
		cfg.PreemptionWindow = preemption.UpstreamWindow
		sched, err := scheduler.Build(cfg, snap)
		if err != nil {
			// the configuration was checked when it was loaded or set
			// (checkSchedulerConfig); fall back to the default profile
			cfg.Profiles = nil
			sched = scheduler.New(cfg, snap)
		}
		// Not kept in s.sched here: engines are also built by Clone for
		// checkpoints and forks; use() reads the live engine's.
		return sched
	}
}

// ownerSelector is helper.DefaultSelector: the selectors of the Services
// selecting the pod with the selector of the ReplicaSet or StatefulSet
// that controls it (empty when nothing selects it).
func (s *Session) ownerSelector(p *api.Pod) api.Selector {
	return api.DefaultSelector(p, s.serviceList(), s.controllerSelector(p))
}

// controllerSelector returns the selector of the ReplicaSet or
// StatefulSet that controls the pod (nil when none).
func (s *Session) controllerSelector(p *api.Pod) *api.Selector {
	ref := p.ControllerRef()
	if ref == nil || s.ctl == nil {
		return nil
	}
	var ls *api.LabelSelector
	switch ref.Kind {
	case controllers.KindReplicaSet:
		if rs := s.ctl.ReplicaSet(p.Namespace, ref.Name); rs != nil {
			ls = rs.Spec.Selector
		}
	case controllers.KindReplicationController:
		if rc := s.ctl.ReplicationController(p.Namespace, ref.Name); rc != nil {
			ls = rc.Spec.Selector
		}
	case controllers.KindStatefulSet:
		if ss := s.ctl.StatefulSet(p.Namespace, ref.Name); ss != nil {
			ls = ss.Spec.Selector
		}
	}
	sel, err := api.CompileSelector(ls)
	if err != nil || ls == nil {
		return nil
	}
	return &sel
}

// serviceList returns the Services in name order.
func (s *Session) serviceList() []*api.Service {
	if len(s.services) == 0 {
		return nil
	}
	keys := make([]string, 0, len(s.services))
	for k := range s.services {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*api.Service, len(keys))
	for i, k := range keys {
		out[i] = s.services[k]
	}
	return out
}

func evictionConfig(k KubeletSpec) (*kubelet.EvictionConfig, error) {
	cfg := kubelet.DefaultEvictionConfig()
	if len(k.EvictionHard) == 0 && len(k.EvictionSoft) == 0 && k.EvictionMaxPodGracePeriod == 0 {
		return &cfg, nil
	}
	threshold := func(v string, grace time.Duration) (kubelet.Threshold, error) {
		t := kubelet.Threshold{Signal: kubelet.SignalMemoryAvailable, GracePeriod: grace}
		if strings.HasSuffix(v, "%") {
			var pct float64
			if _, err := fmt.Sscanf(strings.TrimSuffix(v, "%"), "%g", &pct); err != nil || !(pct > 0 && pct <= 100) { // NaN too
				return t, fmt.Errorf("eviction threshold %q: give a percentage in (0, 100]", v)
			}
			t.Percentage = pct / 100
			return t, nil
		}
		q, err := api.ParseQuantity(v)
		if err != nil {
			return t, fmt.Errorf("eviction threshold: %w", err)
		}
		t.Quantity = q.Value()
		return t, nil
	}
	if len(k.EvictionHard) > 0 {
		cfg.Hard = nil
		for _, v := range k.EvictionHard {
			t, err := threshold(v, 0)
			if err != nil {
				return nil, err
			}
			cfg.Hard = append(cfg.Hard, t)
		}
	}
	for sig, v := range k.EvictionSoft {
		t, err := threshold(v, k.EvictionSoftGracePeriod[sig])
		if err != nil {
			return nil, err
		}
		cfg.Soft = append(cfg.Soft, t)
	}
	cfg.MaxPodGracePeriodSeconds = k.EvictionMaxPodGracePeriod
	return &cfg, nil
}

// load adds the scenario's objects: namespaces and priority classes first
// (pods need them at admission), nodes, budgets, pods, then workloads.
func (s *Session) load() error {
	f := s.file
	objs := f.Objects
	for _, ns := range objs.Namespaces {
		if err := s.eng.AddNamespace(ns); err != nil {
			return fmt.Errorf("%s: %w", objs.PosOf(ns), err)
		}
	}
	for _, pc := range objs.PriorityClasses {
		if err := s.eng.AddPriorityClass(pc); err != nil {
			return fmt.Errorf("%s: %w", objs.PosOf(pc), err)
		}
	}
	if f.Scenario != nil {
		nodes, err := f.Scenario.Cluster.Nodes()
		if err != nil {
			return err
		}
		for _, n := range nodes {
			if err := s.eng.AddNode(n); err != nil {
				return fmt.Errorf("%s: %w", f.Scenario.Pos, err)
			}
		}
	}
	for _, n := range objs.Nodes {
		if err := s.eng.AddNode(copyNode(n)); err != nil {
			return fmt.Errorf("%s: node %s: %w", objs.PosOf(n), n.Name, err)
		}
	}
	if err := s.addGroupNodes(); err != nil {
		return err
	}
	for _, pdb := range objs.PodDisruptionBudgets {
		cp := *pdb
		if err := s.eng.AddPDB(&cp); err != nil {
			return fmt.Errorf("%s: %w", objs.PosOf(pdb), err)
		}
	}
	for _, p := range objs.Pods {
		if err := s.eng.RestorePod(copyPod(p)); err != nil {
			return fmt.Errorf("%s: pod %s: %w", objs.PosOf(p), p.Key(), err)
		}
	}
	var rebuilt []any
	for _, rs := range missingReplicaSets(objs) {
		rebuilt = append(rebuilt, rs)
	}
	if err := s.addWorkloads(rebuilt, func(o any) positionLike { return f.Scenario.posOrFile(f.Name) }); err != nil {
		return err
	}
	return s.addWorkloads(objs.Order, func(o any) positionLike { return objs.PosOf(o) })
}

// addWorkloads hands workload objects to the controllers.
func (s *Session) addWorkloads(order []any, pos func(any) positionLike) error {
	for _, o := range order {
		var err error
		switch w := o.(type) {
		case *api.Deployment:
			cp := *w
			_, err = s.ctl.AddDeployment(&cp)
		case *api.ReplicaSet:
			cp := *w
			_, err = s.ctl.AddReplicaSet(&cp)
		case *api.ReplicationController:
			cp := *w
			_, err = s.ctl.AddReplicationController(&cp)
		case *api.StatefulSet:
			cp := *w
			_, err = s.ctl.AddStatefulSet(&cp)
		case *api.DaemonSet:
			cp := *w
			_, err = s.ctl.AddDaemonSet(&cp)
		case *api.Job:
			cp := *w
			_, err = s.ctl.AddJob(&cp)
		case *api.CronJob:
			cp := *w
			_, err = s.ctl.AddCronJob(&cp)
		case *api.HorizontalPodAutoscaler:
			_, err = s.ctl.AddHPA(w)
		default:
			continue
		}
		if err != nil {
			return fmt.Errorf("%v: %w", pos(o), err)
		}
	}
	return nil
}

type positionLike interface{ String() string }

func copyNode(n *api.Node) *api.Node {
	cp := *n
	cp.Labels = copyMap(n.Labels)
	cp.Spec.Taints = append([]api.Taint(nil), n.Spec.Taints...)
	return &cp
}

func copyPod(p *api.Pod) *api.Pod {
	cp := *p
	cp.Labels = copyMap(p.Labels)
	cp.Annotations = copyMap(p.Annotations)
	return &cp
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Advance moves virtual time forward by d, running the scenario's timeline
// commands that fall due on the way.
func (s *Session) Advance(d time.Duration) error {
	if err := engine.CheckClock(s.eng.Now(), d); err != nil {
		return fmt.Errorf("advance %s: %w", d, err)
	}
	if s.rewind != nil {
		return s.playForward(s.eng.Now().Add(d))
	}
	return s.advanceTo(s.eng.Now().Add(d))
}

// advanceTo runs until t in steps, checkpointing between them when the
// work since the last checkpoint earns one. Steps end on whole seconds
// (where metrics sample) and on multiples of checkpointEvery: the first
// is a virtual second, each cheap one doubles the next up to
// checkpointEvery, and one that did a checkpoint's worth of work alone
// brings the next back to a second — so a busy stretch (thousands of
// pods starting) has a chance to checkpoint every virtual second, and a
// rewind into it replays little.
func (s *Session) advanceTo(t api.Time) error {
	every, step := api.Time(checkpointEvery), api.Time(time.Second)
	for {
		if err := s.maybeCheckpoint(); err != nil {
			return err
		}
		now, before := s.eng.Now(), s.work
		next := min(t, (now/every+1)*every, (now/step+1)*step)
		if err := s.timed(func() error { return s.runTo(next) }); err != nil {
			return err
		}
		if next >= t || s.eng.Now() >= t {
			return nil
		}
		if s.work-before >= s.checkpointCost() {
			step = api.Time(time.Second)
		} else {
			step = min(2*step, every)
		}
	}
}

// settleNow runs what is due at the current instant.
func (s *Session) settleNow() error { return s.eng.RunUntil(s.eng.Now()) }

// runTo runs until t, running the scenario's timeline commands that fall
// due on the way.
func (s *Session) runTo(t api.Time) error {
	tl := s.timeline()
	for s.nextTimeline < len(tl) && api.Time(tl[s.nextTimeline].At) <= t {
		e := tl[s.nextTimeline]
		s.nextTimeline++
		if err := s.eng.RunUntil(api.Time(e.At)); err != nil {
			return err
		}
		cmd, err := command.Parse(e.Do)
		if err != nil {
			return fmt.Errorf("%s: %w", e.Pos, err)
		}
		_, err = s.exec(cmd)
		if err == nil {
			err = s.eng.RunUntil(s.eng.Now())
		}
		if err != nil {
			// A timeline command that fails (e.g. the learner removed its
			// node) is reported as a warning event, not fatal
			// (timeline_failures.go).
			s.timelineFailed(e, err)
		}
	}
	if s.eng.Now() > t {
		// an `advance` command on the timeline went past t
		return nil
	}
	return s.runUntil(t)
}

func (s *Session) timeline() []TimelineEntry {
	if s.file.Scenario == nil {
		return nil
	}
	tl := s.file.Scenario.Timeline
	if s.file.Scenario.Fork == nil {
		return tl
	}
	// a saved fork: this session is one lane (lane a unless told)
	lane := s.opts.Lane
	if lane == "" {
		lane = LaneA
	}
	out := make([]TimelineEntry, 0, len(tl))
	for _, e := range tl {
		if e.Lane == "" || e.Lane == lane {
			out = append(out, e)
		}
	}
	return out
}

// Apply parses and applies one command line, recording it for undo. It
// returns a short human-readable result.
func (s *Session) Apply(line string) (string, error) {
	cmd, err := command.Parse(line)
	if err != nil {
		return "", err
	}
	switch c := cmd.(type) {
	case command.Undo:
		return s.Undo()
	case command.Redo:
		return s.Redo()
	case command.AutoscalerStatus:
		return s.AutoscalerStatusText(), nil
	case command.Apply:
		if c.File != "" && s.opts.NoFiles {
			return "", ErrNoFiles
		}
		// Record the manifest itself, so undo, save and replay do not
		// depend on the file staying as it was.
		if c.File != "" {
			data, err := s.readRelative(c.File)
			if err != nil {
				return "", err
			}
			cmd = command.Apply{Inline: string(data), Source: c.File}
		}
	}
	// A command on a rewound session branches there; the later history
	// stays for redo.
	branched := s.rewind != nil
	if branched {
		s.branch()
	}
	// Run what is due at this instant first, so a command always meets the
	// same state however the clock got here (replay depends on it).
	if err := s.timed(s.settleNow); err != nil {
		return "", err
	}
	at := s.eng.Now()
	if err := s.guardBefore(cmd); err != nil {
		return "", err
	}
	// the state undo returns to, if it earns a checkpoint
	if err := s.maybeCheckpoint(); err != nil {
		return "", err
	}
	var msg string
	err = s.timed(func() (err error) { msg, err = s.exec(cmd); return err })
	var partial *partialApplyError
	if errors.As(err, &partial) {
		// undo what the command did before it failed: restore this
		// instant, so history, undo and save stay what happened
		if rerr := s.restore("restore", false, len(s.history), at); rerr != nil {
			return "", fmt.Errorf("%w; restoring the state before it failed too: %v", err, rerr)
		}
	}
	if err != nil {
		return "", err
	}
	// the command's consequences (controllers, scheduler) are work a
	// checkpoint saves a replay too
	if err := s.timed(s.settleNow); err != nil {
		return "", err
	}
	if err := s.guardAfter(at); err != nil {
		return "", err
	}
	s.pushHistory(Entry{At: at, Line: cmd.String()})
	if !branched {
		s.redo = nil
	}
	s.sample()
	return msg, nil
}

// Undo restores the state just before the last command, at the virtual
// time it was applied: what replaying the history before it gives, from
// the checkpoint taken before it.
func (s *Session) Undo() (string, error) {
	if s.rewind != nil {
		return "", errRewound(s)
	}
	if len(s.history) == 0 {
		return "", fmt.Errorf("nothing to undo")
	}
	last := s.history[len(s.history)-1]
	if err := s.restore("undo", true, len(s.history)-1, last.At); err != nil {
		return "", err
	}
	s.truncateHistory(len(s.history) - 1)
	s.redo = append(s.redo, last)
	s.sample()
	return "undid: " + last.Line, nil
}

// Redo re-applies the last undone command at the time it was first applied.
func (s *Session) Redo() (string, error) {
	if s.rewind != nil {
		return "", errRewound(s)
	}
	if len(s.redo) == 0 {
		return "", fmt.Errorf("nothing to redo")
	}
	e := s.redo[len(s.redo)-1]
	before := s.eng.Now()
	if before > e.At {
		// Time moved on since the undo: the command applies now.
		e.At = before
	}
	if _, err := command.Parse(e.Line); err != nil {
		return "", err
	}
	// What replaying the history with e gives: from the checkpoint after
	// it when there is one (undo keeps it), else by applying it to the
	// state kept here.
	s.keepLive()
	s.pushHistory(e)
	if err := s.restore("redo", false, len(s.history), e.At); err != nil {
		s.truncateHistory(len(s.history) - 1)
		if rerr := s.restore("restore", false, len(s.history), before); rerr != nil {
			return "", fmt.Errorf("%w; restoring the state before it failed too: %v", err, rerr)
		}
		return "", err
	}
	s.redo = s.redo[:len(s.redo)-1]
	s.sample()
	return "redid: " + e.Line, nil
}

// names lists what exists, for error messages ("nodes are node-1…node-6").
func summarizeNames(kind string, names []string) string {
	kinds := kind + "s"
	if strings.HasSuffix(kind, "s") {
		kinds = kind + "es" // class, priorityclass
	}
	if len(names) == 0 {
		return "there are no " + kinds
	}
	sort.Strings(names)
	if len(names) > 6 {
		return fmt.Sprintf("%s are %s, %s, … %s (%d in all)", kinds, names[0], names[1], names[len(names)-1], len(names))
	}
	return fmt.Sprintf("%s are %s", kinds, strings.Join(names, ", "))
}
