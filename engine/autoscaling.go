package engine

import (
	"sort"

	"podlab.dev/podlab/engine/api"
)

// What the cluster autoscaler (engine/autoscaler) reads from the cluster
// beyond Pods and Nodes: which pending pods the scheduler gave up on, and
// the pods bound to a node. Written by the autoscaler helper; additive.

// UnschedulablePods returns the pending pods the scheduler has tried and
// failed to place — the pods cluster-autoscaler lists as unschedulable
// (PodScheduled=False, reason Unschedulable: cluster-autoscaler
// utils/kubernetes/listers.go isUnschedulable) — sorted by namespace/name.
// Pods being deleted are left out, and so are pending pods with another
// reason: SchedulingGated (never attempted), SchedulerError, or none (no
// profile for their schedulerName).
func (e *Engine) UnschedulablePods() []*api.Pod {
	// a pod the scheduler failed to place waits in its queue (unschedulable
	// or backoff): an empty queue means there is none, without a walk
	if e.queue.Len() == 0 {
		return nil
	}
	var out []*api.Pod
	for _, ps := range e.pods.All() {
		if ps.state != StatePending || ps.schedMessage == "" || ps.pod.DeletionTimestamp != nil {
			continue
		}
		if c := ps.pod.Condition(api.PodScheduled); c == nil || c.Status != api.ConditionFalse || c.Reason != api.PodReasonUnschedulable {
			continue
		}
		out = append(out, ps.pod)
	}
	// only the few pending pods are sorted, not every key (the autoscaler
	// asks every 10 s)
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// PodsOnNode returns the pods bound to a node in any state (terminating
// and terminated ones included), sorted by namespace/name.
func (e *Engine) PodsOnNode(name string) []*api.Pod {
	keys := e.podKeysOnNode(name)
	out := make([]*api.Pod, 0, len(keys))
	for _, k := range keys {
		out = append(out, e.pods.Get(k).pod)
	}
	return out
}

// NodeRequested returns the summed requests of the pods bound to a node
// as the scheduler's cache counts them (non-terminal pods), without
// walking them: the autoscaler reads every node's utilisation every 10 s.
func (e *Engine) NodeRequested(name string) (api.Resources, bool) {
	ni := e.snap.Get(name)
	if ni == nil {
		return api.Resources{}, false
	}
	return ni.Requested, true
}
