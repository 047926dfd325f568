package scheduler

import (
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/preemption"
)

// The Scheduler tells DefaultPreemption which plugins it runs and which
// pods are nominated where, so dry runs on nodes whose lower-priority pods
// only matter to NodeResourcesFit can be decided by arithmetic
// (preemption/fastpath.go). Written by the preemption helper; additive.
var _ preemption.Profile = (*Scheduler)(nil)

// PreemptionPlugins implements preemption.Profile: the filter plugins and
// the PreFilter plugins with extensions, by name.
func (s *Scheduler) PreemptionPlugins() []string {
	out := make([]string, 0, len(s.prof.filter)+len(s.prof.preFilter))
	for _, pl := range s.prof.filter {
		out = append(out, pl.Name())
	}
	for _, pl := range s.prof.preFilter {
		if pl.PreFilterExtensions() != nil {
			out = append(out, pl.Name())
		}
	}
	return out
}

// NominatedPodsForNode implements preemption.Profile (the nominator's
// list, which RunFilterPlugins consults).
func (s *Scheduler) NominatedPodsForNode(node string) []*framework.PodInfo {
	return s.nominator.NominatedPodsForNode(node)
}

// NominatedNodes implements preemption.Profile: the nodes holding
// nominated pods.
func (s *Scheduler) NominatedNodes() []string { return s.nominator.nodes() }

// RunFilterPluginsWithoutNominatedPods implements preemption.Profile: the
// filters alone, for a node that holds no nominated pod (RunFilterPlugins
// without the nominated-pods lookup).
func (s *Scheduler) RunFilterPluginsWithoutNominatedPods(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	return s.runFilterPlugins(state, pod, node)
}
