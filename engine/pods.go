package engine

import (
	"fmt"
	"sort"

	"podlab.dev/podlab/engine/admission"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// CreatePod creates a pod as the API server would: defaulting, admission
// (Config.Admit), then the scheduling queue — or, with spec.nodeName set,
// straight to the node's kubelet. A pod created with spec.nodeName before
// the clock first moves (a scenario's already-bound pods) is Running and
// Ready at once; later ones go through ContainerCreating.
func (e *Engine) CreatePod(p *api.Pod) error { return e.createPod(p, nil) }

// createPod is CreatePod; rec, for RestorePod, is the status the pod had
// before the scenario started.
func (e *Engine) createPod(p *api.Pod, rec *api.Pod) error {
	if p == nil || p.Name == "" {
		return fmt.Errorf("create pod: the pod needs a name")
	}
	return e.createPodObject(copyPod(p), rec)
}

// createOwnedPod is CreatePod for a pod the caller hands over (the
// controllers' freshly built pods): on success the engine keeps p itself
// instead of a copy, so the caller must not change it afterwards (it may
// read it, as it reads the objects it lists). On failure p is given back
// as it came: the copy's top-level fields are all createPod's edits
// could reach, exactly as with copyPod.
func (e *Engine) createOwnedPod(p *api.Pod) error {
	if p == nil || p.Name == "" {
		return fmt.Errorf("create pod: the pod needs a name")
	}
	saved := *p
	err := e.createPodObject(p, nil)
	if err != nil {
		*p = saved
	}
	return err
}

// createPodObject is createPod on an object the engine owns.
func (e *Engine) createPodObject(p *api.Pod, rec *api.Pod) error {
	if rec != nil {
		p.Status = api.PodStatus{}
	}
	api.DefaultPod(p)
	key := p.Key()
	if len(p.Spec.SchedulingGates) > 0 && p.Spec.NodeName != "" {
		// ValidatePodCreate (pkg/apis/core/validation): a controller whose
		// template sets both gets FailedCreate with this message
		return fmt.Errorf("Pod %q is invalid: spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared", p.Name)
	}
	if _, ok := e.pods.Lookup(key); ok {
		return fmt.Errorf("create pod %s: already exists", key)
	}
	if err := e.CheckObjects("pods", p.Name, 1); err != nil {
		return err
	}
	admit := e.cfg.Admit
	if admit == nil {
		admit = DefaultAdmit
	}
	if err := admit(e, p); err != nil {
		return fmt.Errorf("create pod %s: %w", key, err)
	}
	usage, err := kubelet.MemoryUsage(p)
	if err != nil {
		return fmt.Errorf("create pod %s: %w", key, err)
	}
	if _, err := kubelet.ShutdownTime(p); err != nil {
		return fmt.Errorf("create pod %s: %w", key, err)
	}
	startup, err := kubelet.StartupDelay(p)
	if err != nil {
		return fmt.Errorf("create pod %s: %w", key, err)
	}
	if err := kubelet.ValidateBehaviour(p); err != nil {
		return fmt.Errorf("create pod %s: %w", key, err)
	}
	if p.UID == "" {
		p.UID = e.nextUID()
	}
	now := e.Now()
	if rec == nil {
		p.CreationTimestamp = now
	}
	p.Status.Phase = api.PodPending
	e.podSeq++
	ps := &podState{owner: e.own, pod: p, id: e.podSeq, usage: usage}
	e.pods.Set(e.own, key, ps)
	e.podKeyAdded(key)
	e.podChanged(key, ps.id)
	e.indexPod(key, p.Spec.NodeName)
	e.timelines.Set(e.own, key, &podTimeline{owner: e.own, created: now})
	e.changes++
	if rec != nil && rec.IsTerminal() {
		e.restoreTerminal(ps, rec)
		return nil
	}
	if p.Spec.NodeName == "" {
		if c := p.Condition(api.PodScheduled); c == nil {
			// a gated pod keeps its SchedulingGated reason from admission
			p.Status.Conditions = append(p.Status.Conditions, api.Condition{Type: api.PodScheduled, Status: api.ConditionFalse, LastTransitionTime: now})
		} else if c.Reason == admission.ReasonSchedulingGated && c.LastTransitionTime == 0 {
			// admission's new condition transitions now, as
			// podutil.UpdatePodCondition stamps it (strategy.go:941)
			c.LastTransitionTime = now
		}
		ps.info = framework.NewPodInfo(p)
		e.queue.Add(ps.info, now)
		e.settle()
		return nil
	}
	if e.nodes[p.Spec.NodeName] == nil {
		// A pod bound to a missing node is deleted by the pod GC.
		e.record(EventWarning, ReasonFailedScheduling, podObject(key), fmt.Sprintf("node %q not found", p.Spec.NodeName))
		e.removePod(key)
		return nil
	}
	if reason, msg := e.kubeletAdmit(p); reason != "" {
		// the kubelet rejects a pod bound to a node it does not fit
		now := e.Now()
		p.Status.Phase = api.PodFailed
		p.Status.Reason = reason
		p.Status.Message = "Pod was rejected: " + msg
		at := now
		p.Status.StartTime = &at
		ps.state = StateTerminated
		e.timelineW(key).gone = &at
		e.record(EventWarning, reason, podObject(key), msg)
		e.settle()
		return nil
	}
	// A restored pod still in phase Pending is still starting: the
	// kubelet starts it after the start-up delay.
	preBound := !e.started && (rec == nil || rec.Status.Phase != api.PodPending)
	e.bind(ps, p.Spec.NodeName, preBound)
	if preBound || startup == 0 {
		e.podStarted(key, ps.startGen)
	}
	if rec != nil {
		e.restoreStatus(ps, rec)
	}
	e.settle()
	return nil
}

// kubeletAdmit is the kubelet's resource admission for a pod bound
// directly to its node (lifecycle/predicate.go: the first insufficient
// resource, in NodeResourcesFit order — pods, cpu, memory).
func (e *Engine) kubeletAdmit(p *api.Pod) (reason, message string) {
	ni := e.snap.Get(p.Spec.NodeName)
	if ni == nil {
		return "", ""
	}
	req := framework.NewPodInfo(p).Requests
	type check struct {
		name                 string
		want, used, capacity int64
	}
	for _, c := range []check{
		{api.ResourcePods, 1, int64(len(ni.Pods)), ni.Allocatable.AllowedPods},
		{api.ResourceCPU, req.MilliCPU, ni.Requested.MilliCPU, ni.Allocatable.MilliCPU},
		{api.ResourceMemory, req.Memory, ni.Requested.Memory, ni.Allocatable.Memory},
	} {
		if c.want > 0 && c.used+c.want > c.capacity {
			return "OutOf" + c.name, fmt.Sprintf("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d", c.name, c.want, c.used, c.capacity)
		}
	}
	return "", ""
}

// bind assigns a pending pod to a node (binding + the kubelet accepting
// it): PodScheduled, status.startTime, ContainerCreating.
func (e *Engine) bind(ps *podState, node string, preBound bool) {
	ps = e.owned(ps)
	now := e.Now()
	p := copyPod(ps.pod)
	p.Spec.NodeName = node
	key := p.Key() // once: each call builds the string
	e.indexPod(key, node)
	p.Status.NominatedNodeName = ""
	p.Status.Conditions, _ = setCondition(p.Status.Conditions, api.Condition{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: now})
	at := now
	p.Status.StartTime = &at
	ps.pod = p
	e.podChanged(key, ps.id)
	if ps.info == nil {
		ps.info = framework.NewPodInfo(p)
	} else {
		info := *ps.info
		info.Pod = p
		ps.info = &info
	}
	ps.infoShared = false
	e.snap.AddPod(ps.info)
	ps.state = StateStarting
	tl := e.timelineW(key)
	tl.scheduled = &at
	tl.node = node
	ps.startGen = e.nextGen()
	if !preBound {
		startup, _ := kubelet.StartupDelay(p)
		e.clock.Schedule(now.Add(startup), action{kind: actPodStarted, key: key, gen: ps.startGen})
	}
	e.queue.MoveAllToActiveOrBackoff(scheduler.AssignedPodAdd, now)
	e.taintCheckPod(ps)
	e.ensurePressurePass(node)
	e.changes++
}

// podStarted: the containers run; the pod is Running and Ready.
func (e *Engine) podStarted(key string, gen int64) {
	ps := e.pods.Get(key)
	if ps == nil || ps.startGen != gen || ps.state != StateStarting {
		return
	}
	if !e.kubeletAlive(ps.pod.Spec.NodeName) {
		// the kubelet is unreachable: it starts the pod when it is back
		return
	}
	ps = e.mut(ps)
	now := e.Now()
	if needsRuntime(ps.pod) {
		ps.state = StateRunning
		e.podChanged(key, ps.id) // the state changed, not the object
		e.countMemory(ps, true)
		at := now
		e.timelineW(key).running = &at
		e.startRuntime(ps)
		e.ensurePressurePass(ps.pod.Spec.NodeName)
		e.changes++
		return
	}
	p := copyPod(ps.pod)
	p.Status.Phase = api.PodRunning
	ready := api.ConditionTrue
	if !e.nodeReady(p.Spec.NodeName) {
		ready = api.ConditionFalse
	}
	for _, t := range []string{api.PodInitialized, api.ContainersReady, api.PodReady} {
		st := ready
		if t == api.PodInitialized {
			st = api.ConditionTrue
		}
		p.Status.Conditions, _ = setCondition(p.Status.Conditions, api.Condition{Type: t, Status: st, LastTransitionTime: now})
	}
	p.Status.ContainerStatuses = nil
	for _, c := range p.Spec.Containers {
		// running since now, as the kubelet reports a started container
		// (describe shows "State: Running, Started: …")
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, api.ContainerStatus{Name: c.Name, Ready: ready == api.ConditionTrue,
			State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: now}}})
	}
	e.setPodObject(ps, p)
	ps.state = StateRunning
	e.countMemory(ps, true)
	at := now
	e.timelineW(key).running = &at
	if e.started {
		for _, c := range p.Spec.Containers {
			e.record(EventNormal, ReasonStarted, podObject(key), "Started container "+c.Name)
		}
	}
	e.ensurePressurePass(p.Spec.NodeName)
	e.changes++
}

