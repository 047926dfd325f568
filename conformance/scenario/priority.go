package scenario

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
)

// Built-in priority classes (pkg/apis/scheduling/types.go).
var systemClasses = map[string]int32{
	"system-cluster-critical": 2000000000,
	"system-node-critical":    2000001000,
}

// resolvePriorities sets spec.priority and spec.preemptionPolicy from the
// pod's priority class as plugin/pkg/admission/priority/admission.go
// (admitPod, establishPriority) does on create: a named class must exist;
// no name ⇒ the globalDefault class, else priority 0.
func (s *Scenario) resolvePriorities() error {
	byName := map[string]*schedulingv1.PriorityClass{}
	var global *schedulingv1.PriorityClass
	for _, pc := range s.PriorityClasses {
		byName[pc.Name] = pc
		if pc.GlobalDefault && (global == nil || pc.Value > global.Value) {
			global = pc
		}
	}
	for _, p := range append(append([]*v1.Pod{}, s.Bound...), s.Pending...) {
		var prio int32
		var policy *v1.PreemptionPolicy
		switch name := p.Spec.PriorityClassName; {
		case name == "" && global != nil:
			p.Spec.PriorityClassName = global.Name
			prio, policy = global.Value, global.PreemptionPolicy
		case name == "":
		default:
			if v, ok := systemClasses[name]; ok {
				prio = v
				break
			}
			pc, ok := byName[name]
			if !ok {
				return fmt.Errorf("pod %s/%s: no PriorityClass with name %s was found", p.Namespace, p.Name, name)
			}
			prio, policy = pc.Value, pc.PreemptionPolicy
		}
		if p.Spec.Priority != nil && *p.Spec.Priority != prio {
			return fmt.Errorf("pod %s/%s: priority %d does not match class %q (%d)", p.Namespace, p.Name, *p.Spec.Priority, p.Spec.PriorityClassName, prio)
		}
		p.Spec.Priority = &prio
		if policy != nil {
			pp := *policy
			p.Spec.PreemptionPolicy = &pp
		}
	}
	return nil
}
