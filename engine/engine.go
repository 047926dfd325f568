package engine

import (
	"fmt"
	"podlab.dev/podlab/engine/internal/cowmap"
	"slices"
	"sort"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/clock"
	"podlab.dev/podlab/engine/disruption"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Scheduler is what the engine needs from the scheduler runtime
// (*scheduler.Scheduler implements it).
type Scheduler interface {
	ScheduleOne(pi *framework.PodInfo) scheduler.Result
	Nominator() *scheduler.Nominator
}

// SchedulerFactory builds the scheduler over the engine's snapshot; pdbs
// returns the budgets with their current status (for preemption).
type SchedulerFactory func(seed int64, snap *framework.Snapshot, pdbs func() []*api.PodDisruptionBudget) Scheduler

// defaultScheduler is the default-profile scheduler (scheduler_default.go).
var defaultScheduler SchedulerFactory = func(seed int64, snap *framework.Snapshot, pdbs func() []*api.PodDisruptionBudget) Scheduler {
	return noScheduler{nom: scheduler.NewNominator()}
}

// noScheduler leaves every pod pending (used only when no scheduler is
// linked in).
type noScheduler struct{ nom *scheduler.Nominator }

func (noScheduler) ScheduleOne(pi *framework.PodInfo) scheduler.Result {
	return scheduler.Result{Message: "no scheduler configured"}
}
func (s noScheduler) Nominator() *scheduler.Nominator { return s.nom }

// Config configures an Engine.
type Config struct {
	// Seed seeds every random choice (the scheduler's tie-break).
	Seed int64
	// NewScheduler builds the scheduler; nil ⇒ the default profile.
	NewScheduler SchedulerFactory
	// Eviction is the kubelets' eviction configuration; the zero value
	// means kubelet.DefaultEvictionConfig().
	Eviction *kubelet.EvictionConfig
	// Scale looks up a workload's scale for PDB status (see
	// disruption.ScaleFunc); controllers usually provide it. nil ⇒ none.
	Scale disruption.ScaleFunc
	// Admit is the admission chain run on CreatePod (priority classes,
	// default tolerations, …); nil ⇒ DefaultAdmit.
	Admit func(e *Engine, pod *api.Pod) error
	// MaxObjects bounds the cluster's pods and nodes (object_budget.go):
	// a pod or node beyond it is refused with a *BudgetError. 0 ⇒ none.
	MaxObjects int
}

// Controller is a workload controller running in the engine's control
// plane. The engine calls Reconcile after every batch of changes (an
// action, or the clock actions due at one instant) until nothing changes
// any more, and at the times a controller asked for with WakeAt. A
// controller reads the engine (Pods, Nodes, …) and acts through its
// public methods (CreatePod, DeletePod, …), like a real controller acts
// through the API server. Reconcile must be deterministic.
type Controller interface {
	Reconcile(e *Engine, now api.Time)
}

// ControllerFunc adapts a function to Controller.
type ControllerFunc func(e *Engine, now api.Time)

// Reconcile implements Controller.
func (f ControllerFunc) Reconcile(e *Engine, now api.Time) { f(e, now) }

// action is a clock entry: a value, so the clock can be cloned.
type action struct {
	kind actionKind
	key  string // pod key, node name or drain id
	gen  int64  // generation the action was scheduled for (stale ⇒ ignored)
}

type actionKind int

const (
	actScheduleWake   actionKind = iota // backoff expiry / unschedulable flush
	actPodStarted                       // start-up delay elapsed
	actPodGone                          // all containers exited
	actTaintEviction                    // tolerationSeconds ran out
	actPressurePass                     // kubelet eviction manager pass
	actDrainAttempt                     // drain retries an eviction
	actDrainObserve                     // drain's delete-wait poll
	actControllerWake                   // a controller asked to be called
	actContainers                       // a modelled pod's container changes
)

// Engine is the simulated cluster. It is not safe for concurrent use.
type Engine struct {
	cfg      Config
	own      *owner // the token of the pod states it may modify (cow.go)
	eviction kubelet.EvictionConfig
	clock    *clock.Clock[action]
	rand     *clock.Rand

	nodes     map[string]*nodeState
	nodeNames []string // sorted when read: see sortedNodeNames
	pods      cowmap.Map[*podState]
	// podKeys caches sortedPodKeys while podKeysOK (pods added or
	// removed invalidate it); callers only read it.
	podKeys   []string
	podKeysOK bool
	// podKeysNew and podKeysGone are keys added and removed since
	// podKeys was last brought up to date.
	podKeysNew  []string
	podKeysGone map[string]bool
	// podsByNode indexes pods (any state) by spec.nodeName.
	podsByNode map[string]*podSet
	pdbs       map[string]*api.PodDisruptionBudget
	classes    map[string]*api.PriorityClass
	namespaces map[string]*api.Namespace
	// timelines survive pod removal (the UI shows how a pod ended).
	timelines cowmap.Map[*podTimeline]

	snap  *framework.Snapshot
	sched Scheduler
	queue *scheduler.Queue

	controllers []Controller
	// watchers are told of pod and node changes (watch.go); not cloned.
	watchers []Watcher
	drains   []*Drain

	// events is the open tail of the event log, sealed the sealed chunks
	// before it (sealedLen events), flat a flat copy for Events()
	// (events.go).
	events    []Event
	sealed    []*sealedChunk
	sealedLen int
	flat      []Event
	uidSeq    int64
	podSeq    PodID // the last pod number given (watch_ids.go)
	genSeq    int64
	started   bool // the clock moved or an action ran after load
	// changes counts mutations; controllers run when it moved.
	changes       int64
	ctrlSeen      int64
	flushSchedule bool
	inSettle      bool
	schedWake     *api.Time
	// frozen marks a packed engine (freeze.go).
	frozen bool
	// PDB status cache, valid while nothing changed at the same instant
	pdbCache        []*api.PodDisruptionBudget
	pdbCacheChanges int64
	pdbCacheAt      api.Time
}

// New returns an empty cluster at virtual time 0.
func New(cfg Config) *Engine {
	e := &Engine{
		cfg:        cfg,
		own:        &owner{},
		clock:      clock.New[action](0),
		rand:       clock.NewRand(cfg.Seed),
		nodes:      map[string]*nodeState{},
		podsByNode: map[string]*podSet{},
		pdbs:       map[string]*api.PodDisruptionBudget{},
		classes:    map[string]*api.PriorityClass{},
		namespaces: map[string]*api.Namespace{},
		snap:       framework.NewSnapshot(),
		queue:      scheduler.NewQueue(),
	}
	if cfg.Eviction != nil {
		e.eviction = *cfg.Eviction
	} else {
		e.eviction = kubelet.DefaultEvictionConfig()
	}
	if e.eviction.MonitoringInterval <= 0 {
		e.eviction.MonitoringInterval = 10 * time.Second
	}
	e.sched = e.newScheduler()
	e.queue.SetPreEnqueue(e.preEnqueue)
	e.clock.Schedule(api.Time(scheduler.UnschedulableFlushInterval), action{kind: actScheduleWake, key: "flush"})
	return e
}

// AddController registers a workload controller.
func (e *Engine) AddController(c Controller) {
	e.controllers = append(e.controllers, c)
	e.changes++
	e.settle()
}

// Controllers lists the registered controllers (do not modify the slice).
func (e *Engine) Controllers() []Controller {
	return e.controllers[:len(e.controllers):len(e.controllers)]
}

// WakeAt asks for the controllers to be reconciled at t (e.g. when a
// pod becomes available after minReadySeconds).
func (e *Engine) WakeAt(t api.Time) {
	e.clock.Schedule(t, action{kind: actControllerWake})
}

// Now returns the current virtual time.
func (e *Engine) Now() api.Time { return e.clock.Now() }

// Step moves virtual time forward by d, running everything due.
func (e *Engine) Step(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("step: negative duration %s", d)
	}
	return e.RunUntil(e.clock.Now().Add(d))
}

