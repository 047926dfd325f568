package engine

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// The kubelet's view of a pod's containers, for pods that need it: a
// pod with a probe or a behaviour annotation (kubelet.HasBehaviour). Other
// pods keep the cheap model: Running and Ready once started.
//
// Everything runs on the virtual clock and nothing is polled: the prober
// workers are worked out in closed form (kubelet.NextProbeTransition), so
// a container costs one clock action per change of state (ready, not
// ready, killed, exited, restarted), however often its probes run.

// probeKind names a probe.
type probeKind int

const (
	probeStartup probeKind = iota
	probeReadiness
	probeLiveness
)

func (k probeKind) String() string {
	switch k {
	case probeStartup:
		return "Startup"
	case probeReadiness:
		return "Readiness"
	}
	return "Liveness"
}

// probeOverride is a `break pod … readiness|liveness` or `heal pod`: from
// At on, the probe fails (Broken) or behaves as annotated again.
type probeOverride struct {
	At     api.Time
	Kind   probeKind
	Broken bool
}

// probeWorker is one probe of one container run.
type probeWorker struct {
	probe  *api.Probe
	timing kubelet.ProbeTiming
	// anchor is when the worker's runs start; initial its published
	// result before any threshold was reached.
	anchor  api.Time
	initial bool
	// cursor: transitions up to here are applied; result is the
	// published result now.
	cursor api.Time
	result bool
	// failCursor: Unhealthy events for failure streaks up to here are
	// recorded.
	failCursor api.Time
	// segs caches the outcome segments for (segStart, segAnchor,
	// segOverrides): they change only when the container restarts, the
	// worker's anchor moves or a probe is broken or healed.
	segs         []kubelet.Segment
	segStart     api.Time
	segAnchor    api.Time
	segOverrides int
}

// containerRT is one container as the kubelet runs it.
type containerRT struct {
	name     string
	init     bool
	sidecar  bool
	behave   kubelet.Behaviour
	spec     *api.Container
	running  bool
	start    api.Time // current run's start
	restarts int32
	// waiting is "CrashLoopBackOff" until restartAt, or "" (not waiting).
	waiting   string
	restartAt api.Time
	// done: exited and not restarting (term holds how).
	done     bool
	term     *api.ContainerStateTerminated
	lastTerm *api.ContainerStateTerminated
	started  bool // startup probe passed (true without one)
	ready    bool // readiness (true without a probe, once started)
	// killing: a failed liveness/startup probe is killing it; it exits
	// at killAt with killCode.
	killing  bool
	killAt   api.Time
	killCode int32
	backoff  kubelet.BackOff
	workers  [3]*probeWorker
}

// podRuntime is a modelled pod's containers: init containers first (in
// spec order), then the regular ones.
type podRuntime struct {
	containers []*containerRT
	// initDone counts init containers finished (a sidecar: started).
	initDone    int
	mainStarted bool
	overrides   []probeOverride
	gen         int64
	nextAt      api.Time
	scheduled   bool
	// initializedAt is when the last init container finished.
	initializedAt api.Time
}

func (rt *podRuntime) clone() *podRuntime {
	if rt == nil {
		return nil
	}
	c := *rt
	c.overrides = append([]probeOverride(nil), rt.overrides...)
	c.containers = make([]*containerRT, len(rt.containers))
	for i, ct := range rt.containers {
		cc := *ct
		for j, w := range ct.workers {
			if w != nil {
				wc := *w
				wc.segs = append([]kubelet.Segment(nil), w.segs...)
				cc.workers[j] = &wc
			}
		}
		c.containers[i] = &cc
	}
	return &c
}

// needsRuntime reports pods the kubelet models container by container.
func needsRuntime(p *api.Pod) bool {
	if kubelet.HasBehaviour(p) {
		return true
	}
	for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			if cs[i].StartupProbe != nil || cs[i].ReadinessProbe != nil || cs[i].LivenessProbe != nil {
				return true
			}
		}
	}
	return false
}

// newRuntime builds a pod's runtime (annotations were validated at
// creation).
func newRuntime(p *api.Pod) *podRuntime {
	rt := &podRuntime{}
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		b, _ := kubelet.ContainerBehaviour(p, c.Name, false)
		rt.containers = append(rt.containers, &containerRT{name: c.Name, init: true, sidecar: c.IsSidecar(), behave: b, spec: c})
	}
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		b, _ := kubelet.ContainerBehaviour(p, c.Name, i == 0)
		rt.containers = append(rt.containers, &containerRT{name: c.Name, behave: b, spec: c})
	}
	return rt
}

// startRuntime begins a modelled pod once the kubelet has set it up (the
// start-up delay elapsed): init containers one by one, then the others.
func (e *Engine) startRuntime(ps *podState) {
	ps = e.owned(ps)
	ps.rt = newRuntime(ps.pod)
	e.advanceRuntime(ps)
}

