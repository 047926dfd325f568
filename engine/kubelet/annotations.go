package kubelet

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
)

// Modelling annotations: what the lab must know about a pod that
// Kubernetes does not store. Scenarios stay valid manifests.
const (
	// AnnotationTerminateAfter is how long the app takes to exit after
	// SIGTERM ("5s"), or "never" when it ignores SIGTERM and is killed.
	AnnotationTerminateAfter = "lab.podlab.dev/terminate-after"
	// AnnotationStartup is the time from binding to Running and Ready ("3s").
	AnnotationStartup = "lab.podlab.dev/startup"
	// AnnotationMemoryUsage is the pod's memory working set: an absolute
	// quantity ("900Mi") or a percentage of its memory request, else of its
	// memory limit ("120%").
	AnnotationMemoryUsage = "lab.podlab.dev/memory-usage"
)

// Defaults of the modelled behaviour.
const (
	DefaultTerminateAfter = time.Second
	DefaultStartup        = 2 * time.Second
	// DefaultBestEffortMemoryUsage is the usage of a pod with no memory
	// request or limit and no usage annotation.
	DefaultBestEffortMemoryUsage int64 = 64 << 20
)

// Never is the shutdown time of a container that ignores SIGTERM.
const Never time.Duration = -1

// ParseLabDuration parses an annotation duration: a Go duration ("1.5s",
// "2m") or a bare number of seconds ("5").
func ParseLabDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(n) { // every comparison below is false for it
			return 0, fmt.Errorf("duration %q is not a number", s)
		}
		if n < 0 {
			return 0, fmt.Errorf("duration %q is negative", s)
		}
		if n*float64(time.Second) >= math.MaxInt64 {
			return 0, fmt.Errorf("duration %q is too long", s)
		}
		return time.Duration(n * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("duration %q: %w", s, err)
	}
	if d < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	return d, nil
}

// ShutdownTime is how long the pod's containers take to exit after
// SIGTERM (AnnotationTerminateAfter), or Never.
func ShutdownTime(pod *api.Pod) (time.Duration, error) {
	v, ok := pod.Annotations[AnnotationTerminateAfter]
	if !ok {
		return DefaultTerminateAfter, nil
	}
	if strings.EqualFold(strings.TrimSpace(v), "never") {
		return Never, nil
	}
	d, err := ParseLabDuration(v)
	if err != nil {
		return 0, fmt.Errorf("annotation %s: %w", AnnotationTerminateAfter, err)
	}
	return d, nil
}

// StartupDelay is the time from binding to Running and Ready.
func StartupDelay(pod *api.Pod) (time.Duration, error) {
	v, ok := pod.Annotations[AnnotationStartup]
	if !ok {
		return DefaultStartup, nil
	}
	d, err := ParseLabDuration(v)
	if err != nil {
		return 0, fmt.Errorf("annotation %s: %w", AnnotationStartup, err)
	}
	return d, nil
}

// MemoryRequest is the pod's effective memory request in bytes, as the
// kubelet's GetResourceRequestQuantity (init containers and overhead
// included).
func MemoryRequest(pod *api.Pod) int64 {
	return api.PodRequest(pod, api.ResourceMemory).Value()
}

// MemoryLimit is the pod's memory limit in bytes (0 when unlimited).
func MemoryLimit(pod *api.Pod) int64 {
	return api.PodLimits(pod)[api.ResourceMemory].Value()
}

// ParseMemoryUsage resolves a usage spec ("900Mi" or "120%") for a pod: a
// percentage is of the memory request, else of the memory limit.
func ParseMemoryUsage(pod *api.Pod, spec string) (int64, error) {
	spec = strings.TrimSpace(spec)
	if pct, ok := strings.CutSuffix(spec, "%"); ok {
		f, err := strconv.ParseFloat(pct, 64)
		if err != nil {
			return 0, fmt.Errorf("memory usage %q: not a percentage", spec)
		}
		if !(f >= 0 && f <= api.MaxUsagePercent) { // NaN too
			return 0, fmt.Errorf("memory usage %q: give a percentage from 0%% to %d%%", spec, api.MaxUsagePercent)
		}
		base := MemoryRequest(pod)
		if base == 0 {
			base = MemoryLimit(pod)
		}
		if base == 0 {
			return 0, fmt.Errorf("memory usage %q: pod %s has no memory request or limit to take a percentage of", spec, pod.Key())
		}
		u := f * float64(base) / 100
		if u > float64(api.MaxMemoryUsage) {
			return 0, fmt.Errorf("memory usage %q: %.0f bytes is more than the lab models (at most 1Pi)", spec, u)
		}
		return int64(u), nil
	}
	q, err := api.ParseQuantity(spec)
	if err != nil {
		return 0, fmt.Errorf("memory usage %q: %w", spec, err)
	}
	if q < 0 {
		return 0, fmt.Errorf("memory usage %q is negative", spec)
	}
	if q.Value() > api.MaxMemoryUsage {
		return 0, fmt.Errorf("memory usage %q is more than the lab models (at most 1Pi)", spec)
	}
	return q.Value(), nil
}

// MemoryUsage is the pod's modelled working set: the annotation when set,
// else its request, else its limit, else DefaultBestEffortMemoryUsage.
func MemoryUsage(pod *api.Pod) (int64, error) {
	if v, ok := pod.Annotations[AnnotationMemoryUsage]; ok {
		u, err := ParseMemoryUsage(pod, v)
		if err != nil {
			return 0, fmt.Errorf("annotation %s: %w", AnnotationMemoryUsage, err)
		}
		return u, nil
	}
	if r := MemoryRequest(pod); r > 0 {
		return r, nil
	}
	if l := MemoryLimit(pod); l > 0 {
		return l, nil
	}
	return DefaultBestEffortMemoryUsage, nil
}

// IsCriticalPod is kubelettypes.IsCriticalPod: static and mirror pods and
// pods at system-critical priority or above are never evicted by the
// kubelet.
func IsCriticalPod(pod *api.Pod) bool {
	if src, ok := pod.Annotations["kubernetes.io/config.source"]; ok && src != "api" {
		return true
	}
	if _, ok := pod.Annotations["kubernetes.io/config.mirror"]; ok {
		return true
	}
	return pod.Spec.Priority != nil && *pod.Spec.Priority >= api.SystemCriticalPriority
}
