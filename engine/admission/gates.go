package admission

import "podlab.dev/podlab/engine/api"

// Scheduling-gated condition values (k8s.io/api/core/v1 PodReasonSchedulingGated).
const (
	ReasonSchedulingGated  = "SchedulingGated"
	MessageSchedulingGated = "Scheduling is blocked due to non-empty scheduling gates"
)

// applySchedulingGatedCondition is the pod strategy's function of that
// name: a pod created with scheduling gates and no PodScheduled condition
// gets PodScheduled=False, reason SchedulingGated.
func applySchedulingGatedCondition(pod *api.Pod) {
	if len(pod.Spec.SchedulingGates) == 0 || pod.Condition(api.PodScheduled) != nil {
		return
	}
	pod.Status.Conditions = append(pod.Status.Conditions, api.Condition{
		Type: api.PodScheduled, Status: api.ConditionFalse,
		Reason: ReasonSchedulingGated, Message: MessageSchedulingGated,
	})
}
