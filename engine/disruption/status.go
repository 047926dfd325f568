package disruption

import (
	"fmt"
	"sort"
	"time"

	"podlab.dev/podlab/engine/api"
)

// DeletionTimeout is how long an eviction the budget allowed counts as a
// disruption before the pod is seen deleted (disruption.go DeletionTimeout).
const DeletionTimeout = 2 * time.Minute

// ScaleFunc returns the scale of the controller a pod's controllerRef
// points to (Deployment for a ReplicaSet it owns, ReplicaSet,
// StatefulSet, ReplicationController, or any workload with a scale
// subresource) and the controller's UID, as the disruption controller's
// finders do. ok is false when no such controller exists.
type ScaleFunc func(namespace string, ref api.OwnerReference) (uid string, scale int32, ok bool)

// Selects reports whether the disruption controller counts a pod for a
// budget: same namespace and matched by the selector (an empty selector
// selects every pod, a nil one none — LabelSelectorAsSelector).
func Selects(pdb *api.PodDisruptionBudget, sel api.Selector, pod *api.Pod) bool {
	return pod.Namespace == pdb.Namespace && sel.Matches(pod.Labels)
}

// StatusResult is a computed budget status and what went wrong on the way.
type StatusResult struct {
	Status api.PDBStatus
	// UnmanagedPods are selected pods without a controller (the
	// controller's UnmanagedPods warning); they do not count towards a
	// percentage or maxUnavailable budget's expected pods.
	UnmanagedPods []string
	// Err is set when the expected count could not be computed (a pod's
	// controller has no scale): upstream's failSafe then sets
	// disruptionsAllowed to 0.
	Err error
}

// ComputeStatus is the disruption controller's trySync for one budget:
// pods are the budget's namespace's pods it selects (terminal ones
// included, as the pod lister returns them). expectedPods and
// desiredHealthy follow getExpectedPodCount: maxUnavailable and a
// percentage minAvailable scale against the sum of the owning controllers'
// scales (rounding up); an integer minAvailable expects the number of
// selected pods. currentHealthy counts Ready pods that are not being
// deleted and were not recently allowed an eviction (disruptedPods within
// DeletionTimeout). disruptionsAllowed = currentHealthy − desiredHealthy,
// 0 when negative or when no pods are expected.
func ComputeStatus(pdb *api.PodDisruptionBudget, pods []*api.Pod, scale ScaleFunc, now api.Time) StatusResult {
	var r StatusResult
	expected, desired, unmanaged, err := expectedPodCount(pdb, pods, scale)
	r.UnmanagedPods = unmanaged
	if err != nil {
		r.Err = err
		st := pdb.Status
		st.DisruptionsAllowed = 0
		st.StatusGiven = false
		r.Status = st
		return r
	}
	disrupted := buildDisruptedPodMap(pods, pdb.Status.DisruptedPods, now)
	healthy := countHealthyPods(pods, disrupted, now)
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	r.Status = api.PDBStatus{
		DisruptionsAllowed: allowed,
		CurrentHealthy:     healthy,
		DesiredHealthy:     desired,
		ExpectedPods:       expected,
		DisruptedPods:      disrupted,
	}
	return r
}

func expectedPodCount(pdb *api.PodDisruptionBudget, pods []*api.Pod, scale ScaleFunc) (expected, desired int32, unmanaged []string, err error) {
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		expected, unmanaged, err = expectedScale(pods, scale)
		if err != nil {
			return
		}
		var maxUnavailable int32
		maxUnavailable, err = ScaledValue(pdb.Spec.MaxUnavailable, expected, true)
		if err != nil {
			return
		}
		desired = expected - maxUnavailable
		if desired < 0 {
			desired = 0
		}
	case pdb.Spec.MinAvailable != nil:
		if !pdb.Spec.MinAvailable.IsString {
			desired = pdb.Spec.MinAvailable.IntVal
			expected = int32(len(pods))
			return
		}
		expected, unmanaged, err = expectedScale(pods, scale)
		if err != nil {
			return
		}
		desired, err = ScaledValue(pdb.Spec.MinAvailable, expected, true)
	}
	return
}

// expectedScale is getExpectedScale: the sum of the scales of the
// distinct controllers of the selected pods.
func expectedScale(pods []*api.Pod, scale ScaleFunc) (int32, []string, error) {
	scales := map[string]int32{}
	var unmanaged []string
	for _, p := range pods {
		ref := p.ControllerRef()
		if ref == nil {
			unmanaged = append(unmanaged, p.Name)
			continue
		}
		if _, ok := scales[ref.UID]; ok && ref.UID != "" {
			continue
		}
		if scale == nil {
			return 0, unmanaged, fmt.Errorf("found no controllers for pod %q", p.Name)
		}
		uid, n, ok := scale(p.Namespace, *ref)
		if !ok {
			return 0, unmanaged, fmt.Errorf("found no controllers for pod %q", p.Name)
		}
		scales[uid] = n
	}
	var total int32
	for _, n := range scales {
		total += n
	}
	sort.Strings(unmanaged)
	return total, unmanaged, nil
}

// ScaledValue is intstr.GetScaledValueFromIntOrPercent (api.IntOrString.ScaledValue).
func ScaledValue(v *api.IntOrString, total int32, roundUp bool) (int32, error) {
	return v.ScaledValue(total, roundUp)
}

// isPodReady is podutil.IsPodReady: condition Ready is True.
func isPodReady(p *api.Pod) bool {
	c := p.Condition(api.PodReady)
	return c != nil && c.Status == api.ConditionTrue
}

func countHealthyPods(pods []*api.Pod, disrupted map[string]api.Time, now api.Time) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if at, ok := disrupted[p.Name]; ok && at.Add(DeletionTimeout) > now {
			continue
		}
		if isPodReady(p) {
			n++
		}
	}
	return n
}

// buildDisruptedPodMap keeps the evictions still expected to complete:
// pods not yet being deleted whose eviction was allowed less than
// DeletionTimeout ago.
func buildDisruptedPodMap(pods []*api.Pod, prev map[string]api.Time, now api.Time) map[string]api.Time {
	out := map[string]api.Time{}
	if prev == nil {
		return out
	}
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		at, ok := prev[p.Name]
		if !ok {
			continue
		}
		if at.Add(DeletionTimeout) >= now {
			out[p.Name] = at
		}
	}
	return out
}
