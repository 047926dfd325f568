package engine

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/engine/scheduler"
)

// DeleteOptions are the API's delete options for a pod.
type DeleteOptions struct {
	// GracePeriodSeconds overrides the pod's terminationGracePeriodSeconds;
	// nil uses it.
	GracePeriodSeconds *int64
}

// KubectlDeleteOptions turns `kubectl delete pod` flags into API options
// as kubectl does (delete.go Complete): --grace-period=0 without --force
// becomes 1; --force without a grace period means 0. gracePeriod < 0 is
// "not given".
func KubectlDeleteOptions(gracePeriod int64, force bool) DeleteOptions {
	if gracePeriod == 0 && !force {
		gracePeriod = 1
	}
	if force && gracePeriod < 0 {
		gracePeriod = 0
	}
	if gracePeriod < 0 {
		return DeleteOptions{}
	}
	g := gracePeriod
	return DeleteOptions{GracePeriodSeconds: &g}
}

// DeletionGracePeriod is the grace period the API server deletes a pod
// with (pkg/registry/core/pod/strategy.go CheckGracefulDelete): the
// option if given, else spec.terminationGracePeriodSeconds (0 when
// unset); 0 for a pod not bound to a node or already terminal (deleted at
// once); a negative value becomes 1.
func DeletionGracePeriod(p *api.Pod, opts DeleteOptions) int64 {
	var period int64
	if opts.GracePeriodSeconds != nil {
		period = *opts.GracePeriodSeconds
	} else if p.Spec.TerminationGracePeriodSeconds != nil {
		period = *p.Spec.TerminationGracePeriodSeconds
	}
	if p.Spec.NodeName == "" || p.IsTerminal() {
		period = 0
	}
	if period < 0 {
		period = 1
	}
	return period
}

// DeletePod deletes a pod (namespace/name) as the API server does: with
// a grace period it is marked for deletion (deletionTimestamp,
// deletionGracePeriodSeconds) and the kubelet terminates it, the object
// going away when its containers are gone; with 0 it is removed at once
// (a kubelet still kills its containers). Deleting a pod already being
// deleted may only shorten its grace period (rest.BeforeDelete).
func (e *Engine) DeletePod(key string, opts DeleteOptions) error {
	err := e.deletePod(key, opts)
	e.settle()
	return err
}

func (e *Engine) deletePod(key string, opts DeleteOptions) error {
	ps := e.podW(key)
	if ps == nil {
		return fmt.Errorf("delete pod %s: not found", key)
	}
	now := e.Now()
	p := ps.pod
	if p.DeletionTimestamp != nil {
		cur := p.DeletionGracePeriodSeconds
		if cur == nil || *cur == 0 {
			e.removePod(key)
			return nil
		}
		if opts.GracePeriodSeconds == nil || *opts.GracePeriodSeconds >= *cur {
			return nil // graceful deletion pending: nothing changes
		}
		period := *opts.GracePeriodSeconds
		if period < 0 {
			period = 1
		}
		np := copyPod(p)
		ts := np.DeletionTimestamp.Add(-secondsDur(*cur)).Add(secondsDur(period))
		np.DeletionTimestamp = &ts
		np.DeletionGracePeriodSeconds = &period
		e.setPodObjectForScheduler(ps, np)
		e.changes++
		if period == 0 {
			e.startKill(ps, nil, false)
			e.removePod(key)
			return nil
		}
		e.startKill(ps, nil, false)
		return nil
	}
	period := DeletionGracePeriod(p, opts)
	np := copyPod(p)
	ts := now.Add(secondsDur(period))
	np.DeletionTimestamp = &ts
	np.DeletionGracePeriodSeconds = &period
	e.setPodObjectForScheduler(ps, np)
	e.queue.Delete(key)
	e.changes++
	if period == 0 {
		if ps.state == StateRunning || ps.state == StateTerminating {
			e.startKill(ps, nil, false)
		}
		e.removePod(key)
		return nil
	}
	if ps.state == StateTerminated {
		e.removePod(key)
		return nil
	}
	e.startKill(ps, nil, false)
	return nil
}