// restoreRuntime attaches the runtime to a pod restored with a recorded
// status: containers run since their recorded start with their recorded
// restarts and readiness; the next probe runs one period from now.
func (e *Engine) restoreRuntime(ps *podState) {
	ps = e.owned(ps)
	rt := newRuntime(ps.pod)
	ps.rt = rt
	now := e.Now()
	statuses := map[string]api.ContainerStatus{}
	for _, cs := range ps.pod.Status.InitContainerStatuses {
		statuses[cs.Name] = cs
	}
	for _, cs := range ps.pod.Status.ContainerStatuses {
		statuses[cs.Name] = cs
	}
	ready := containersReadyStatus(ps.pod)
	rt.initDone = 0
	for _, c := range rt.containers {
		cs, ok := statuses[c.name]
		c.restarts = cs.RestartCount
		if cs.LastState.Terminated != nil {
			t := *cs.LastState.Terminated
			c.lastTerm = &t
		}
		if c.init && !c.sidecar {
			c.done, c.term = true, &api.ContainerStateTerminated{Reason: "Completed"}
			rt.initDone++
			continue
		}
		c.running, c.start = true, now
		if ok && cs.State.Running != nil {
			c.start = cs.State.Running.StartedAt
		} else if ps.pod.Status.StartTime != nil {
			c.start = *ps.pod.Status.StartTime
		}
		c.started = !ok || cs.Started == nil || *cs.Started
		c.ready = ready
		if ok {
			c.ready = cs.Ready
		}
		if ok && cs.State.Waiting != nil && cs.State.Waiting.Reason == "CrashLoopBackOff" && cs.LastState.Terminated != nil {
			restoreBackOff(c, now)
		}
		if c.sidecar {
			rt.initDone++
		}
		for k, pr := range c.probes() {
			if pr == nil {
				continue
			}
			t := kubelet.TimingOf(pr)
			initial := c.started
			switch probeKind(k) {
			case probeReadiness:
				initial = c.ready
			case probeLiveness:
				initial = true
			}
			t.InitialDelay = 0
			c.workers[k] = &probeWorker{probe: pr, timing: t, anchor: now.Add(t.Period), initial: initial, cursor: now, result: initial, failCursor: now}
		}
	}
	rt.mainStarted = true
	e.scheduleRuntime(ps)
}

// restoreBackOff puts a container recorded in CrashLoopBackOff back in
// it: it restarts when the kubelet's back-off for its next restart ends,
// counted from its last exit (no wait for a first restart, then 10 s
// doubling to 300 s; kubelet.BackOff), at once if that is already past.
func restoreBackOff(c *containerRT, now api.Time) {
	t := *c.lastTerm
	c.running, c.ready, c.term, c.lastTerm = false, false, &t, nil
	var delay time.Duration
	if c.restarts > 0 {
		delay = kubelet.InitialBackOff
		for i := int32(1); i < c.restarts && delay < kubelet.MaxBackOff; i++ {
			delay *= 2
		}
		delay = min(delay, kubelet.MaxBackOff)
	}
	c.waiting, c.restartAt = "CrashLoopBackOff", max(t.FinishedAt.Add(delay), now)
	// the entry as the kubelet leaves it after that restart (Backoff.Next)
	next := kubelet.InitialBackOff
	if delay > 0 {
		next = min(2*delay, kubelet.MaxBackOff)
	}
	c.backoff = kubelet.BackOff{Set: true, Delay: next, LastUpdate: c.restartAt}
}

func (c *containerRT) probes() [3]*api.Probe {
	return [3]*api.Probe{c.spec.StartupProbe, c.spec.ReadinessProbe, c.spec.LivenessProbe}
}

// startContainer runs (or reruns) a container now.
func (e *Engine) startContainer(ps *podState, c *containerRT) {
	ps = e.owned(ps)
	now := e.Now()
	if c.term != nil || c.waiting != "" {
		// a restart: the run that ended becomes lastState
		if c.term != nil {
			c.lastTerm = c.term
		}
		c.restarts++
	}
	c.running, c.start, c.waiting, c.term, c.done, c.killing = true, now, "", nil, false, false
	c.started = c.spec.StartupProbe == nil
	c.ready = c.started && c.spec.ReadinessProbe == nil
	for k, pr := range c.probes() {
		c.workers[k] = nil
		if pr == nil {
			continue
		}
		initial := false
		if probeKind(k) == probeLiveness {
			initial = true
		}
		w := &probeWorker{probe: pr, timing: kubelet.TimingOf(pr), anchor: now, initial: initial, cursor: now - 1, result: initial, failCursor: now - 1}
		if probeKind(k) != probeStartup && c.spec.StartupProbe != nil {
			w.anchor = -1 // set when the startup probe passes
		}
		c.workers[k] = w
	}
	if e.started {
		e.record(EventNormal, ReasonStarted, podObject(ps.pod.Key()), "Started container "+c.name)
	}
}

