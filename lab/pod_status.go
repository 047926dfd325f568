package lab

import (
	"fmt"

	"podlab.dev/podlab/engine/admission"
	"podlab.dev/podlab/engine/api"
)

// nodeUnreachablePodReason is the node lifecycle controller's reason for
// pods of an unreachable node (pkg/util/node NodeUnreachablePodReason).
const nodeUnreachablePodReason = "NodeLost"

// PodStatus is the STATUS column of `kubectl get pods`
// (pkg/printers/internalversion/printers.go:924 printPod): the phase or
// status reason; SchedulingGated while PodScheduled says so (:938);
// Init:… while an init container has not finished; the last regular
// container's waiting or terminated reason (CrashLoopBackOff,
// ContainerCreating, Completed, Error…), Running again when a container
// still runs; Terminating for a pod being deleted.
func PodStatus(p *api.Pod) string {
	reason := p.Status.Phase
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodScheduled && c.Reason == admission.ReasonSchedulingGated {
			reason = admission.ReasonSchedulingGated
		}
	}
	sidecar := map[string]bool{}
	for i := range p.Spec.InitContainers {
		sidecar[p.Spec.InitContainers[i].Name] = p.Spec.InitContainers[i].IsSidecar()
	}
	initializing := false
	for i, cs := range p.Status.InitContainerStatuses {
		t, w := cs.State.Terminated, cs.State.Waiting
		switch {
		case t != nil && t.ExitCode == 0:
			continue
		case sidecar[cs.Name] && cs.Started != nil && *cs.Started:
			continue
		case t != nil:
			reason = "Init:" + terminatedReason(t)
		case w != nil && w.Reason != "" && w.Reason != "PodInitializing":
			reason = "Init:" + w.Reason
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(p.Spec.InitContainers))
		}
		initializing = true
		break
	}
	if init := p.Condition(api.PodInitialized); !initializing || (init != nil && init.Status == api.ConditionTrue) {
		hasRunning, errorReason := false, ""
		for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
			cs := p.Status.ContainerStatuses[i]
			switch {
			case cs.State.Waiting != nil && cs.State.Waiting.Reason != "":
				reason = cs.State.Waiting.Reason
			case cs.State.Terminated != nil:
				reason = terminatedReason(cs.State.Terminated)
				if cs.State.Terminated.ExitCode != 0 {
					errorReason = reason
				}
			case cs.Ready && cs.State.Running != nil:
				hasRunning = true
			}
		}
		if reason == "Completed" {
			switch {
			case hasRunning && p.Condition(api.PodReady) != nil && p.Condition(api.PodReady).Status == api.ConditionTrue:
				reason = "Running"
			case errorReason != "":
				reason = errorReason
			case hasRunning:
				reason = "NotReady"
			}
		}
	}
	terminal := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
	switch {
	case p.DeletionTimestamp != nil && p.Status.Reason == nodeUnreachablePodReason:
		reason = "Unknown"
	case p.DeletionTimestamp != nil && !terminal:
		reason = "Terminating"
	}
	return reason
}

// terminatedReason is a terminated container's reason, else its signal
// or exit code, as printPod writes them.
func terminatedReason(t *api.ContainerStateTerminated) string {
	switch {
	case t.Reason != "":
		return t.Reason
	case t.Signal != 0:
		return fmt.Sprintf("Signal:%d", t.Signal)
	}
	return fmt.Sprintf("ExitCode:%d", t.ExitCode)
}
