package engine

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// PreemptionMessage is the victims' DisruptionTarget message when the
// preemptor runs in the default profile (preemption executor:
// "<schedulerName>: preempting to accommodate a higher priority pod").
const PreemptionMessage = "default-scheduler: preempting to accommodate a higher priority pod"

// ReasonPreemptionByScheduler is the victims' DisruptionTarget reason.
const ReasonPreemptionByScheduler = "PreemptionByScheduler"

// scheduleAll runs scheduling cycles until the queue has nothing to try
// at this instant (schedule_one.go ScheduleOne in a loop; a cycle takes
// no virtual time). It reports whether anything changed.
func (e *Engine) scheduleAll() bool {
	now := e.Now()
	progressed := false
	attempted := map[string]bool{}
	for {
		pi := e.queue.Pop(now)
		if pi == nil {
			break
		}
		key := pi.Pod.Key()
		ps := e.pods.Get(key)
		if ps == nil || ps.state != StatePending {
			e.queue.Done(key)
			continue
		}
		ps = e.mut(ps) // pending: always owned (Clone copies pending pods)
		if attempted[key] {
			// popped again at the same instant (an event of this instant
			// moved it to podBackoffQ and Pop took it from there, as
			// SchedulerPopFromBackoffQ does): upstream would retry it at
			// once; the engine puts it back, uncounted and still a
			// plugin-rejected pod (AddError would make it an error pod
			// and hold it for its whole backoff), and retries it at the
			// next instant the scheduler runs or at its backoff expiry
			// (a wake-up is scheduled below), so that one instant
			// cannot loop.
			e.queue.Requeue(pi, now)
			break
		}
		attempted[key] = true
		progressed = true
		// the queue's PodInfo may be older than the pod object
		if pi.Pod != ps.pod {
			info := *pi
			info.Pod = ps.pod
			pi = &info
		}
		ps.info = pi
		if !e.handles(ps.pod.Spec.SchedulerName) {
			// no profile has the pod's scheduler name: upstream never
			// queues it (responsibleForPod), so no attempt and no event;
			// SetScheduler queues it again
			e.queue.Done(key)
			ps.schedMessage = fmt.Sprintf("waiting for scheduler %q: no profile has that schedulerName", ps.pod.Spec.SchedulerName)
			continue
		}
		res := e.sched.ScheduleOne(pi)
		if res.Node != "" {
			if err := BindingRefused(ps.pod); err != nil {
				// handleBindingCycleError: the assumed pod is forgotten
				// (an AssignedPodDelete for the others), then the failure
				// is an error: SchedulerError, FailedScheduling, podErrorBackoffQ
				e.queue.MoveAllToActiveOrBackoff(scheduler.AssignedPodDelete, now)
				res = scheduler.Result{Message: err.Error(), Err: err}
			}
		}
		switch {
		case res.Node != "":
			e.queue.Done(key)
			e.sched.Nominator().DeleteNominatedPod(key)
			e.bind(ps, res.Node, false)
			e.record(EventNormal, ReasonScheduled, podObject(key), fmt.Sprintf("Successfully assigned %s to %s", key, res.Node))
		case res.Err != nil:
			// an error clears the pod's nomination (clearNominatedNode)
			e.clearNomination(ps)
			e.failedAttempt(ps, key, api.PodReasonSchedulerError, res.Message)
			e.queue.AddError(pi, now)
		default:
			if res.NominatedNode != "" {
				e.preempt(ps, res.NominatedNode, res.Victims)
				pi = ps.info
			} else if res.ClearNomination {
				e.clearNomination(ps)
				pi = ps.info
			}
			e.failedAttempt(ps, key, api.PodReasonUnschedulable, res.Message)
			e.queue.AddUnschedulable(pi, res.Plugins, now)
		}
	}
	if at, ok := e.queue.NextBackoffExpiry(); ok && at > now && (e.schedWake == nil || *e.schedWake != at) {
		e.schedWake = &at
		e.clock.Schedule(at, action{kind: actScheduleWake})
	}
	return progressed
}

