package lab

import (
	"fmt"

	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// LiveExplanation is the scheduler's view of one pod in the running lab.
type LiveExplanation struct {
	*scheduler.Explanation
	// BoundTo is the node a scheduled pod runs on ("" for a pending pod).
	// Its explanation is what the scheduler would decide for it now, with
	// the pod itself taken out of the cluster.
	BoundTo string
	// Priority of the pod.
	Priority int32
	// BindingRefused is the API server's refusal of the binding the
	// scheduler picks for a pending pod that still has gates (its profile
	// disabled SchedulingGates), "" otherwise.
	BindingRefused string
}

// Explain runs a scheduling cycle for a pod without changing anything: for
// a pending pod, the verdict it is waiting on; for a scheduled one, the
// verdict it would get now if it were not there.
func (s *Session) Explain(key string) (*LiveExplanation, error) {
	p := s.eng.Pod(key)
	if p == nil {
		return nil, fmt.Errorf("unknown pod %q", key)
	}
	if s.sched == nil {
		return nil, fmt.Errorf("the scheduler is not running")
	}
	out := &LiveExplanation{BoundTo: p.Spec.NodeName, Priority: p.PriorityValue()}
	snap := s.sched.Snapshot()
	pi := framework.NewPodInfo(p)
	if p.Spec.NodeName != "" {
		if held := snap.NodeOfPod(key); held != nil {
			// Take the pod out for the cycle and put it back: the engine is
			// single-threaded and nothing else runs in between.
			var own *framework.PodInfo
			for _, x := range held.Pods {
				if x.Pod.Key() == key {
					own = x
				}
			}
			snap.RemovePod(key)
			defer snap.AddPod(own)
		}
		cp := *p
		cp.Spec.NodeName = ""
		pi = framework.NewPodInfo(&cp)
	}
	out.Explanation = s.sched.Explain(pi)
	if p.Spec.NodeName == "" {
		out.BindingRefused = bindingRefused(out.Explanation, p) // explain_gates.go
	}
	return out, nil
}
