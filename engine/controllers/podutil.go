package controllers

import (
	"strconv"
	"time"

	"podlab.dev/podlab/engine/api"
)

// isPodActive is controller.IsPodActive: not terminal and not being deleted.
func isPodActive(p *api.Pod) bool {
	return p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.DeletionTimestamp == nil
}

// isPodTerminating is controller.isPodTerminating: being deleted but not yet terminal.
func isPodTerminating(p *api.Pod) bool {
	return !p.IsTerminal() && p.DeletionTimestamp != nil
}

// readyCondition returns the pod's Ready condition, or nil.
func readyCondition(p *api.Pod) *api.Condition { return p.Condition(api.PodReady) }

// isPodReady is podutil.IsPodReady: the Ready condition is True.
func isPodReady(p *api.Pod) bool {
	c := readyCondition(p)
	return c != nil && c.Status == api.ConditionTrue
}

// podReadyTime is controller_utils.go podReadyTime: when a ready pod became
// ready; ok is false where upstream returns the zero time.
func podReadyTime(p *api.Pod) (t api.Time, ok bool) {
	c := readyCondition(p)
	if c == nil || c.Status != api.ConditionTrue {
		return 0, false
	}
	return c.LastTransitionTime, true
}

// isPodAvailable is podutil.IsPodAvailable: ready, and ready for longer than
// minReadySeconds (strictly: LastTransitionTime+minReady before now).
func isPodAvailable(p *api.Pod, minReadySeconds int32, now api.Time) bool {
	t, ok := podReadyTime(p)
	if !ok {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	return t.Add(time.Duration(minReadySeconds)*time.Second) < now
}

// availableAt returns when a ready pod becomes available under
// minReadySeconds (ok false for a pod that is not ready).
func availableAt(p *api.Pod, minReadySeconds int32) (api.Time, bool) {
	t, ok := podReadyTime(p)
	if !ok {
		return 0, false
	}
	// strictly after ready+minReadySeconds; the smallest virtual instant after it.
	return t.Add(time.Duration(minReadySeconds)*time.Second + 1), true
}

// deletionCost is helper.GetDeletionCostFromPodAnnotations: the
// controller.kubernetes.io/pod-deletion-cost annotation as an int32, 0 when
// absent or invalid (the API server rejects invalid values; the lab's loader
// reports them, the controller treats them as 0 like upstream's error path).
func deletionCost(p *api.Pod) int32 {
	s, ok := p.Annotations[api.AnnotationPodDeletionCost]
	if !ok {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0
	}
	return int32(v)
}

// maxContainerRestarts is controller_utils.go maxContainerRestarts (the lab
// has no init-container statuses, so sidecar restarts are always 0).
func maxContainerRestarts(p *api.Pod) int32 {
	var m int32
	for _, c := range p.Status.ContainerStatuses {
		m = max(m, c.RestartCount)
	}
	return m
}
