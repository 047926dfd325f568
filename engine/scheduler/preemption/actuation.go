package preemption

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Carrying a preemption out is the engine's job; these helpers say what
// upstream's Executor.prepareCandidate and PreemptPod (preemption/executor.go,
// v1.36) do, so the engine can follow it exactly:
//  1. every victim not already terminating gets VictimCondition and is
//     deleted gracefully with its own grace period (VictimsToDelete);
//  2. an event "Preempted" (action "Preempting") with
//     PreemptedEventMessage is recorded on each;
//  3. pods of lower priority than the preemptor nominated to the same node
//     lose their nomination (LowerPriorityNominated);
//  4. the preemptor's status.nominatedNodeName is set to the node.

// DefaultSchedulerName is what an empty spec.schedulerName defaults to.
const DefaultSchedulerName = "default-scheduler"

// VictimCondition is the DisruptionTarget condition put on a victim.
func VictimCondition(preemptor *api.Pod, now api.Time) api.Condition {
	name := preemptor.Spec.SchedulerName
	if name == "" {
		name = DefaultSchedulerName
	}
	return api.Condition{
		Type:               api.DisruptionTarget,
		Status:             api.ConditionTrue,
		Reason:             ReasonPreemptionByScheduler,
		Message:            name + ": preempting to accommodate a higher priority pod",
		LastTransitionTime: now,
	}
}

// PreemptedEventMessage is the message of the "Preempted" event on a victim.
func PreemptedEventMessage(preemptor *api.Pod, node string) string {
	return fmt.Sprintf("Preempted by pod %s on node %s", preemptor.UID, node)
}

// VictimsToDelete drops victims whose graceful deletion already started:
// upstream sends no second API call for them (they still count as victims).
func VictimsToDelete(victims []*framework.PodInfo) []*framework.PodInfo {
	out := make([]*framework.PodInfo, 0, len(victims))
	for _, v := range victims {
		if v.Pod.DeletionTimestamp == nil {
			out = append(out, v)
		}
	}
	return out
}

// LowerPriorityNominated returns the pods nominated to the preemption's node
// whose priority is below the preemptor's: their nomination is cleared
// (getLowerPriorityNominatedPods).
func LowerPriorityNominated(nominated []*framework.PodInfo, preemptor *api.Pod) []*framework.PodInfo {
	var out []*framework.PodInfo
	prio := preemptor.PriorityValue()
	for _, p := range nominated {
		if p.Pod.PriorityValue() < prio {
			out = append(out, p)
		}
	}
	return out
}
