package engine

import (
	"fmt"
	"slices"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// preEnqueuer is implemented by schedulers that run PreEnqueue plugins
// (*scheduler.Scheduler: its profiles' SchedulingGates).
type preEnqueuer interface {
	PreEnqueue(pod *api.Pod) *framework.Status
}

// preEnqueue is the queue's PreEnqueue hook: the current scheduler's
// plugins for the pod's profile (a scheduler without any gates nothing).
func (e *Engine) preEnqueue(pod *api.Pod) *framework.Status {
	if pe, ok := e.sched.(preEnqueuer); ok {
		return pe.PreEnqueue(pod)
	}
	return nil
}

// SchedulingGate returns the PreEnqueue rejection keeping a pending pod
// out of the scheduling queue's activeQ — "waiting for scheduling gates:
// [a b]" from SchedulingGates — or nil when the pod is not gated.
func (e *Engine) SchedulingGate(key string) *framework.Status {
	ps := e.pods.Get(key)
	if ps == nil || ps.state != StatePending {
		return nil
	}
	return e.queue.Gate(key)
}

// GateError is a refused scheduling-gate removal: the pod has no gate of
// that name (Gates are the ones it has).
type GateError struct {
	Pod   string
	Gate  string
	Gates []string
}

func (e *GateError) Error() string {
	if len(e.Gates) == 0 {
		return fmt.Sprintf("pod %s has no scheduling gates", e.Pod)
	}
	return fmt.Sprintf("pod %s has no scheduling gate %q (its gates: %s)", e.Pod, e.Gate, strings.Join(e.Gates, ", "))
}

// RemoveSchedulingGates removes the named gates from a pod's
// spec.schedulingGates (none named: all of them), as a client updating
// the pod does: the API server allows a pod's gates only to shrink
// (validateOnlyDeletedSchedulingGates), and the scheduler's update
// handler hands the new object to the queue (PriorityQueue.Update),
// which runs PreEnqueue again on a gated pod. When the last gate goes
// (UpdatePodSchedulingGatesEliminated) the pod passes and enters activeQ
// with its original queue timestamp; with gates left it stays gated.
func (e *Engine) RemoveSchedulingGates(key string, gates ...string) error {
	ps := e.pods.Get(key)
	if ps == nil {
		return fmt.Errorf("pods %q not found", key)
	}
	have := ps.pod.Spec.SchedulingGates
	if len(have) == 0 {
		return &GateError{Pod: key}
	}
	for _, g := range gates {
		if !slices.Contains(have, g) {
			return &GateError{Pod: key, Gate: g, Gates: slices.Clone(have)}
		}
	}
	var left []string
	if len(gates) > 0 {
		for _, g := range have {
			if !slices.Contains(gates, g) {
				left = append(left, g)
			}
		}
	}
	p := copyPod(ps.pod)
	p.Spec.SchedulingGates = left
	e.setPodObjectForScheduler(ps, p)
	ps = e.pods.Get(key)
	if ps.state == StatePending && ps.info != nil {
		e.queue.Update(ps.info, e.Now())
	}
	e.changes++
	e.settle()
	return nil
}

// BindingRefused is the API server's check on a binding
// (pkg/registry/core/pod/storage/storage.go:242): a pod that still has
// scheduling gates cannot be bound. It happens only when the profile
// disabled SchedulingGates, so the pod was attempted at all.
func BindingRefused(pod *api.Pod) error {
	if len(pod.Spec.SchedulingGates) == 0 {
		return nil
	}
	return fmt.Errorf("running Bind plugin %q: pod %s has non-empty .spec.schedulingGates", scheduler.DefaultBinderName, pod.Name)
}
