package admission

import "podlab.dev/podlab/engine/api"

// AdmitPod prepares a pod being created, in the API server's order:
// defaulting (api.DefaultPod), the pod strategy's PrepareForCreate
// (pkg/registry/core/pod/strategy.go: SchedulingGated condition,
// matchLabelKeys/mismatchLabelKeys merged into pod affinity terms), then the
// Priority and DefaultTolerationSeconds admission plugins. classes holds the
// cluster's PriorityClasses by name; the built-in system-cluster-critical
// and system-node-critical exist even when classes lacks them.
//
// Unlike PrepareForCreate it keeps a status the pod already has, so pods
// imported from a running cluster keep their phase. Topology spread
// matchLabelKeys are left to the scheduler (its PodTopologySpread plugin
// applies them itself, with the same result).
//
// On error (a ForbiddenError, as the API server would answer) the pod is
// rejected and must not be used. AdmitPod is idempotent.
func AdmitPod(pod *api.Pod, classes map[string]*api.PriorityClass) error {
	api.DefaultPod(pod)
	priority, err := resolvePriority(pod, classes)
	if err != nil {
		return err
	}
	applySchedulingGatedCondition(pod)
	mergeAffinityLabelKeys(pod)
	priority.apply(pod)
	addDefaultTolerations(pod)
	return nil
}