// startKill has the node's kubelet terminate a pod (or re-plan a
// termination whose grace period shrank): the pod worker's effective
// grace period, then kubelet.PlanKill. override is the kubelet's own
// (eviction) grace; evicted marks a kubelet eviction.
func (e *Engine) startKill(ps *podState, override *int64, evicted bool) {
	ps = e.owned(ps)
	now := e.Now()
	key := ps.pod.Key()
	node := ps.pod.Spec.NodeName
	prev := int64(0)
	if ps.kill != nil {
		prev = ps.kill.grace
		if override == nil {
			override = ps.kill.override
		}
		evicted = evicted || ps.kill.evicted
	}
	if ps.state == StateStarting && ps.kill == nil {
		// containers never started: nothing to kill
		ps.kill = &killState{gen: e.nextGen(), evicted: evicted, override: override}
		ps.state = StateTerminating
		e.podChanged(key, ps.id)
		e.clock.Schedule(now, action{kind: actPodGone, key: key, gen: ps.kill.gen})
		e.timelineW(key).killGen = ps.kill.gen
		return
	}
	grace, changed := kubelet.EffectiveGracePeriod(prev, ps.pod.DeletionGracePeriodSeconds, override, ps.pod.Spec.TerminationGracePeriodSeconds)
	if ps.kill != nil && !ps.kill.awaitingKubelet && !changed {
		return
	}
	ks := &killState{gen: e.nextGen(), grace: grace, evicted: evicted, override: override}
	ps.kill = ks
	ps.state = StateTerminating
	e.podChanged(key, ps.id)
	e.timelineW(key).killGen = ks.gen
	if !e.kubeletAlive(node) {
		ks.awaitingKubelet = true
		return
	}
	plan, err := kubelet.PlanKill(ps.pod, now, grace)
	if err != nil {
		// annotations were validated at creation
		plan = kubelet.KillPlan{Start: now, Grace: grace, Gone: now}
	}
	ks.plan = plan
	tl := e.timelineW(key)
	tl.plans = append(tl.plans, plan)
	if prev == 0 {
		for _, c := range plan.Containers {
			e.record(EventNormal, ReasonKilling, podObject(key), "Stopping container "+c.Name)
		}
	}
	e.clock.Schedule(plan.Gone, action{kind: actPodGone, key: key, gen: ks.gen})
}

// podGone: the kubelet saw every container exit. A deleted pod's object
// is removed (the kubelet's final delete with grace 0); an evicted one
// stays as Failed.
func (e *Engine) podGone(key string, gen int64) {
	tl := e.timelines.Get(key)
	if tl != nil && tl.killGen == gen && tl.gone == nil {
		tl = e.timelineW(key)
		at := e.Now()
		tl.gone = &at
		tl.killGen = 0
	}
	ps := e.pods.Get(key)
	if ps == nil || ps.kill == nil || ps.kill.gen != gen {
		return
	}
	ps = e.mut(ps)
	if ps.pod.DeletionTimestamp != nil {
		e.removePod(key)
		return
	}
	// evicted (or otherwise killed without deletion): phase Failed
	e.markTerminated(ps, api.PodFailed, "", "PodFailed")
}

// markTerminated puts a pod whose containers have all ended in a terminal
// phase (with reason, when given): not ready, holding no memory and no
// place in the scheduler's snapshot (terminal pods hold nothing), and
// wakes the pods its going may help.
func (e *Engine) markTerminated(ps *podState, phase, reason, readyReason string) {
	// the controllers' FinishPod hands a state straight from the map
	ps = e.mut(ps)
	p := copyPod(ps.pod)
	p.Status.Phase = phase
	if reason != "" {
		p.Status.Reason = reason
	}
	setReady(p, api.ConditionFalse, readyReason, e.Now())
	ps.state = StateTerminated
	e.countMemory(ps, false)
	ps.kill = nil
	e.setPodObject(ps, p)
	e.snap.RemovePod(p.Key())
	e.queue.MoveAllToActiveOrBackoff(scheduler.AssignedPodDelete, e.Now())
	e.ensurePressurePass(p.Spec.NodeName)
	e.changes++
}

// setReady sets the pod's PodReady and ContainersReady conditions.
func setReady(p *api.Pod, status, reason string, now api.Time) {
	for _, t := range []string{api.PodReady, api.ContainersReady} {
		p.Status.Conditions, _ = setCondition(p.Status.Conditions, api.Condition{Type: t, Status: status, Reason: reason, LastTransitionTime: now})
	}
}
