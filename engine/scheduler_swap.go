package engine

// SetScheduler replaces the scheduler factory (a new
// KubeSchedulerConfiguration: the lab's `set scheduler` and `apply -f` of
// a config) and rebuilds the scheduler over the same snapshot, as a
// kube-scheduler restarted with a new configuration: nominations are
// kept, and every pending pod goes back to the active queue — including
// the pods no profile handled before, which the new one may.
func (e *Engine) SetScheduler(f SchedulerFactory) {
	old := e.sched
	e.cfg.NewScheduler = f
	e.sched = e.newScheduler()
	e.copyNominations(old)
	now := e.Now()
	for _, key := range e.sortedPodKeys() {
		ps := e.pods.Get(key)
		if ps == nil || ps.state != StatePending || ps.pod.Spec.NodeName != "" || ps.info == nil {
			continue
		}
		// the restarted scheduler's queue starts empty: every pending pod
		// is added afresh (PriorityQueue.Add, a new QueuedPodInfo: no
		// failure counts, so no backoff — an error pod waiting in
		// podErrorBackoffQ is tried at once) and meets the new profile's
		// PreEnqueue (a pod with gates is gated again if it enables
		// SchedulingGates)
		e.queue.Delete(key)
		e.queue.Add(ps.info, now)
	}
	e.changes++
	e.settle()
}

// handles reports whether the scheduler runs a profile for the pod's
// spec.schedulerName (schedulers that cannot tell handle every pod).
func (e *Engine) handles(schedulerName string) bool {
	if h, ok := e.sched.(interface{ Handles(string) bool }); ok {
		return h.Handles(schedulerName)
	}
	return true
}
