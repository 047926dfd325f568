package scheduler

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// PreEnqueue runs the PreEnqueue plugins of the pod's profile in order
// and returns the first rejection, attributed to its plugin, or nil when
// the pod may enter activeQ (runPreEnqueuePlugins in
// backend/queue/scheduling_queue.go:598). A pod no profile handles passes:
// upstream's preEnqueuePluginMap has no entry for its scheduler name.
// A profile that disabled SchedulingGates lets a gated pod through: it is
// attempted, and the API server refuses its binding (the engine's bind).
func (s *Scheduler) PreEnqueue(pod *api.Pod) *framework.Status {
	prof := s.profileFor(pod)
	if prof == nil {
		return nil
	}
	for _, pl := range prof.preEnqueue {
		if st := pl.PreEnqueue(pod); !st.IsSuccess() {
			return st.WithPlugin(pl.Name())
		}
	}
	return nil
}