// setPodObject installs a pod object whose change does not matter to
// scheduling (status: phase, conditions, nomination): the PodInfo the
// snapshot and queue hold now points at it.
func (e *Engine) setPodObject(ps *podState, p *api.Pod) {
	ps = e.mut(ps)
	ps.pod = p
	e.podChanged(p.Key(), ps.id)
	if ps.info == nil {
		return
	}
	if ps.infoShared {
		// a clone's snapshot holds this PodInfo: install a new one in its
		// place in ours
		info := *ps.info
		info.Pod = p
		e.snap.ReplacePodInfo(ps.info, &info)
		ps.info, ps.infoShared = &info, false
		return
	}
	ps.info.Pod = p
}

// setPodObjectForScheduler installs a pod object whose change matters to
// scheduling (labels, deletionTimestamp): the snapshot updates its
// indexes.
func (e *Engine) setPodObjectForScheduler(ps *podState, p *api.Pod) {
	ps = e.mut(ps)
	ps.pod = p
	key := p.Key()
	e.podChanged(key, ps.id)
	if ps.info != nil {
		info := *ps.info
		info.Pod = p
		ps.info, ps.infoShared = &info, false
		if e.snap.NodeOfPod(key) != nil {
			e.snap.UpdatePod(ps.info)
		}
	}
}

