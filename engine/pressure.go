package engine

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// SetNodePressure sets a node's non-pod memory use so that the node's
// total memory use is pct % of its capacity (allocatable when capacity is
// absent) at this moment; off removes it. The kubelet's eviction manager
// notices on its next pass.
func (e *Engine) SetNodePressure(name string, pct float64, off bool) error {
	ns := e.nodes[name]
	if ns == nil {
		return fmt.Errorf("pressure node %s: not found", name)
	}
	if off {
		ns.systemUsage = 0
	} else {
		if pct < 0 || pct > 1000 {
			return fmt.Errorf("pressure node %s: %v%% is out of range", name, pct)
		}
		target := int64(pct / 100 * float64(nodeMemoryCapacity(ns.node)))
		ns.systemUsage = max(0, target-e.podMemoryOnNode(name))
	}
	e.ensurePressurePass(name)
	e.changes++
	e.settle()
	return nil
}

func nodeMemoryCapacity(n *api.Node) int64 {
	if q, ok := n.Status.Capacity[api.ResourceMemory]; ok {
		return q.Value()
	}
	return n.Status.Allocatable[api.ResourceMemory].Value()
}

// podMemoryOnNode sums the modelled usage of the pods whose containers
// run on a node (running, or terminating until they are gone).
func (e *Engine) podMemoryOnNode(name string) int64 {
	ns := e.nodes[name]
	if ns == nil {
		return 0
	}
	return ns.podUsage
}

// countMemory adds (or with on false removes) a pod's usage to its node's.
func (e *Engine) countMemory(ps *podState, on bool) {
	if ps.memCounted == on {
		return
	}
	ps = e.owned(ps)
	ns := e.nodes[ps.pod.Spec.NodeName]
	if ns == nil {
		ps.memCounted = false
		return
	}
	ps.memCounted = on
	if on {
		ns.podUsage += ps.usage
	} else {
		ns.podUsage -= ps.usage
	}
}

// NodeMemory is a node's memory as the kubelet's eviction manager sees it.
type NodeMemory struct {
	Capacity  int64
	PodUsage  int64
	System    int64
	Available int64 // memory.available = capacity − working set
}

// NodeMemory returns a node's memory signal.
func (e *Engine) NodeMemory(name string) (NodeMemory, bool) {
	ns := e.nodes[name]
	if ns == nil {
		return NodeMemory{}, false
	}
	m := NodeMemory{Capacity: nodeMemoryCapacity(ns.node), PodUsage: e.podMemoryOnNode(name), System: ns.systemUsage}
	m.Available = m.Capacity - m.PodUsage - m.System
	return m, true
}

// atRisk: a pass could do something (a threshold is met, or the
// eviction manager still remembers pressure).
func (e *Engine) atRisk(ns *nodeState, m NodeMemory) bool {
	if ns.memoryPressure {
		return true
	}
	for _, t := range ns.pressure.FirstObserved {
		if t != nil {
			return true
		}
	}
	for _, t := range e.eviction.Hard {
		if t.Met(m.Available, m.Capacity) {
			return true
		}
	}
	for _, t := range e.eviction.Soft {
		if t.Met(m.Available, m.Capacity) {
			return true
		}
	}
	return false
}

// ensurePressurePass schedules the node's next eviction-manager pass if
// one could matter and none is scheduled: passes run every monitoring
// interval after the last one (the kubelet sleeps between passes).
func (e *Engine) ensurePressurePass(name string) {
	ns := e.nodes[name]
	if ns == nil || ns.passGen != 0 {
		return
	}
	m, _ := e.NodeMemory(name)
	if !e.atRisk(ns, m) {
		return
	}
	iv := e.eviction.MonitoringInterval
	now := e.Now()
	next := ns.lastPass.Add(iv)
	if next < now {
		k := (now.Sub(ns.lastPass) + iv - 1) / iv
		next = ns.lastPass.Add(time.Duration(k) * iv)
	}
	e.schedulePass(ns, next)
}

func (e *Engine) schedulePass(ns *nodeState, at api.Time) {
	ns.passGen = e.nextGen()
	e.clock.Schedule(at, action{kind: actPressurePass, key: ns.node.Name, gen: ns.passGen})
}

