package admission

import "podlab.dev/podlab/engine/api"

// AdmitPod prepares a pod being created as the API server does: defaulting
// (api.DefaultPod plus port defaulting), the Priority and DefaultTolerationSeconds mutating
// admission plugins, then the pod strategy's PrepareForCreate
// (pkg/registry/core/pod/strategy.go: generation 1, SchedulingGated
// condition, matchLabelKeys/mismatchLabelKeys merged into pod affinity
// terms). Priority runs first here because it is the step that can reject
// the pod; the steps touch different fields, so the result is the API
// server's. classes holds the cluster's PriorityClasses by name; the
// built-in system-cluster-critical and system-node-critical exist even when
// classes lacks them.
//
// Unlike PrepareForCreate it keeps a status the pod already has, so pods
// imported from a running cluster keep their phase. Topology spread
// matchLabelKeys are left in place: the 1.36 API server also merges them
// (MatchLabelKeysInPodTopologySpreadSelectorMerge), but the scheduler's
// PodTopologySpread applies them itself, which selects the same pods.
//
// On error (a *ForbiddenError, worded as the API server's answer) the pod
// is rejected and must not be used; defaulting may already have changed
// it. AdmitPod is idempotent.
func AdmitPod(pod *api.Pod, classes map[string]*api.PriorityClass) error {
	api.DefaultPod(pod)
	defaultPorts(pod)
	priority, err := resolvePriority(pod, classes)
	if err != nil {
		return err
	}
	priority.apply(pod)
	addDefaultTolerations(pod)
	if pod.Generation == 0 {
		pod.Generation = 1
	}
	applySchedulingGatedCondition(pod)
	mergeAffinityLabelKeys(pod)
	return nil
}