// preempt carries out a preemption decision (preemption executor
// prepareCandidate): each victim gets the DisruptionTarget condition and
// is deleted gracefully with its own grace period, lower-priority pods
// nominated to the node lose their nomination, and the preemptor is
// nominated to the node.
func (e *Engine) preempt(preemptor *podState, node string, victims []*framework.PodInfo) {
	preemptor = e.owned(preemptor)
	for _, v := range victims {
		key := v.Pod.Key()
		ps := e.pods.Get(key)
		if ps == nil || ps.pod.DeletionTimestamp != nil {
			continue
		}
		ps = e.mut(ps)
		e.record(EventNormal, ReasonPreempted, podObject(key), fmt.Sprintf("Preempted by pod %s on node %s", preemptor.pod.UID, node))
		e.addDisruptionTarget(ps, ReasonPreemptionByScheduler, preemptionMessage(preemptor.pod))
		_ = e.deletePod(key, DeleteOptions{})
	}
	prio := preemptor.pod.PriorityValue()
	nom := e.sched.Nominator()
	for _, other := range append([]*framework.PodInfo(nil), nom.NominatedPodsForNode(node)...) {
		okey := other.Pod.Key()
		ops := e.pods.Get(okey)
		if ops == nil || okey == preemptor.pod.Key() || ops.pod.PriorityValue() >= prio {
			continue
		}
		ops = e.mut(ops)
		e.clearNomination(ops)
		e.queue.Update(ops.info, e.Now())
	}
	p := copyPod(preemptor.pod)
	p.Status.NominatedNodeName = node
	e.setPodObject(preemptor, p)
	nom.AddNominatedPod(preemptor.info, node)
	e.changes++
}

// clearNomination is handleSchedulingFailure with clearNominatedNode
// (schedule_one.go:172, the nominating info of every error, including a
// refused binding, :535): the nominator forgets the pod (AddNominatedPod
// in ModeOverride with no node, :1277) and its status.nominatedNodeName
// is patched to "" (updatePod's nnnNeedsUpdate, :1323), so no space is
// held for it any more.
func (e *Engine) clearNomination(ps *podState) {
	e.sched.Nominator().DeleteNominatedPod(ps.pod.Key()) // a no-op when it has none
	if ps.pod.Status.NominatedNodeName == "" {
		return
	}
	p := copyPod(ps.pod)
	p.Status.NominatedNodeName = ""
	e.setPodObject(ps, p)
}

// preemptionMessage names the preemptor's scheduler (executor.go:130:
// preemptor.SchedulerName(), the profile that preempted).
func preemptionMessage(preemptor *api.Pod) string {
	name := preemptor.Spec.SchedulerName
	if name == "" || name == api.DefaultSchedulerName {
		return PreemptionMessage
	}
	return name + ": preempting to accommodate a higher priority pod"
}

// failedAttempt records a failed scheduling attempt (an error or a
// rejection): the message the snapshot shows, the PodScheduled condition
// and the FailedScheduling event.
func (e *Engine) failedAttempt(ps *podState, key, reason, message string) {
	ps.schedMessage = message
	e.setUnschedulableCondition(ps, reason, message)
	e.record(EventWarning, ReasonFailedScheduling, podObject(key), message)
}

// setUnschedulableCondition records a failed scheduling attempt in the
// pod's PodScheduled condition as handleSchedulingFailure does
// (schedule_one.go: reason Unschedulable when a plugin rejected the pod or
// there is no node, SchedulerError for an internal error; the message is
// the FailedScheduling message). The last transition time is kept while
// the status stays False (podutil.UpdatePodCondition), and an unchanged
// condition installs no new pod object, as upstream skips the update.
func (e *Engine) setUnschedulableCondition(ps *podState, reason, message string) {
	if c := ps.pod.Condition(api.PodScheduled); c != nil && c.Status == api.ConditionFalse && c.Reason == reason && c.Message == message {
		return
	}
	p := copyPod(ps.pod)
	p.Status.Conditions, _ = setCondition(p.Status.Conditions, api.Condition{
		Type: api.PodScheduled, Status: api.ConditionFalse, Reason: reason, Message: message, LastTransitionTime: e.Now(),
	})
	e.setPodObject(ps, p)
}

// addDisruptionTarget sets the DisruptionTarget condition on a pod.
func (e *Engine) addDisruptionTarget(ps *podState, reason, message string) {
	ps = e.owned(ps)
	p := copyPod(ps.pod)
	p.Status.Conditions, _ = setCondition(p.Status.Conditions, api.Condition{
		Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: reason, Message: message, LastTransitionTime: e.Now(),
	})
	e.setPodObject(ps, p)
}

// PendingPod is a pod waiting for a node and why.
type PendingPod struct {
	Pod           string
	Message       string // the last FailedScheduling message
	NominatedNode string
}