// pressurePass is one eviction_manager.go synchronize for memory on a
// node: observe memory.available, update MemoryPressure (condition and
// node.kubernetes.io/memory-pressure:NoSchedule taint), and when a
// threshold met its grace period evict at most one pod, ranked by
// kubelet.RankMemoryPressure, critical pods skipped. After an eviction
// the next pass runs once the pod is gone (the manager waits for the
// kill, then polls cleanup every second); otherwise one monitoring
// interval later.
func (e *Engine) pressurePass(name string, gen int64) {
	ns := e.nodes[name]
	if ns == nil || ns.passGen != gen {
		return
	}
	ns.passGen = 0
	now := e.Now()
	ns.lastPass = now
	if !e.kubeletAlive(name) {
		e.schedulePass(ns, now.Add(e.eviction.MonitoringInterval))
		return
	}
	m, _ := e.NodeMemory(name)
	d := e.eviction.Synchronize(&ns.pressure, m.Capacity, m.Available, now)
	e.setMemoryPressure(ns, d.MemoryPressure)
	if d.Reclaim {
		e.record(EventWarning, ReasonEvictionThresholdMet, nodeObject(name), "Attempting to reclaim memory")
		ranking, byKey := e.rankNode(name)
		for _, r := range ranking {
			if r.Critical {
				continue
			}
			ps := e.mut(byKey[r.Pod])
			e.kubeletEvict(ps, d)
			if ps.kill != nil && !ps.kill.awaitingKubelet {
				e.schedulePass(ns, ps.kill.plan.Gone.Add(time.Second))
				return
			}
			break
		}
	}
	if e.atRisk(ns, m) {
		e.schedulePass(ns, now.Add(e.eviction.MonitoringInterval))
	}
}

// rankNode ranks the active pods of a node (running, not being killed).
func (e *Engine) rankNode(name string) ([]kubelet.RankEntry, map[string]*podState) {
	ni := e.snap.Get(name)
	if ni == nil {
		return nil, nil
	}
	var pods []kubelet.PodMemory
	byKey := map[string]*podState{}
	for _, pi := range ni.Pods {
		ps := e.pods.Get(pi.Pod.Key())
		if ps == nil || ps.state != StateRunning {
			continue
		}
		pods = append(pods, kubelet.PodMemory{Pod: ps.pod, Usage: ps.usage})
		byKey[ps.pod.Key()] = ps
	}
	return kubelet.RankMemoryPressure(pods), byKey
}

// EvictionRanking returns the order in which the node's kubelet would
// evict its pods for memory now, with each pod's rank key.
func (e *Engine) EvictionRanking(name string) []kubelet.RankEntry {
	r, _ := e.rankNode(name)
	return r
}

// kubeletEvict is evictPod: the Evicted event and status, the
// DisruptionTarget condition (TerminationByKubelet), and a kill with the
// eviction's grace override; the pod ends Failed and is not deleted.
func (e *Engine) kubeletEvict(ps *podState, d kubelet.Decision) {
	ps = e.owned(ps)
	key := ps.pod.Key()
	msg := kubelet.EvictionMessage(ps.pod, ps.usage, d.ThresholdQuantity, d.Available)
	e.record(EventWarning, ReasonEvicted, podObject(key), msg)
	p := copyPod(ps.pod)
	p.Status.Reason = kubelet.EvictionReason
	p.Status.Message = msg
	p.Status.Conditions, _ = setCondition(p.Status.Conditions, api.Condition{
		Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: kubelet.ReasonTerminationByKubelet, Message: msg, LastTransitionTime: e.Now(),
	})
	e.setPodObject(ps, p)
	override := e.eviction.GraceOverride(d.Threshold, ps.pod)
	e.startKill(ps, &override, true)
	e.changes++
}

// setMemoryPressure reports the MemoryPressure condition and has the node
// lifecycle controller (TaintNodesByCondition) add or remove the
// memory-pressure NoSchedule taint.
func (e *Engine) setMemoryPressure(ns *nodeState, on bool) {
	if ns.memoryPressure == on {
		return
	}
	ns.memoryPressure = on
	old := ns.node
	n := copyNode(old)
	st, reason, msg := api.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"
	if on {
		st, reason, msg = api.ConditionTrue, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available"
		n.Spec.Taints = withTaint(n.Spec.Taints, api.Taint{Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule}, e.Now())
		e.record(EventNormal, ReasonNodeInsufficientMem, nodeObject(n.Name), fmt.Sprintf("Node %s status is now: NodeHasInsufficientMemory", n.Name))
	} else {
		n.Spec.Taints = withoutTaint(n.Spec.Taints, api.TaintNodeMemoryPressure, api.TaintEffectNoSchedule)
		e.record(EventNormal, ReasonNodeSufficientMem, nodeObject(n.Name), fmt.Sprintf("Node %s status is now: NodeHasSufficientMemory", n.Name))
	}
	n.Status.Conditions, _ = setCondition(n.Status.Conditions, api.Condition{Type: api.NodeMemoryPressure, Status: st, Reason: reason, Message: msg, LastTransitionTime: e.Now()})
	e.setNode(ns, old, n)
}
