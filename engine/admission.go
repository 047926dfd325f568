package engine

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// DefaultTolerationSeconds is the DefaultTolerationSeconds admission
// plugin's value for not-ready and unreachable taints.
const DefaultTolerationSeconds int64 = 300

// DefaultAdmit is the admission the engine runs when Config.Admit is
// nil: the Priority plugin (plugin/pkg/admission/priority: the pod's
// priorityClassName, or the global default class, sets spec.priority and
// spec.preemptionPolicy; an unknown class is rejected) and
// DefaultTolerationSeconds (not-ready and unreachable NoExecute
// tolerations for 300 s unless the pod tolerates them already).
func DefaultAdmit(e *Engine, p *api.Pod) error {
	if err := admitPriority(e, p); err != nil {
		return err
	}
	addDefaultTolerations(p)
	return nil
}

func admitPriority(e *Engine, p *api.Pod) error {
	var pc *api.PriorityClass
	if name := p.Spec.PriorityClassName; name != "" {
		pc = e.PriorityClass(name)
		if pc == nil {
			return fmt.Errorf("pods %q is forbidden: no PriorityClass with name %s was found", p.Name, name)
		}
	} else {
		for _, c := range e.PriorityClasses() {
			if c.GlobalDefault {
				pc = c
				break
			}
		}
	}
	if pc == nil {
		if p.Spec.Priority == nil {
			var zero int32
			p.Spec.Priority = &zero
		}
		if p.Spec.PreemptionPolicy == nil {
			pol := api.PreemptLowerPriority
			p.Spec.PreemptionPolicy = &pol
		}
		return nil
	}
	if p.Spec.Priority != nil && *p.Spec.Priority != pc.Value {
		return fmt.Errorf("pods %q is forbidden: the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", p.Name, *p.Spec.Priority, pc.Value)
	}
	v := pc.Value
	p.Spec.Priority = &v
	if p.Spec.PriorityClassName == "" {
		p.Spec.PriorityClassName = pc.Name
	}
	pol := api.PreemptLowerPriority
	if pc.PreemptionPolicy != nil {
		pol = *pc.PreemptionPolicy
	}
	p.Spec.PreemptionPolicy = &pol
	return nil
}

func addDefaultTolerations(p *api.Pod) {
	for _, key := range []string{api.TaintNodeNotReady, api.TaintNodeUnreachable} {
		// as defaulttolerationseconds admission: any toleration with this
		// key (or no key) and effect NoExecute (or none) counts.
		tolerated := false
		for _, t := range p.Spec.Tolerations {
			if (t.Key == key || t.Key == "") && (t.Effect == api.TaintEffectNoExecute || t.Effect == "") {
				tolerated = true
				break
			}
		}
		if tolerated {
			continue
		}
		secs := DefaultTolerationSeconds
		p.Spec.Tolerations = append(append([]api.Toleration(nil), p.Spec.Tolerations...), api.Toleration{
			Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &secs,
		})
	}
}