// containerNext is when a container next changes on its own.
func (rt *podRuntime) containerNext(c *containerRT) (api.Time, bool) {
	best, ok := api.Time(0), false
	take := func(t api.Time) {
		if !ok || t < best {
			best, ok = t, true
		}
	}
	switch {
	case c.waiting != "":
		take(c.restartAt)
	case c.killing:
		take(c.killAt)
	case c.running:
		if c.behave.Exit != nil {
			take(c.start.Add(c.behave.Exit.After))
		}
		for k := range c.workers {
			if at, _, ok := rt.nextTransition(c, probeKind(k)); ok {
				take(at)
			}
			if at, ok := rt.nextFailureStreak(c, probeKind(k)); ok {
				take(at)
			}
		}
	}
	return best, ok
}

// scheduleRuntime schedules the pod's next container change.
func (e *Engine) scheduleRuntime(ps *podState) {
	ps = e.owned(ps)
	rt := ps.rt
	best, ok := api.Time(0), false
	for _, c := range rt.containers {
		if t, has := rt.containerNext(c); has && (!ok || t < best) {
			best, ok = t, true
		}
	}
	if !ok {
		rt.scheduled = false
		return
	}
	if best < e.Now() {
		best = e.Now()
	}
	if rt.scheduled && rt.nextAt == best {
		return
	}
	rt.gen = e.nextGen()
	rt.nextAt, rt.scheduled = best, true
	e.clock.Schedule(best, action{kind: actContainers, key: ps.pod.Key(), gen: rt.gen})
}

// containersDue runs what is due now in a modelled pod.
func (e *Engine) containersDue(key string, gen int64) {
	ps := e.pods.Get(key)
	if ps == nil || ps.rt == nil || ps.rt.gen != gen || ps.state != StateRunning {
		return
	}
	ps = e.mut(ps)
	ps.rt.scheduled = false
	if !e.kubeletAlive(ps.pod.Spec.NodeName) {
		return
	}
	e.advanceRuntime(ps)
}

// advanceRuntime applies every container change due now, moves the pod
// through its init containers, publishes the status and schedules what
// comes next.
func (e *Engine) advanceRuntime(ps *podState) {
	ps = e.owned(ps)
	rt := ps.rt
	now := e.Now()
	for range 1000 {
		changed := false
		for _, c := range rt.containers {
			if e.containerStep(ps, c, now) {
				changed = true
			}
		}
		if e.initStep(ps) {
			changed = true
		}
		if !changed {
			break
		}
	}
	if ps.state != StateRunning {
		return
	}
	if e.runtimeTerminal(ps) {
		return
	}
	e.publishRuntime(ps)
	e.scheduleRuntime(ps)
}

// containerStep applies one change of c due at now, if any.
func (e *Engine) containerStep(ps *podState, c *containerRT, now api.Time) bool {
	ps = e.owned(ps)
	rt := ps.rt
	key := ps.pod.Key()
	switch {
	case c.waiting != "":
		if c.restartAt <= now {
			e.startContainer(ps, c)
			return true
		}
		return false
	case c.killing:
		if c.killAt <= now {
			e.containerExited(ps, c, c.killCode, "Error")
			return true
		}
		return false
	case !c.running:
		return false
	}
	if x := c.behave.Exit; x != nil && c.start.Add(x.After) <= now {
		reason := "Completed"
		if x.Code != 0 {
			reason = "Error"
		}
		e.containerExited(ps, c, x.Code, reason)
		return true
	}
	for k := range c.workers {
		kind := probeKind(k)
		w := c.workers[k]
		// the first failed run of a streak: Unhealthy (before a transition
		// the same run may cause)
		if at, ok := rt.nextFailureStreak(c, kind); ok && at <= now {
			w.failCursor = at
			e.record(EventWarning, ReasonUnhealthy, podObject(key), kind.String()+" probe failed: "+kubelet.ProbeFailureMessage(w.probe.Handler))
			return true
		}
		at, res, ok := rt.nextTransition(c, kind)
		if !ok || at > now {
			continue
		}
		w.cursor, w.result = at, res
		switch kind {
		case probeStartup:
			if res {
				c.started = true
				w.anchor = -1 // the startup probe stops once it passed
				c.ready = c.spec.ReadinessProbe == nil
				// liveness and readiness keep their period from the
				// container's start and count runs from now on (doProbe
				// skips runs while the startup probe has not passed;
				// initialDelaySeconds is from the container's start)
				for _, o := range []probeKind{probeReadiness, probeLiveness} {
					if ow := c.workers[o]; ow != nil {
						ow.anchor, ow.cursor, ow.failCursor = c.start, at-1, at-1
						ow.timing.InitialDelay = max(ow.timing.InitialDelay, at.Sub(c.start))
					}
				}
			} else {
				e.killContainer(ps, c, "failed startup probe")
			}
		case probeReadiness:
			c.ready = res
		case probeLiveness:
			if !res {
				e.killContainer(ps, c, "failed liveness probe")
			}
		}
		return true
	}
	return false
}