// RunUntil moves virtual time forward to t, running everything due in
// (time, order of scheduling) order; changes at one instant settle
// (controllers, scheduler) before time moves on.
func (e *Engine) RunUntil(t api.Time) error {
	if t < e.clock.Now() {
		return fmt.Errorf("run until %s: it is already %s", t, e.clock.Now())
	}
	if t > MaxClock {
		return fmt.Errorf("run until %s: %w", t, clockLimitError(t))
	}
	e.started = true
	for {
		at, a, ok := e.clock.PopDue(t)
		if !ok {
			// settling may schedule more for now (a pod killed before it
			// started is gone at once): run those too
			e.settle()
			if next, ok := e.clock.NextAt(); ok && next <= t {
				continue
			}
			break
		}
		e.dispatch(at, a)
		// settle once all actions of this instant ran
		if next, ok := e.clock.NextAt(); !ok || next != at {
			e.settle()
		}
	}
	return e.clock.RunUntil(t, func(now api.Time, a action) { e.dispatch(now, a) })
}

func (e *Engine) dispatch(now api.Time, a action) {
	switch a.kind {
	case actScheduleWake:
		if a.key == "flush" {
			if e.queue.FlushUnschedulableLeftover(now) > 0 {
				e.flushSchedule = true
			}
			e.clock.Schedule(now.Add(scheduler.UnschedulableFlushInterval), action{kind: actScheduleWake, key: "flush"})
		}
		if e.schedWake != nil && *e.schedWake <= now {
			e.schedWake = nil
		}
		e.flushSchedule = true
	case actPodStarted:
		e.podStarted(a.key, a.gen)
	case actPodGone:
		e.podGone(a.key, a.gen)
	case actTaintEviction:
		e.taintEvictionDue(a.key, a.gen)
	case actPressurePass:
		e.pressurePass(a.key, a.gen)
	case actDrainAttempt:
		e.drainAttempt(a.key, a.gen)
	case actDrainObserve:
		e.drainObserve(a.key, a.gen)
	case actControllerWake:
		e.changes++
	case actContainers:
		e.containersDue(a.key, a.gen)
	}
}

