package engine

import (
	"fmt"
	"sort"
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
	ps.rt = newRuntime(ps.pod)
	e.advanceRuntime(ps)
}

// restoreRuntime attaches the runtime to a pod restored with a recorded
// status: containers run since their recorded start with their recorded
// restarts and readiness; the next probe runs one period from now.
func (e *Engine) restoreRuntime(ps *podState) {
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
			c.workers[k] = &probeWorker{probe: pr, timing: t, anchor: now.Add(t.Period), initial: initial, cursor: now, result: initial}
		}
	}
	rt.mainStarted = true
	e.scheduleRuntime(ps)
}

func (c *containerRT) probes() [3]*api.Probe {
	return [3]*api.Probe{c.spec.StartupProbe, c.spec.ReadinessProbe, c.spec.LivenessProbe}
}

// startContainer runs (or reruns) a container now.
func (e *Engine) startContainer(ps *podState, c *containerRT) {
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
		w := &probeWorker{probe: pr, timing: kubelet.TimingOf(pr), anchor: now, initial: initial, cursor: now - 1, result: initial}
		if probeKind(k) != probeStartup && c.spec.StartupProbe != nil {
			w.anchor = -1 // set when the startup probe passes
		}
		c.workers[k] = w
	}
	if e.started {
		e.record(EventNormal, ReasonStarted, podObject(ps.pod.Key()), "Started container "+c.name)
	}
}

// segments are a probe's outcomes over the container's current run.
func (rt *podRuntime) segments(c *containerRT, kind probeKind) []kubelet.Segment {
	up := c.start.Add(c.behave.ReadyAfter)
	var failAt *api.Time
	if kind == probeLiveness && c.behave.LivenessFailsAt != nil {
		t := c.start.Add(*c.behave.LivenessFailsAt)
		failAt = &t
	}
	outcome := func(t api.Time) bool {
		for i := len(rt.overrides) - 1; i >= 0; i-- {
			// an override issued at T acts on probe runs after T: the
			// runs due at T ran before the command (actions first)
			if o := rt.overrides[i]; o.At < t && (o.Kind == kind || !o.Broken) {
				if o.Broken {
					return false
				}
				break
			}
		}
		if t < up {
			return false
		}
		return failAt == nil || t < *failAt
	}
	points := []api.Time{c.start, up}
	if failAt != nil {
		points = append(points, *failAt)
	}
	for _, o := range rt.overrides {
		points = append(points, o.At+1)
	}
	sort.Slice(points, func(i, j int) bool { return points[i] < points[j] })
	var segs []kubelet.Segment
	for _, p := range points {
		if p < c.start {
			p = c.start
		}
		o := outcome(p)
		if n := len(segs); n > 0 && (segs[n-1].At == p || segs[n-1].Success == o) {
			if segs[n-1].At == p {
				segs[n-1].Success = o
			}
			continue
		}
		segs = append(segs, kubelet.Segment{At: p, Success: o})
	}
	return segs
}

// nextTransition is a worker's next published change after its cursor.
func (rt *podRuntime) nextTransition(c *containerRT, kind probeKind) (api.Time, bool, bool) {
	w := c.workers[kind]
	if w == nil || w.anchor < 0 {
		return 0, false, false
	}
	segs := rt.segments(c, kind)
	if len(segs) > 0 && segs[0].At > w.anchor {
		segs[0].At = w.anchor
	}
	at, res, ok := kubelet.NextProbeTransition(w.timing, w.anchor, w.initial, segs, w.cursor)
	if kind == probeStartup && !c.started {
		// a failure run reaching failureThreshold kills the container
		// before any success: ask again with success assumed
		fat, fres, fok := kubelet.NextProbeTransition(w.timing, w.anchor, true, segs, w.cursor)
		if fok && !fres && (!ok || fat < at) {
			return fat, false, true
		}
	}
	return at, res, ok
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
		}
	}
	return best, ok
}

