package engine

import (
	"fmt"
	"math"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// Taint-manager DisruptionTarget condition (tainteviction/taint_eviction.go).
const (
	ReasonDeletionByTaintManager  = "DeletionByTaintManager"
	MessageDeletionByTaintManager = "Taint manager: deleting due to NoExecute taint"
)

// Node readiness states for SetNodeCondition.
const (
	NodeConditionReady       = "Ready"
	NodeConditionNotReady    = "NotReady"
	NodeConditionUnreachable = "Unreachable"
)

// SetNodeCondition makes a node Ready, NotReady (the kubelet reports
// Ready=False) or Unreachable (the kubelet stopped posting: Ready=Unknown),
// as the node lifecycle controller sees it: it taints the node
// node.kubernetes.io/not-ready or …/unreachable with NoSchedule and
// NoExecute, marks its pods not Ready, and the taint manager evicts pods
// that do not tolerate the NoExecute taint (the default 300 s tolerations
// included). An unreachable node's kubelet does nothing until it is back.
func (e *Engine) SetNodeCondition(name, state string) error {
	ns := e.nodes[name]
	if ns == nil {
		return fmt.Errorf("node %s: not found", name)
	}
	now := e.Now()
	old := ns.node
	n := copyNode(old)
	cond := api.Condition{Type: api.NodeReady, LastTransitionTime: now}
	var add string
	switch state {
	case NodeConditionReady:
		cond.Status, cond.Reason, cond.Message = api.ConditionTrue, "KubeletReady", "kubelet is posting ready status"
	case NodeConditionNotReady:
		cond.Status, cond.Reason, cond.Message = api.ConditionFalse, "KubeletNotReady", "container runtime is down"
		add = api.TaintNodeNotReady
	case NodeConditionUnreachable:
		cond.Status, cond.Reason, cond.Message = api.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status."
		add = api.TaintNodeUnreachable
	default:
		return fmt.Errorf("node %s: unknown condition %q (want Ready, NotReady or Unreachable)", name, state)
	}
	var changed bool
	n.Status.Conditions, changed = setCondition(n.Status.Conditions, cond)
	if !changed {
		return nil
	}
	for _, k := range []string{api.TaintNodeNotReady, api.TaintNodeUnreachable} {
		if k != add {
			n.Spec.Taints = withoutTaint(n.Spec.Taints, k, "")
		}
	}
	if add != "" {
		n.Spec.Taints = withTaint(n.Spec.Taints, api.Taint{Key: add, Effect: api.TaintEffectNoSchedule}, now)
		n.Spec.Taints = withTaint(n.Spec.Taints, api.Taint{Key: add, Effect: api.TaintEffectNoExecute}, now)
		e.record(EventNormal, ReasonNodeNotReady, nodeObject(name), fmt.Sprintf("Node %s status is now: NodeNotReady", name))
	} else {
		e.record(EventNormal, ReasonNodeReady, nodeObject(name), fmt.Sprintf("Node %s status is now: NodeReady", name))
	}
	e.setNode(ns, old, n)
	e.setPodsReadiness(name, add == "")
	if add == "" || state == NodeConditionNotReady {
		e.resumeKubelet(name)
	}
	e.settle()
	return nil
}

// setPodsReadiness marks the running pods of a node (not) Ready: the node
// lifecycle controller's MarkPodsNotReady, and the kubelet's readiness
// once the node is back.
func (e *Engine) setPodsReadiness(node string, ready bool) {
	st := api.ConditionTrue
	if !ready {
		st = api.ConditionFalse
	}
	for _, key := range e.podKeysOnNode(node) {
		ps := e.pods.Get(key)
		if ps.state != StateRunning || ready && ps.unready {
			continue
		}
		c := ps.pod.Condition(api.PodReady)
		if c != nil && c.Status == st {
			continue
		}
		p := copyPod(ps.pod)
		setReady(p, st, "", e.Now())
		e.setPodObject(e.mut(ps), p)
		if !ready {
			e.record(EventWarning, ReasonNodeNotReady, podObject(key), "Node is not ready")
		}
		e.changes++
	}
}

// resumeKubelet lets a node's kubelet catch up: start pods that were
// bound while it was away and begin the terminations it missed.
func (e *Engine) resumeKubelet(node string) {
	for _, key := range e.podKeysOnNode(node) {
		ps := e.pods.Get(key)
		if ps.state == StateStarting || ps.kill != nil && ps.kill.awaitingKubelet || ps.state == StateRunning && ps.rt != nil {
			ps = e.mut(ps)
		}
		switch {
		case ps.state == StateStarting:
			// the start-up delay runs again from now
			startup, _ := kubelet.StartupDelay(ps.pod)
			ps.startGen = e.nextGen()
			e.clock.Schedule(e.Now().Add(startup), action{kind: actPodStarted, key: key, gen: ps.startGen})
		case ps.kill != nil && ps.kill.awaitingKubelet:
			e.startKill(ps, ps.kill.override, ps.kill.evicted)
		case ps.state == StateRunning && ps.rt != nil:
			// the prober and restarts catch up with what came due
			ps.rt.scheduled = false
			e.advanceRuntime(ps)
		}
	}
}

// taintsChanged runs the taint manager over a node's pods.
func (e *Engine) taintsChanged(node string) {
	for _, key := range e.podKeysOnNode(node) {
		e.taintCheckPod(e.pods.Get(key))
	}
}

// taintCheckPod is the taint manager's processPodOnNode: a pod that does
// not tolerate every NoExecute taint of its node is deleted now; one that
// tolerates them for a while is deleted after the smallest
// tolerationSeconds (timed from when the manager first saw it); tolerating
// forever, or the taints going away, cancels a scheduled deletion.
func (e *Engine) taintCheckPod(ps *podState) {
	if ps == nil || ps.pod.Spec.NodeName == "" || ps.pod.DeletionTimestamp != nil || ps.state == StateTerminated {
		return
	}
	ns := e.nodes[ps.pod.Spec.NodeName]
	if ns == nil {
		return
	}
	var taints []api.Taint
	for _, t := range ns.node.Spec.Taints {
		if t.Effect == api.TaintEffectNoExecute {
			taints = append(taints, t)
		}
	}
	now := e.Now()
	if len(taints) == 0 {
		if ps.taintAt != nil {
			e.cancelTaintEviction(e.mut(ps))
		}
		return
	}
	var used []api.Toleration
	for i := range taints {
		found := false
		for _, tol := range ps.pod.Spec.Tolerations {
			if tol.ToleratesTaint(&taints[i]) {
				used = append(used, tol)
				found = true
				break
			}
		}
		if !found {
			ps = e.mut(ps)
			e.cancelTaintEviction(ps)
			e.taintEvict(ps)
			return
		}
	}
	min := minTolerationTime(used)
	if min < 0 {
		if ps.taintAt != nil {
			e.cancelTaintEviction(e.mut(ps))
		}
		return
	}
	if ps.taintAt != nil && ps.taintCreated < now {
		return // the earlier-scheduled deletion stands
	}
	ps = e.mut(ps)
	e.cancelTaintEviction(ps)
	at := now.Add(min)
	ps.taintAt = &at
	ps.taintCreated = now
	ps.taintGen = e.nextGen()
	e.clock.Schedule(at, action{kind: actTaintEviction, key: ps.pod.Key(), gen: ps.taintGen})
}

// minTolerationTime is getMinTolerationTime: -1 for forever.
func minTolerationTime(tols []api.Toleration) time.Duration {
	if len(tols) == 0 {
		return 0
	}
	min := int64(math.MaxInt64)
	for _, t := range tols {
		if t.TolerationSeconds != nil {
			if *t.TolerationSeconds <= 0 {
				return 0
			}
			if *t.TolerationSeconds < min {
				min = *t.TolerationSeconds
			}
		}
	}
	if min == math.MaxInt64 {
		return -1
	}
	return secondsDur(min)
}

func (e *Engine) cancelTaintEviction(ps *podState) {
	if ps.taintAt == nil {
		return
	}
	ps = e.owned(ps)
	ps.taintAt = nil
	ps.taintGen = e.nextGen()
	e.record(EventNormal, ReasonTaintManagerEviction, podObject(ps.pod.Key()), "Cancelling deletion of Pod "+ps.pod.Key())
}

func (e *Engine) taintEvictionDue(key string, gen int64) {
	ps := e.pods.Get(key)
	if ps == nil || ps.taintGen != gen || ps.taintAt == nil {
		return
	}
	ps = e.mut(ps)
	ps.taintAt = nil
	e.taintEvict(ps)
}

// taintEvict deletes a pod for a NoExecute taint (addConditionAndDeletePod).
func (e *Engine) taintEvict(ps *podState) {
	ps = e.owned(ps)
	key := ps.pod.Key()
	e.record(EventNormal, ReasonTaintManagerEviction, podObject(key), "Marking for deletion Pod "+key)
	e.addDisruptionTarget(ps, ReasonDeletionByTaintManager, MessageDeletionByTaintManager)
	_ = e.deletePod(key, DeleteOptions{})
}