// removePod deletes a pod object from the store ("Deleted" event). A
// pod whose containers still run on a live node keeps dying there.
func (e *Engine) removePod(key string) {
	ps := e.podW(key)
	if ps == nil {
		return
	}
	e.countMemory(ps, false)
	e.pods.Delete(e.own, key)
	e.podKeyRemoved(key)
	e.podChanged(key, ps.id)
	if node := ps.pod.Spec.NodeName; e.podsByNode[node] != nil {
		m := e.podSetW(node).keys
		delete(m, key)
		if len(m) == 0 {
			delete(e.podsByNode, node)
		}
	}
	bound := e.snap.NodeOfPod(key) != nil
	e.snap.RemovePod(key)
	e.queue.Delete(key)
	e.sched.Nominator().DeleteNominatedPod(key)
	if bound {
		e.queue.MoveAllToActiveOrBackoff(scheduler.AssignedPodDelete, e.Now())
	}
	e.record(EventNormal, ReasonDeleted, podObject(key), "pod removed")
	// Without a kill in progress on a live kubelet the containers are
	// gone with the object (never started, or their node went away).
	if tl := e.timelines.Get(key); tl != nil && tl.gone == nil && (ps.kill == nil || ps.kill.awaitingKubelet || e.nodes[ps.pod.Spec.NodeName] == nil) {
		tl = e.timelineW(key)
		at := e.Now()
		tl.gone = &at
		tl.killGen = 0
	}
	e.podRemovedForDrains(key)
	if node := ps.pod.Spec.NodeName; node != "" {
		e.ensurePressurePass(node)
	}
	e.changes++
}

