package scheduler

import (
	"fmt"

	"podlab.dev/podlab/engine/scheduler/framework"
)

var _ framework.Handle = (*Scheduler)(nil)

// RunFilterPlugins implements framework.Handle. It is
// RunFilterPluginsWithNominatedPods: the preemption dry run
// (SelectVictimsOnNode) calls it on a node copy without the victims, and
// nominated pods of at least the pod's priority are accounted for as in
// a normal cycle.
func (s *Scheduler) RunFilterPlugins(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	return s.filterOneWithNominatedPods(state, pod, node)
}

// RunPreFilterExtensionAddPod implements framework.Handle: every PreFilter
// plugin's AddPod extension (except plugins PreFilter skipped), stopping
// at the first failure, as frameworkImpl.RunPreFilterExtensionAddPod.
func (s *Scheduler) RunPreFilterExtensionAddPod(state *framework.CycleState, podToSchedule, podToAdd *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	for _, pl := range s.prof.preFilter {
		ext := pl.PreFilterExtensions()
		if ext == nil || state.SkipFilterPlugins[pl.Name()] {
			continue
		}
		if st := ext.AddPod(state, podToSchedule, podToAdd, node); !st.IsSuccess() {
			return errorStatus(fmt.Errorf("running AddPod on PreFilter plugin %q: %w", pl.Name(), statusError(st)), pl.Name())
		}
	}
	return nil
}

// RunPreFilterExtensionRemovePod implements framework.Handle (see
// RunPreFilterExtensionAddPod).
func (s *Scheduler) RunPreFilterExtensionRemovePod(state *framework.CycleState, podToSchedule, podToRemove *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	for _, pl := range s.prof.preFilter {
		ext := pl.PreFilterExtensions()
		if ext == nil || state.SkipFilterPlugins[pl.Name()] {
			continue
		}
		if st := ext.RemovePod(state, podToSchedule, podToRemove, node); !st.IsSuccess() {
			return errorStatus(fmt.Errorf("running RemovePod on PreFilter plugin %q: %w", pl.Name(), statusError(st)), pl.Name())
		}
	}
	return nil
}
