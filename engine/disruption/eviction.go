package disruption

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// Eviction API answers (pkg/registry/core/pod/storage/eviction.go).
const (
	// MessageViolatesBudget is the 429 refusal.
	MessageViolatesBudget = "Cannot evict pod as it would violate the pod's disruption budget."
	// MessageMultipleBudgets is the 500 refusal.
	MessageMultipleBudgets = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
	// ReasonEvictionByEvictionAPI is the DisruptionTarget condition reason.
	ReasonEvictionByEvictionAPI = "EvictionByEvictionAPI"
	// MessageEvictionByEvictionAPI is that condition's message.
	MessageEvictionByEvictionAPI = "Eviction API: evicting"
	// UnhealthyPodEvictionAlwaysAllow and …IfHealthyBudget are the
	// unhealthyPodEvictionPolicy values.
	UnhealthyPodEvictionAlwaysAllow     = "AlwaysAllow"
	UnhealthyPodEvictionIfHealthyBudget = "IfHealthyBudget"
)

// Decision is the Eviction API's answer for one pod.
type Decision struct {
	// Allowed: the pod is deleted (gracefully, with the DisruptionTarget
	// condition when it is not already terminal or terminating).
	Allowed bool
	// Code is the HTTP status: 201 allowed, 429 budget, 500 several budgets.
	Code int
	// Message is the API error message; Cause the detail upstream attaches
	// as a DisruptionBudget cause (kubectl prints only Message).
	Message string
	Cause   string
	// Budget is the namespace/name of the budget that decided, if any.
	Budget string
	// Decrement: the budget's disruptionsAllowed goes down by one and the
	// pod joins its disruptedPods (checkAndDecrement).
	Decrement bool
}

// CanIgnoreBudget is canIgnorePDB: terminal, pending and already
// terminating pods are deleted without consulting budgets.
func CanIgnoreBudget(pod *api.Pod) bool {
	switch pod.Status.Phase {
	case api.PodSucceeded, api.PodFailed, api.PodPending:
		return true
	}
	return pod.DeletionTimestamp != nil
}

// BudgetsFor returns the budgets the Eviction API applies to a pod
// (getPodDisruptionBudgets): same namespace, and a selector that is
// neither nil nor empty and matches the pod's labels.
func BudgetsFor(pod *api.Pod, pdbs []*api.PodDisruptionBudget) []*api.PodDisruptionBudget {
	var out []*api.PodDisruptionBudget
	for _, b := range pdbs {
		if b.Namespace != pod.Namespace || b.Spec.Selector == nil {
			continue
		}
		sel, err := api.CompileSelector(b.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(pod.Labels) {
			continue
		}
		out = append(out, b)
	}
	return out
}

// DecideEviction is EvictionREST.Create's decision for a pod given the
// budgets that apply to it (BudgetsFor) with their current status.
func DecideEviction(pod *api.Pod, budgets []*api.PodDisruptionBudget) Decision {
	ok := Decision{Allowed: true, Code: 201}
	if CanIgnoreBudget(pod) {
		return ok
	}
	if len(budgets) > 1 {
		return Decision{Code: 500, Message: MessageMultipleBudgets}
	}
	if len(budgets) == 0 {
		return ok
	}
	b := budgets[0]
	ok.Budget = b.Key()
	if !isPodReady(pod) {
		if b.Spec.UnhealthyPodEvictionPolicy != nil && *b.Spec.UnhealthyPodEvictionPolicy == UnhealthyPodEvictionAlwaysAllow {
			return ok
		}
		// IfHealthyBudget (the default): an unready pod may go while the
		// application is not disrupted, without using the budget.
		if b.Status.CurrentHealthy >= b.Status.DesiredHealthy && b.Status.DesiredHealthy > 0 {
			return ok
		}
	}
	// checkAndDecrement
	if b.Status.DisruptionsAllowed < 0 {
		return Decision{Code: 403, Budget: b.Key(), Message: fmt.Sprintf("poddisruptionbudgets.policy %q is forbidden: pdb disruptions allowed is negative", b.Name)}
	}
	if b.Status.DisruptionsAllowed == 0 {
		cause := fmt.Sprintf("The disruption budget %s does not allow evicting pods currently", b.Name)
		if b.Status.CurrentHealthy <= b.Status.DesiredHealthy {
			cause = fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", b.Name, b.Status.DesiredHealthy, b.Status.CurrentHealthy)
		}
		return Decision{Code: 429, Budget: b.Key(), Message: MessageViolatesBudget, Cause: cause}
	}
	ok.Decrement = true
	return ok
}