// scheduleRuntime schedules the pod's next container change.
func (e *Engine) scheduleRuntime(ps *podState) {
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
	ps := e.pods[key]
	if ps == nil || ps.rt == nil || ps.rt.gen != gen || ps.state != StateRunning {
		return
	}
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
						ow.anchor, ow.cursor = c.start, at-1
						ow.timing.InitialDelay = max(ow.timing.InitialDelay, at.Sub(c.start))
					}
				}
			} else {
				e.record(EventWarning, ReasonUnhealthy, podObject(key), "Startup probe failed: "+kubelet.ProbeFailureMessage(w.probe.Handler))
				e.killContainer(ps, c, "failed startup probe")
			}
		case probeReadiness:
			c.ready = res
			if !res {
				e.record(EventWarning, ReasonUnhealthy, podObject(key), "Readiness probe failed: "+kubelet.ProbeFailureMessage(w.probe.Handler))
			}
		case probeLiveness:
			if !res {
				e.record(EventWarning, ReasonUnhealthy, podObject(key), "Liveness probe failed: "+kubelet.ProbeFailureMessage(w.probe.Handler))
				e.killContainer(ps, c, "failed liveness probe")
			}
		}
		return true
	}
	return false
}

// killContainer is the kubelet killing a container whose liveness or
// startup probe failed, through the graceful path (kuberuntime_container.go
// killContainer): the grace period is the failing probe's
// terminationGracePeriodSeconds, else the pod's (ContainerGracePeriod);
// the preStop hook runs first and uses it up; SIGTERM then gets what is
// left, at least 2 s; the app exits after lab.podlab.dev/terminate-after
// (143) or is killed when the time is up (137). A readiness failure never
// kills.
func (e *Engine) killContainer(ps *podState, c *containerRT, why string) {
	now := e.Now()
	e.record(EventNormal, ReasonKilling, podObject(ps.pod.Key()), fmt.Sprintf("Container %s %s, will be restarted", c.name, why))
	reason := kubelet.ReasonLivenessProbe
	if !c.started {
		reason = kubelet.ReasonStartupProbe
	}
	grace := kubelet.ContainerGracePeriod(ps.pod, c.spec, reason, nil)
	if reason == kubelet.ReasonStartupProbe && c.spec.StartupProbe != nil && c.spec.StartupProbe.TerminationGracePeriodSeconds != nil {
		grace = *c.spec.StartupProbe.TerminationGracePeriodSeconds
	}
	term := now
	remaining := grace
	if d, ok := kubelet.PreStopDuration(c.spec); ok && grace > 0 {
		d = min(d, time.Duration(grace)*time.Second)
		term = now.Add(d)
		remaining = grace - int64(d/time.Second)
	}
	remaining = max(remaining, kubelet.MinimumGracePeriodSeconds)
	exit, _ := kubelet.ShutdownTime(ps.pod)
	c.killing, c.ready = true, false
	if exit == kubelet.Never || exit > time.Duration(remaining)*time.Second {
		c.killAt, c.killCode = term.Add(time.Duration(remaining)*time.Second), 137
	} else {
		c.killAt, c.killCode = term.Add(exit), 143
	}
}

// containerExited handles a container that ended: restart per policy
// (with CrashLoopBackOff), or stay terminated.
func (e *Engine) containerExited(ps *podState, c *containerRT, code int32, reason string) {
	now := e.Now()
	c.term = &api.ContainerStateTerminated{ExitCode: code, Reason: reason, StartedAt: c.start, FinishedAt: now}
	c.running, c.ready, c.killing = false, false, false
	if !restarts(ps.pod.Spec.RestartPolicy, c, code) {
		c.done = true
		return
	}
	at, b := c.backoff.RestartAt(now)
	c.backoff = b
	if at <= now {
		e.startContainer(ps, c)
		return
	}
	c.waiting, c.restartAt = "CrashLoopBackOff", at
	p := ps.pod
	e.record(EventWarning, ReasonBackOff, podObject(p.Key()), fmt.Sprintf("Back-off restarting failed container %s in pod %s_%s(%s)", c.name, p.Name, p.Namespace, p.UID))
}

// restarts is the kubelet's restart decision: a sidecar always restarts;
// other containers per the pod's restartPolicy (an init container under
// Always restarts on failure only, it must complete).
func restarts(policy string, c *containerRT, code int32) bool {
	if c.sidecar {
		return true
	}
	switch policy {
	case "Never":
		return false
	case "OnFailure":
		return code != 0
	}
	if c.init {
		return code != 0
	}
	return true
}

