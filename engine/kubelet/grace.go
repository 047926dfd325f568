package kubelet

import "podlab.dev/podlab/engine/api"

// MinimumGracePeriodSeconds is the shortest SIGTERM-to-SIGKILL window a
// container gets after its preStop hook (kuberuntime_manager.go
// minimumGracePeriodInSeconds).
const MinimumGracePeriodSeconds int64 = 2

// EffectiveGracePeriod is the grace period the pod worker kills a pod
// with, as v1.36 pod_workers.go calculateEffectiveGracePeriod: it starts
// from the value already in force (previous, 0 when the pod was not yet
// terminating) and may only decrease: the API server's
// deletionGracePeriodSeconds, then the kubelet's own override (node-pressure
// eviction). With neither it is the pod's terminationGracePeriodSeconds.
// Whatever the result, it is at least 1 s. changed reports a shortened
// grace period for a pod already terminating (the pod worker then restarts
// the kill with it).
func EffectiveGracePeriod(previous int64, deletionGrace, override, specGrace *int64) (grace int64, changed bool) {
	grace = previous
	overridden := false
	if deletionGrace != nil && (grace == 0 || *deletionGrace < grace) {
		grace, overridden = *deletionGrace, true
	}
	if override != nil && (grace == 0 || *override < grace) {
		grace, overridden = *override, true
	}
	if !overridden && grace == 0 && specGrace != nil {
		grace = *specGrace
	}
	if grace < 1 {
		grace = 1
	}
	return grace, previous != 0 && previous != grace
}

// ContainerKillReason says why one container is killed outside pod
// termination.
type ContainerKillReason int

// Kill reasons (kuberuntime containerKillReason).
const (
	ReasonUnknown ContainerKillReason = iota
	ReasonLivenessProbe
	ReasonStartupProbe
)

// ContainerGracePeriod is the grace period killContainer starts from
// (kuberuntime_container.go setTerminationGracePeriod, then the override):
// the override when given (pod termination always passes the pod worker's
// effective grace period), else the probe's terminationGracePeriodSeconds
// for a probe kill, else the pod's terminationGracePeriodSeconds, else 2 s.
func ContainerGracePeriod(pod *api.Pod, c *api.Container, reason ContainerKillReason, override *int64) int64 {
	if override != nil {
		return *override
	}
	grace := MinimumGracePeriodSeconds
	if pod.DeletionGracePeriodSeconds != nil {
		return *pod.DeletionGracePeriodSeconds
	}
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *pod.Spec.TerminationGracePeriodSeconds
		if reason != ReasonUnknown && c.ProbeTerminationGracePeriodSeconds != nil {
			grace = *c.ProbeTerminationGracePeriodSeconds
		}
	}
	return grace
}