// Pod returns a pod object by namespace/name (nil if none). Do not
// modify it.
func (e *Engine) Pod(key string) *api.Pod {
	if ps := e.pods.Get(key); ps != nil {
		return ps.pod
	}
	return nil
}

// PodState returns where a pod is in its life.
func (e *Engine) PodState(key string) (PodState, bool) {
	if ps := e.pods.Get(key); ps != nil {
		return ps.state, true
	}
	return 0, false
}

// Pods returns every pod sorted by namespace/name. Do not modify them.
func (e *Engine) Pods() []*api.Pod {
	keys := e.sortedPodKeys()
	out := make([]*api.Pod, len(keys))
	for i, k := range keys {
		out[i] = e.pods.Get(k).pod
	}
	return out
}

// SetPodUsage sets a pod's modelled memory working set ("900Mi", or a
// percentage of its request, else limit: "120%").
func (e *Engine) SetPodUsage(key, spec string) error {
	ps := e.podW(key)
	if ps == nil {
		return fmt.Errorf("usage pod %s: not found", key)
	}
	u, err := kubelet.ParseMemoryUsage(ps.pod, spec)
	if err != nil {
		return fmt.Errorf("usage pod %s: %w", key, err)
	}
	if ps.memCounted {
		e.countMemory(ps, false)
		ps.usage = u
		e.countMemory(ps, true)
	} else {
		ps.usage = u
	}
	if n := ps.pod.Spec.NodeName; n != "" {
		e.ensurePressurePass(n)
	}
	e.changes++
	e.settle()
	return nil
}

// PodUsage returns a pod's modelled memory usage in bytes.
func (e *Engine) PodUsage(key string) int64 {
	if ps := e.pods.Get(key); ps != nil {
		return ps.usage
	}
	return 0
}

// AddPDB creates or replaces a PodDisruptionBudget.
func (e *Engine) AddPDB(pdb *api.PodDisruptionBudget) error {
	if pdb == nil || pdb.Name == "" {
		return fmt.Errorf("add pdb: the budget needs a name")
	}
	c := *pdb
	if c.Namespace == "" {
		c.Namespace = "default"
	}
	if _, err := api.CompileSelector(c.Spec.Selector); err != nil {
		return fmt.Errorf("add pdb %s: %w", c.Key(), err)
	}
	if c.Spec.MinAvailable != nil && c.Spec.MaxUnavailable != nil {
		return fmt.Errorf("add pdb %s: minAvailable and maxUnavailable cannot both be set", c.Key())
	}
	if c.UID == "" {
		c.UID = e.nextUID()
	}
	c.Status = api.PDBStatus{}
	e.pdbs[c.Key()] = &c
	e.changes++
	e.settle()
	return nil
}

// RemovePDB deletes a budget.
func (e *Engine) RemovePDB(key string) error {
	if e.pdbs[key] == nil {
		return fmt.Errorf("remove pdb %s: not found", key)
	}
	delete(e.pdbs, key)
	e.changes++
	return nil
}

// AddPriorityClass creates or replaces a PriorityClass.
func (e *Engine) AddPriorityClass(pc *api.PriorityClass) error {
	if pc == nil || pc.Name == "" {
		return fmt.Errorf("add priority class: the class needs a name")
	}
	if pc.GlobalDefault {
		for _, other := range e.classes {
			if other.GlobalDefault && other.Name != pc.Name {
				return fmt.Errorf("add priority class %s: %s is already the global default", pc.Name, other.Name)
			}
		}
	}
	c := *pc
	e.classes[c.Name] = &c
	return nil
}

// PriorityClass returns a class by name (built-in ones included).
func (e *Engine) PriorityClass(name string) *api.PriorityClass {
	if c, ok := e.classes[name]; ok {
		return c
	}
	return admission.BuiltinClasses()[name]
}

// PriorityClasses returns the user-defined classes sorted by name.
func (e *Engine) PriorityClasses() []*api.PriorityClass {
	out := make([]*api.PriorityClass, 0, len(e.classes))
	for _, c := range e.classes {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// AddNamespace records a namespace and its labels.
func (e *Engine) AddNamespace(ns *api.Namespace) error {
	if ns == nil || ns.Name == "" {
		return fmt.Errorf("add namespace: the namespace needs a name")
	}
	c := *ns
	e.namespaces[c.Name] = &c
	e.snap.SetNamespace(c.Name, c.Labels)
	e.changes++
	return nil
}
