package engine

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// RestorePod adds a pod that existed before the scenario started (a
// scenario's own pods, an imported cluster), keeping what its status
// records instead of starting it afresh: the API server drops a new pod's
// status, but these pods are not new. Before the clock first moves it
// keeps, for a pod bound to a node:
//
//   - metadata.creationTimestamp (the ranking of ReplicaSet scale-down and
//     of DaemonSet/Job pods reads it);
//   - phase: Running and Unknown as recorded; Pending means the kubelet is
//     still starting it (it starts after the start-up delay); Succeeded and
//     Failed pods hold nothing on their node;
//   - startTime (preemption's victim order), conditions with their
//     lastTransitionTime (Ready drives ReplicaSet ranking, Deployment and
//     ReplicaSet availability, PDB health and eviction), reason, message;
//   - containerStatuses and initContainerStatuses (restart counts, state,
//     last state).
//
// What the status leaves out gets the lab's t=0 defaults: Running, every
// condition True at the pod's start, containers ready with no restarts;
// ContainersReady follows a recorded Ready. An unbound pod keeps only its
// creationTimestamp (and a terminal phase); once the clock moved,
// RestorePod is CreatePod.
func (e *Engine) RestorePod(p *api.Pod) error {
	if p == nil || p.Name == "" {
		return fmt.Errorf("restore pod: the pod needs a name")
	}
	if e.started {
		return e.CreatePod(p)
	}
	rec := copyPod(p)
	if rec.Namespace == "" {
		rec.Namespace = "default"
	}
	return e.createPod(p, rec)
}

// restoreStatus lays the recorded status over the one the engine gave
// the pod when it bound and started it at t=0.
func (e *Engine) restoreStatus(ps *podState, rec *api.Pod) {
	ps = e.owned(ps)
	p := copyPod(ps.pod)
	st := &rec.Status
	if st.Phase == api.PodRunning || st.Phase == api.PodUnknown {
		p.Status.Phase = st.Phase
	}
	if st.StartTime != nil {
		at := *st.StartTime
		p.Status.StartTime = &at
	}
	p.Status.Reason, p.Status.Message = st.Reason, st.Message
	recorded := map[string]bool{}
	for _, c := range st.Conditions {
		recorded[c.Type] = true
		p.Status.Conditions = replaceCondition(p.Status.Conditions, c)
	}
	if ready := rec.Condition(api.PodReady); ready != nil && !recorded[api.ContainersReady] {
		p.Status.Conditions = replaceCondition(p.Status.Conditions, api.Condition{Type: api.ContainersReady, Status: ready.Status, LastTransitionTime: ready.LastTransitionTime})
	}
	if !recorded[api.PodReady] {
		// no Ready recorded: ready since the pod started (when known)
		if c := p.Condition(api.PodReady); c != nil && c.Status == api.ConditionTrue && st.StartTime != nil {
			for _, t := range []string{api.PodInitialized, api.ContainersReady, api.PodReady, api.PodScheduled} {
				if !recorded[t] {
					if c := p.Condition(t); c != nil {
						c.LastTransitionTime = *st.StartTime
					}
				}
			}
		}
	}
	ready := podReadyStatus(p)
	if len(st.ContainerStatuses) > 0 {
		p.Status.ContainerStatuses = cloneContainerStatuses(st.ContainerStatuses)
	} else {
		for i := range p.Status.ContainerStatuses {
			p.Status.ContainerStatuses[i].Ready = ready
		}
	}
	if len(st.InitContainerStatuses) > 0 {
		p.Status.InitContainerStatuses = cloneContainerStatuses(st.InitContainerStatuses)
	}
	ps.unready = !containersReadyStatus(p)
	e.setPodObject(ps, p)
	// modelled pods keep being probed; a container recorded in
	// CrashLoopBackOff is modelled too, so that it restarts when its
	// back-off ends (then it runs, unless an annotation says it exits)
	if ps.state == StateRunning && (ps.rt != nil || recordedCrashLoop(p)) {
		e.restoreRuntime(ps)
	}
	e.changes++
}

// restoreTerminal stores a pod that had finished before the scenario
// started: it holds nothing on its node and waits for whatever deletes it.
func (e *Engine) restoreTerminal(ps *podState, rec *api.Pod) {
	ps = e.owned(ps)
	p := copyPod(ps.pod)
	p.Status = rec.Status
	p.Status.Conditions = append([]api.Condition(nil), rec.Status.Conditions...)
	p.Status.ContainerStatuses = cloneContainerStatuses(rec.Status.ContainerStatuses)
	p.Status.InitContainerStatuses = cloneContainerStatuses(rec.Status.InitContainerStatuses)
	p.Status.QOSClass = api.ComputePodQOS(p)
	ps.pod = p
	e.podChanged(p.Key(), ps.id)
	ps.state = StateTerminated
	at := e.Now()
	e.timelineW(p.Key()).gone = &at
	e.changes++
	e.settle()
}

// replaceCondition sets a condition as given, its LastTransitionTime
// included (setCondition keeps the old time when the status is the same).
func replaceCondition(conds []api.Condition, c api.Condition) []api.Condition {
	for i := range conds {
		if conds[i].Type == c.Type {
			conds[i] = c
			return conds
		}
	}
	return append(conds, c)
}

func podReadyStatus(p *api.Pod) bool {
	c := p.Condition(api.PodReady)
	return c != nil && c.Status == api.ConditionTrue
}

func containersReadyStatus(p *api.Pod) bool {
	c := p.Condition(api.ContainersReady)
	if c == nil {
		return podReadyStatus(p)
	}
	return c.Status == api.ConditionTrue
}

// cloneContainerStatuses copies statuses deep enough that the engine may
// change a state without touching the caller's objects.
func cloneContainerStatuses(in []api.ContainerStatus) []api.ContainerStatus {
	if in == nil {
		return nil
	}
	out := make([]api.ContainerStatus, len(in))
	for i, c := range in {
		out[i] = c
		out[i].State = cloneContainerState(c.State)
		out[i].LastState = cloneContainerState(c.LastState)
		if c.Started != nil {
			b := *c.Started
			out[i].Started = &b
		}
	}
	return out
}

func cloneContainerState(s api.ContainerState) api.ContainerState {
	var out api.ContainerState
	if s.Waiting != nil {
		w := *s.Waiting
		out.Waiting = &w
	}
	if s.Running != nil {
		r := *s.Running
		out.Running = &r
	}
	if s.Terminated != nil {
		t := *s.Terminated
		out.Terminated = &t
	}
	return out
}

// recordedCrashLoop reports a container status waiting in CrashLoopBackOff
// with its last termination recorded.
func recordedCrashLoop(p *api.Pod) bool {
	for _, list := range [][]api.ContainerStatus{p.Status.ContainerStatuses, p.Status.InitContainerStatuses} {
		for _, cs := range list {
			if cs.State.Waiting != nil && cs.State.Waiting.Reason == "CrashLoopBackOff" && cs.LastState.Terminated != nil {
				return true
			}
		}
	}
	return false
}
