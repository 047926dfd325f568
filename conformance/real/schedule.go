package real

import (
	"fmt"
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"podlab.dev/podlab/conformance/result"
)

// BindEpoch is the start time given to pods the harness binds (plus one
// second per bind, in bind order), so victim ordering never reads the wall
// clock (util.GetPodStartTime falls back to time.Now()).
var BindEpoch = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// attempt is one ScheduleOne.
type attempt struct {
	node      string
	message   string
	nominated string
	victims   []*v1.Pod
}

// scheduleOne runs one cycle and, when it fails, DefaultPreemption.
func (r *Runner) scheduleOne(pod *v1.Pod) (attempt, error) {
	c, err := r.runCycle(pod, false)
	if err != nil {
		return attempt{}, err
	}
	if c.chosen != "" {
		return attempt{node: c.chosen}, nil
	}
	var post string
	var a attempt
	if r.preempt != nil {
		pr, err := r.preemptFor(c, pod)
		if err != nil {
			return attempt{}, err
		}
		post, a.nominated, a.victims = pr.message, pr.node, pr.victims
	}
	a.message = c.fitError(pod, post)
	return a, nil
}

// Schedule schedules the pending pods in queue order (priority desc, then
// file order), binding each placed pod before the next. A pod that
// preempts has its victims removed at once and is retried immediately
// (first on its nominated node, as evaluateNominatedNode).
func (r *Runner) Schedule(pending []*v1.Pod) (*result.Schedule, error) {
	out := &result.Schedule{}
	for _, p := range QueueOrder(pending) {
		pod := p.DeepCopy()
		pl := result.Placement{Pod: pod.Namespace + "/" + pod.Name}
		a, err := r.scheduleOne(pod)
		if err != nil {
			return nil, fmt.Errorf("schedule %s: %w", pl.Pod, err)
		}
		if a.node == "" && a.nominated != "" {
			pl.NominatedNode = a.nominated
			for _, v := range a.victims {
				key := v.Namespace + "/" + v.Name
				pl.Victims = append(pl.Victims, key)
				if err := r.removePod(key); err != nil {
					return nil, err
				}
			}
			sort.Strings(pl.Victims)
			pod.Status.NominatedNodeName = a.nominated
			if a, err = r.scheduleOne(pod); err != nil {
				return nil, fmt.Errorf("schedule %s (after preemption): %w", pl.Pod, err)
			}
		}
		pl.Node, pl.Message = a.node, a.message
		if a.node != "" {
			if err := r.bind(pod, a.node); err != nil {
				return nil, err
			}
		}
		out.Placements = append(out.Placements, pl)
	}
	return out, nil
}

// bind assumes the pod on the node and confirms it (what the informer
// delivers after the binding).
func (r *Runner) bind(pod *v1.Pod, node string) error {
	b := pod.DeepCopy()
	b.Spec.NodeName = node
	b.Status.NominatedNodeName = ""
	r.seq++
	t := metav1.NewTime(BindEpoch.Add(time.Duration(r.seq) * time.Second))
	b.Status.StartTime = &t
	if err := r.cache.AssumePod(r.logger, b); err != nil {
		return fmt.Errorf("assume %s/%s: %w", b.Namespace, b.Name, err)
	}
	return r.addPod(b)
}

// QueueOrder sorts pending pods as the scheduling queue pops them:
// priority descending, then arrival (file) order (PrioritySort's Less).
func QueueOrder(pending []*v1.Pod) []*v1.Pod {
	out := append([]*v1.Pod(nil), pending...)
	sort.SliceStable(out, func(i, j int) bool { return prio(out[i]) > prio(out[j]) })
	return out
}

func prio(p *v1.Pod) int32 {
	if p.Spec.Priority == nil {
		return 0
	}
	return *p.Spec.Priority
}
