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
	return ok && availableSince(t, minReadySeconds, now)
}

// availableSince is isPodAvailable for a pod ready since t.
func availableSince(t api.Time, minReadySeconds int32, now api.Time) bool {
	return minReadySeconds == 0 || t.Add(time.Duration(minReadySeconds)*time.Second) < now
}

// availableAt returns when a ready pod becomes available under
// minReadySeconds (ok false for a pod that is not ready).
func availableAt(p *api.Pod, minReadySeconds int32) (api.Time, bool) {
	t, ok := podReadyTime(p)
	if !ok {
		return 0, false
	}
	return availableAtSince(t, minReadySeconds), true
}

// availableAtSince is availableAt for a pod ready since t.
func availableAtSince(t api.Time, minReadySeconds int32) api.Time {
	// strictly after ready+minReadySeconds; the smallest virtual instant after it.
	return t.Add(time.Duration(minReadySeconds)*time.Second + 1)
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

// maxContainerRestarts is controller_utils.go maxContainerRestarts: the
// most restarts of a regular container, and separately of a sidecar
// (an init container with restartPolicy Always; kubernetes#124952, since
// 1.31). Other init containers do not count.
func maxContainerRestarts(p *api.Pod) (regular, sidecar int32) {
	for _, c := range p.Status.ContainerStatuses {
		regular = max(regular, c.RestartCount)
	}
	if len(p.Status.InitContainerStatuses) == 0 {
		return regular, 0
	}
	for _, c := range p.Status.InitContainerStatuses {
		if isSidecarName(p, c.Name) {
			sidecar = max(sidecar, c.RestartCount)
		}
	}
	return regular, sidecar
}

func isSidecarName(p *api.Pod, name string) bool {
	for i := range p.Spec.InitContainers {
		if p.Spec.InitContainers[i].Name == name {
			return p.Spec.InitContainers[i].IsSidecar()
		}
	}
	return false
}

// compareMaxContainerRestarts is controller_utils.go
// compareMaxContainerRestarts: regular containers' restarts first, then
// sidecars'; ok is false when both are equal.
func compareMaxContainerRestarts(a, b *api.Pod) (aMore, ok bool) {
	ra, sa := maxContainerRestarts(a)
	rb, sb := maxContainerRestarts(b)
	if ra != rb {
		return ra > rb, true
	}
	if sa != sb {
		return sa > sb, true
	}
	return false, false
}