// settle brings the cluster to rest at the current instant: controllers
// react to changes, the scheduler places what it can, repeatedly.
func (e *Engine) settle() {
	if e.inSettle {
		return
	}
	e.inSettle = true
	defer func() { e.inSettle = false }()
	for i := 0; i < 100; i++ {
		progressed := false
		// actions due now (a pod killed before it started is gone at once)
		for {
			at, a, ok := e.clock.PopDue(e.clock.Now())
			if !ok {
				break
			}
			e.dispatch(at, a)
			progressed = true
		}
		if len(e.controllers) > 0 && e.changes != e.ctrlSeen {
			e.ctrlSeen = e.changes
			for _, c := range e.controllers {
				c.Reconcile(e, e.clock.Now())
			}
			progressed = true
		}
		if e.scheduleAll() {
			progressed = true
		}
		if !progressed || (e.changes == e.ctrlSeen && !e.flushSchedule) {
			break
		}
	}
	e.flushSchedule = false
}

func (e *Engine) nextUID() string {
	e.uidSeq++
	return fmt.Sprintf("uid-%06d", e.uidSeq)
}

func (e *Engine) nextGen() int64 {
	e.genSeq++
	return e.genSeq
}

// sortedPodKeys lists pod keys in order (for deterministic iteration).
// podKeyAdded and podKeyRemoved note changes to the cached sorted keys;
// the next sortedPodKeys merges them in one linear pass (a new slice:
// callers may be iterating over the old one). More changes between two
// reads than keys drop the cache instead: up to there, sorting the changes
// and merging costs less than sorting every key again (the descheduler
// reads the pods every 10 minutes, past ≈ 1,200 changes in a busy day).
func (e *Engine) podKeyAdded(key string) {
	if !e.podKeysOK {
		return
	}
	if e.podKeysGone[key] {
		delete(e.podKeysGone, key)
	} else {
		e.podKeysNew = append(e.podKeysNew, key)
	}
	e.podKeysCheckPending()
}

func (e *Engine) podKeyRemoved(key string) {
	if !e.podKeysOK {
		return
	}
	// a key of the sorted list is found by binary search; only a key added
	// since the last merge is looked for in the (unsorted) additions
	if _, old := slices.BinarySearch(e.podKeys, key); old {
		if e.podKeysGone == nil {
			e.podKeysGone = map[string]bool{}
		}
		e.podKeysGone[key] = true
	} else if i := slices.Index(e.podKeysNew, key); i >= 0 {
		e.podKeysNew = slices.Delete(e.podKeysNew, i, i+1)
	}
	e.podKeysCheckPending()
}

func (e *Engine) podKeysCheckPending() {
	if len(e.podKeysNew)+len(e.podKeysGone) > 64+len(e.podKeys) {
		e.podKeysOK = false
	}
	if !e.podKeysOK {
		e.podKeys, e.podKeysNew, e.podKeysGone = nil, nil, nil
	}
}

// mergePodKeys applies the pending changes to the cached keys. The
// benchmarks' churn brings one or two changes between reads of 5,000
// keys: each change is found by binary search and the runs of unchanged
// keys between them are copied whole, instead of comparing every key and
// looking it up in the removals (which was a sixth of BenchmarkDayHPA).
// The removals are all in the cached keys (podKeyRemoved), the additions
// none of them.
func (e *Engine) mergePodKeys() {
	if len(e.podKeysNew) == 0 && len(e.podKeysGone) == 0 {
		return
	}
	slices.Sort(e.podKeysNew)
	gone := make([]string, 0, len(e.podKeysGone))
	for k := range e.podKeysGone {
		gone = append(gone, k)
	}
	slices.Sort(gone)
	e.podKeys = mergeSortedKeys(e.podKeys, e.podKeysNew, gone)
	e.podKeysNew, e.podKeysGone = nil, nil
}

// mergeSortedKeys returns a new sorted slice: old (sorted) with add
// (sorted, none in old) inserted and gone (sorted, each in old) removed.
func mergeSortedKeys(old, add, gone []string) []string {
	out := make([]string, 0, len(old)+len(add)-len(gone))
	i := 0 // old[:i] is done
	for len(add) > 0 || len(gone) > 0 {
		if len(gone) == 0 || (len(add) > 0 && add[0] < gone[0]) {
			j := i + sort.SearchStrings(old[i:], add[0])
			out = append(out, old[i:j]...)
			out = append(out, add[0])
			add, i = add[1:], j
			continue
		}
		j := i + sort.SearchStrings(old[i:], gone[0])
		out = append(out, old[i:j]...)
		if j < len(old) && old[j] == gone[0] {
			j++
		}
		gone, i = gone[1:], j
	}
	return append(out, old[i:]...)
}

func (e *Engine) sortedPodKeys() []string {
	if e.podKeysOK {
		e.mergePodKeys()
		if len(e.podKeys) == e.pods.Len() {
			return e.podKeys
		}
	}
	keys := make([]string, 0, e.pods.Len())
	for k := range e.pods.All() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e.podKeys, e.podKeysOK, e.podKeysNew, e.podKeysGone = keys, true, nil, nil
	return keys
}
