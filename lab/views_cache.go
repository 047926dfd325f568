package lab

import "podlab.dev/podlab/engine/api"

// Generation increases whenever the scheduler's view of the cluster
// changes: a pod bound or removed, a node added, changed or removed. The
// terminal lab recomputes what derives from placement (spread, lesson
// checks, workload counts) only when it moved. A new engine (undo, replay)
// starts counting again: compare it together with Engine().
func (s *Session) Generation() int64 {
	if s.sched == nil {
		return 0
	}
	return s.sched.Snapshot().Generation()
}

// NodeRequested returns what the pods assigned to a node request in all
// (terminating pods included: they hold their resources until they are
// gone, as in the scheduler's NodeInfo) and how many pods that is. The
// scheduler maintains these sums incrementally, so this is O(1) per node.
func (s *Session) NodeRequested(node string) (req api.Resources, pods int, ok bool) {
	if s.sched == nil {
		return api.Resources{}, 0, false
	}
	ni := s.sched.Snapshot().Get(node)
	if ni == nil {
		return api.Resources{}, 0, false
	}
	return ni.Requested, len(ni.Pods), true
}