// initStep moves the pod through its init containers one by one, then
// starts the regular containers together.
func (e *Engine) initStep(ps *podState) bool {
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

// runtimeTerminal ends a pod whose containers are all done for good
// (restartPolicy Never/OnFailure, or an init container that failed under
// Never): Succeeded when every regular container exited 0, else Failed.
func (e *Engine) runtimeTerminal(ps *podState) bool {
	rt := ps.rt
	failedInit := false
	allDone, anyFailed := true, false
	for _, c := range rt.containers {
		if c.init && !c.sidecar {
			if c.done && c.term != nil && c.term.ExitCode != 0 {
				failedInit = true
			}
			continue
		}
		if c.sidecar {
			continue
		}
		if !c.done {
			allDone = false
		} else if c.term != nil && c.term.ExitCode != 0 {
			anyFailed = true
		}
	}
	if !failedInit && (!rt.mainStarted || !allDone) {
		return false
	}
	e.publishRuntime(ps)
	phase := api.PodSucceeded
	if failedInit || anyFailed {
		phase = api.PodFailed
	}
	e.markTerminated(ps, phase, "", "PodCompleted")
	return true
}

// publishRuntime writes the containers' state into the pod's status:
// container statuses, phase, Initialized, ContainersReady and Ready.
func (e *Engine) publishRuntime(ps *podState) {
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

// BreakProbe makes a running pod's readiness or liveness probe fail from
// now on (`break pod NAME readiness|liveness`).
func (e *Engine) BreakProbe(key, probe string) error {
	ps, kind, err := e.probeTarget(key, probe)
	if err != nil {
		return err
	}
	ps.rt.overrides = append(ps.rt.overrides, probeOverride{At: e.Now(), Kind: kind, Broken: true})
	e.rescheduleRuntime(ps)
	return nil
}

// HealProbes makes a pod's probes behave as annotated again (`heal pod
// NAME`).
func (e *Engine) HealProbes(key string) error {
	ps := e.pods[key]
	if ps == nil {
		return fmt.Errorf("pod %s not found", key)
	}
	if ps.rt == nil || len(ps.rt.overrides) == 0 {
		return fmt.Errorf("pod %s has no broken probe to heal", key)
	}
	ps.rt.overrides = append(ps.rt.overrides, probeOverride{At: e.Now(), Broken: false})
	e.rescheduleRuntime(ps)
	return nil
}

func (e *Engine) probeTarget(key, probe string) (*podState, probeKind, error) {
	ps := e.pods[key]
	if ps == nil {
		return nil, 0, fmt.Errorf("pod %s not found", key)
	}
	var kind probeKind
	switch probe {
	case "readiness":
		kind = probeReadiness
	case "liveness":
		kind = probeLiveness
	default:
		return nil, 0, fmt.Errorf("probe %q: use readiness or liveness", probe)
	}
	if ps.state != StateRunning || ps.rt == nil {
		if ps.state == StateRunning && !hasProbe(ps.pod, kind) {
			return nil, 0, fmt.Errorf("pod %s has no %s probe: without one its containers count as %s (add a %sProbe to the template)", key, probe, map[probeKind]string{probeReadiness: "ready once started", probeLiveness: "alive until they exit"}[kind], probe)
		}
		return nil, 0, fmt.Errorf("pod %s is not running (%s)", key, ps.state)
	}
	if !hasProbe(ps.pod, kind) {
		return nil, 0, fmt.Errorf("pod %s has no %s probe: without one its containers count as %s (add a %sProbe to the template)", key, probe, map[probeKind]string{probeReadiness: "ready once started", probeLiveness: "alive until they exit"}[kind], probe)
	}
	return ps, kind, nil
}

func hasProbe(p *api.Pod, kind probeKind) bool {
	for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			c := &cs[i]
			if (kind == probeReadiness && c.ReadinessProbe != nil) || (kind == probeLiveness && c.LivenessProbe != nil) {
				return true
			}
		}
	}
	return false
}

// rescheduleRuntime re-plans a pod after its probe outcomes changed.
func (e *Engine) rescheduleRuntime(ps *podState) {
	ps.rt.scheduled = false
	e.advanceRuntime(ps)
	e.settle()
}

// ContainerRestarts returns, for a modelled pod, each container's
// restart count and whether it waits in CrashLoopBackOff (for views).
func (e *Engine) ContainerRestarts(key string) (restarts int32, crashLooping bool) {
	ps := e.pods[key]
	if ps == nil {
		return 0, false
	}
	for _, cs := range ps.pod.Status.ContainerStatuses {
		restarts += cs.RestartCount
		if cs.State.Waiting != nil && cs.State.Waiting.Reason == "CrashLoopBackOff" {
			crashLooping = true
		}
	}
	for _, cs := range ps.pod.Status.InitContainerStatuses {
		restarts += cs.RestartCount
		if cs.State.Waiting != nil && cs.State.Waiting.Reason == "CrashLoopBackOff" {
			crashLooping = true
		}
	}
	return restarts, crashLooping
}
