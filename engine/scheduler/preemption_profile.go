package scheduler

import (
	"fmt"

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

// FilterRunner implements preemption.Profile: RunFilterPlugins for nodes
// that hold no nominated pod, with the plugins the state skips left out
// once instead of looked up for every node.
func (s *Scheduler) FilterRunner(state *framework.CycleState) func(pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	var active []framework.FilterPlugin
	for _, pl := range s.prof.filter {
		if !state.SkipFilterPlugins[pl.Name()] {
			active = append(active, pl)
		}
	}
	return func(pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
		for _, pl := range active {
			st := pl.Filter(state, pod, node)
			if st.IsSuccess() {
				continue
			}
			if !st.IsRejected() {
				return errorStatus(fmt.Errorf("running %q filter plugin: %w", pl.Name(), statusError(st)), pl.Name())
			}
			return st.WithPlugin(pl.Name())
		}
		return nil
	}
}
