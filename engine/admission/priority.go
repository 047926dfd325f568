package admission

import (
	"fmt"
	"sort"

	"podlab.dev/podlab/engine/api"
)

// SystemNodeCriticalPriority is the value of system-node-critical
// (scheduling.SystemCriticalPriority + 1000).
const SystemNodeCriticalPriority = api.SystemCriticalPriority + 1000

// BuiltinClasses returns the PriorityClasses every cluster has
// (pkg/apis/scheduling: SystemPriorityClasses), with the preemption policy
// the API server defaults them to.
func BuiltinClasses() map[string]*api.PriorityClass {
	policy := func() *string { p := api.PreemptLowerPriority; return &p }
	return map[string]*api.PriorityClass{
		api.SystemClusterCritical: {
			ObjectMeta: api.ObjectMeta{Name: api.SystemClusterCritical}, Value: api.SystemCriticalPriority,
			PreemptionPolicy: policy(), Description: "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
		},
		api.SystemNodeCritical: {
			ObjectMeta: api.ObjectMeta{Name: api.SystemNodeCritical}, Value: SystemNodeCriticalPriority,
			PreemptionPolicy: policy(), Description: "Used for system critical pods that must not be moved from their current node.",
		},
	}
}

// lookupClass finds a class by name, the built-ins included.
func lookupClass(name string, classes map[string]*api.PriorityClass) *api.PriorityClass {
	if pc, ok := classes[name]; ok {
		return pc
	}
	return BuiltinClasses()[name]
}

// DefaultClass returns the globalDefault class, or nil. If several are
// marked (a race upstream), the one with the lowest value wins, as
// getDefaultPriorityClass decides; equal values fall back to the name.
func DefaultClass(classes map[string]*api.PriorityClass) *api.PriorityClass {
	names := make([]string, 0, len(classes))
	for n := range classes {
		names = append(names, n)
	}
	sort.Strings(names)
	var def *api.PriorityClass
	for _, n := range names {
		pc := classes[n]
		if pc.GlobalDefault && (def == nil || pc.Value < def.Value) {
			def = pc
		}
	}
	return def
}

// priorityDecision is what the Priority plugin computed for a pod.
type priorityDecision struct {
	className string
	value     int32
	policy    string
}

func (d priorityDecision) apply(pod *api.Pod) {
	pod.Spec.PriorityClassName = d.className
	v := d.value
	pod.Spec.Priority = &v
	p := d.policy
	pod.Spec.PreemptionPolicy = &p
}

// resolvePriority is the Priority admission plugin's admitPod for a create
// (plugin/pkg/admission/priority/admission.go): the class named by the pod,
// else the globalDefault class, else priority 0 with PreemptLowerPriority.
// A pod may state spec.priority or spec.preemptionPolicy only if they equal
// what the class gives. A class without a preemptionPolicy has
// PreemptLowerPriority, as the API server defaults it.
func resolvePriority(pod *api.Pod, classes map[string]*api.PriorityClass) (priorityDecision, error) {
	d := priorityDecision{policy: api.PreemptLowerPriority}
	var pc *api.PriorityClass
	if pod.Spec.PriorityClassName == "" {
		pc = DefaultClass(classes)
	} else if pc = lookupClass(pod.Spec.PriorityClassName, classes); pc == nil {
		return d, &ForbiddenError{Pod: pod.Name, Reason: fmt.Sprintf("no PriorityClass with name %v was found", pod.Spec.PriorityClassName)}
	}
	if pc != nil {
		d.className, d.value = pc.Name, pc.Value
		if pc.PreemptionPolicy != nil {
			d.policy = *pc.PreemptionPolicy
		}
	}
	if pod.Spec.Priority != nil && *pod.Spec.Priority != d.value {
		return d, &ForbiddenError{Pod: pod.Name, Reason: fmt.Sprintf(
			"the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name",
			*pod.Spec.Priority, d.value)}
	}
	if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy != d.policy {
		return d, &ForbiddenError{Pod: pod.Name, Reason: fmt.Sprintf(
			"the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name",
			*pod.Spec.PreemptionPolicy, d.policy)}
	}
	return d, nil
}
