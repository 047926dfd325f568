package preemption

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// budget is a PodDisruptionBudget with its selector compiled once per
// preemption.
type budget struct {
	pdb      *api.PodDisruptionBudget
	selector api.Selector
	valid    bool
}

func compileBudgets(pdbs []*api.PodDisruptionBudget) []budget {
	out := make([]budget, 0, len(pdbs))
	for _, p := range pdbs {
		if p == nil {
			continue
		}
		sel, err := api.CompileSelector(p.Spec.Selector)
		// An invalid selector matches nothing (upstream skips it).
		out = append(out, budget{pdb: p, selector: sel, valid: err == nil})
	}
	return out
}

// splitByPDBViolation groups pods (in the given order, which it keeps) into
// those whose eviction would violate a budget and the rest, as
// filterPodsWithPDBViolation: each matching budget's disruptionsAllowed is
// decremented per pod in order, and a pod is violating once a budget it
// matches goes below zero. Pods already listed in a budget's DisruptedPods
// are being evicted already and do not count.
func splitByPDBViolation(pods []*framework.PodInfo, budgets []budget) (violating, nonViolating []*framework.PodInfo) {
	if len(budgets) == 0 {
		return nil, pods
	}
	allowed := make([]int32, len(budgets))
	for i, b := range budgets {
		allowed[i] = b.pdb.Status.DisruptionsAllowed
	}
	for _, pi := range pods {
		p := pi.Pod
		violated := false
		// A pod with no labels matches no budget.
		if len(p.Labels) != 0 {
			for i, b := range budgets {
				if !b.valid || b.pdb.Namespace != p.Namespace {
					continue
				}
				// A nil or empty selector matches nothing here.
				if b.selector.Empty() || !b.selector.Matches(p.Labels) {
					continue
				}
				if _, disrupted := b.pdb.Status.DisruptedPods[p.Name]; disrupted {
					continue
				}
				allowed[i]--
				if allowed[i] < 0 {
					violated = true
				}
			}
		}
		if violated {
			violating = append(violating, pi)
		} else {
			nonViolating = append(nonViolating, pi)
		}
	}
	return violating, nonViolating
}