// initStep moves the pod through its init containers one by one, then
// starts the regular containers together.
func (e *Engine) initStep(ps *podState) bool {
	ps = e.owned(ps)
	rt := ps.rt
	if rt.mainStarted {
		return false
	}
	inits := 0
	for _, c := range rt.containers {
		if c.init {
			inits++
		}
	}
	if rt.initDone < inits {
		c := rt.containers[rt.initDone]
		switch {
		case !c.running && c.term == nil && c.waiting == "":
			e.startContainer(ps, c)
			return true
		case c.sidecar && c.running && c.started:
			rt.initDone++
			return true
		case !c.sidecar && c.done && c.term != nil && c.term.ExitCode == 0:
			rt.initDone++
			return true
		}
		return false
	}
	rt.mainStarted = true
	rt.initializedAt = e.Now()
	for _, c := range rt.containers {
		if !c.init {
			e.startContainer(ps, c)
		}
	}
	return true
}

// publishRuntime writes the containers' state into the pod's status:
// container statuses, phase, Initialized, ContainersReady and Ready.
func (e *Engine) publishRuntime(ps *podState) {
	ps = e.owned(ps)
	rt := ps.rt
	now := e.Now()
	p := copyPod(ps.pod)
	var inits, mains []api.ContainerStatus
	containersReady := rt.mainStarted
	for _, c := range rt.containers {
		cs := api.ContainerStatus{Name: c.name, Ready: c.ready && c.running, RestartCount: c.restarts}
		started := c.running && c.started
		cs.Started = &started
		switch {
		case c.running:
			cs.State.Running = &api.ContainerStateRunning{StartedAt: c.start}
		case c.waiting != "":
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: c.waiting,
				Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s_%s(%s)", c.backoff.Delay, c.name, p.Name, p.Namespace, p.UID)}
		case c.term != nil:
			t := *c.term
			cs.State.Terminated = &t
		case c.init:
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: "PodInitializing"}
		default:
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: "PodInitializing"}
		}
		switch {
		case c.waiting != "" && c.term != nil:
			// backing off: the run that just ended is the last state
			t := *c.term
			cs.LastState.Terminated = &t
		case c.lastTerm != nil:
			t := *c.lastTerm
			cs.LastState.Terminated = &t
		}
		if c.init && !c.sidecar && c.done && c.term != nil && c.term.ExitCode == 0 {
			cs.Ready = true // a completed init container reports ready
		}
		if c.init {
			inits = append(inits, cs)
			if c.sidecar && !cs.Ready {
				containersReady = false
			}
			continue
		}
		mains = append(mains, cs)
		if !cs.Ready {
			containersReady = false
		}
	}
	p.Status.InitContainerStatuses, p.Status.ContainerStatuses = inits, mains
	if rt.mainStarted {
		if p.Status.Phase != api.PodRunning {
			p.Status.Phase = api.PodRunning
		}
	} else {
		p.Status.Phase = api.PodPending
	}
	initialized := api.ConditionFalse
	if rt.mainStarted {
		initialized = api.ConditionTrue
	}
	st := func(b bool) string {
		if b {
			return api.ConditionTrue
		}
		return api.ConditionFalse
	}
	p.Status.Conditions, _ = setCondition(p.Status.Conditions, api.Condition{Type: api.PodReadyToStartContainers, Status: api.ConditionTrue, LastTransitionTime: now})
	p.Status.Conditions, _ = setCondition(p.Status.Conditions, api.Condition{Type: api.PodInitialized, Status: initialized, LastTransitionTime: now})
	reason := ""
	if !containersReady {
		reason = "ContainersNotReady"
	}
	p.Status.Conditions, _ = setCondition(p.Status.Conditions, api.Condition{Type: api.ContainersReady, Status: st(containersReady), Reason: reason, LastTransitionTime: now})
	ready := containersReady && e.nodeReady(p.Spec.NodeName)
	var changed bool
	p.Status.Conditions, changed = setCondition(p.Status.Conditions, api.Condition{Type: api.PodReady, Status: st(ready), Reason: reason, LastTransitionTime: now})
	ps.unready = !containersReady
	e.setPodObject(ps, p)
	if changed {
		e.changes++
	}
	e.changes++
}
