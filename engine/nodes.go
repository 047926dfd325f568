package engine

import (
	"fmt"
	"reflect"
	"slices"
	"sort"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

// AddNode registers a node (Ready unless its conditions say otherwise)
// and settles: controllers and the scheduler see it before the call
// returns.
func (e *Engine) AddNode(n *api.Node) error {
	if err := e.registerNode(n); err != nil {
		return err
	}
	e.settle()
	return nil
}

// AddNodes registers nodes at the same instant, in order, and settles
// once: controllers and the scheduler see all of them together, as in a
// cluster where a node group's nodes register at about the same time
// and the DaemonSet controller's queue holds one key for many node adds.
// Settling after each node instead would sync every DaemonSet once per
// node over every node: quadratic in the nodes added. On an error the
// nodes before the failing one stay registered (and are settled).
func (e *Engine) AddNodes(nodes []*api.Node) error {
	defer e.settle()
	for _, n := range nodes {
		if err := e.registerNode(n); err != nil {
			return err
		}
	}
	return nil
}

// registerNode is AddNode without the settle.
func (e *Engine) registerNode(n *api.Node) error {
	if n == nil || n.Name == "" {
		return fmt.Errorf("add node: the node needs a name")
	}
	if _, ok := e.nodes[n.Name]; ok {
		return fmt.Errorf("add node %s: already exists", n.Name)
	}
	if err := e.CheckObjects("nodes", n.Name, 1); err != nil {
		return err
	}
	n = copyNode(n)
	api.DefaultNode(n)
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	if _, ok := n.Labels[api.LabelHostname]; !ok {
		n.Labels[api.LabelHostname] = n.Name
	}
	if n.UID == "" {
		n.UID = e.nextUID()
	}
	if n.Condition(api.NodeReady) == nil {
		n.Status.Conditions = append(n.Status.Conditions, api.Condition{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status", LastTransitionTime: e.Now()})
	}
	ns := &nodeState{node: n, lastPass: e.Now()}
	e.nodes[n.Name] = ns
	e.nodeChanged(n.Name)
	// appended: the first reader sorts (sortedNodeNames), so adding a
	// zone of thousands of nodes does not shift the list once per node
	e.nodeNames = append(e.nodeNames, n.Name)
	e.snap.AddNode(n)
	e.record(EventNormal, ReasonRegisteredNode, nodeObject(n.Name), fmt.Sprintf("Node %s event: Registered Node %s in Controller", n.Name, n.Name))
	e.queue.MoveAllToActiveOrBackoff(scheduler.NodeAdd, e.Now())
	e.changes++
	return nil
}

// RemoveNode deletes a node. Its pods are deleted at once, as the pod
// garbage collector deletes pods bound to a node that no longer exists.
func (e *Engine) RemoveNode(name string) error {
	ns := e.nodes[name]
	if ns == nil {
		return fmt.Errorf("remove node %s: not found", name)
	}
	e.record(EventNormal, ReasonRemovingNode, nodeObject(name), fmt.Sprintf("Node %s event: Removing Node %s from Controller", name, name))
	keys := e.podKeysOnNode(name)
	delete(e.nodes, name)
	e.nodeChanged(name)
	for _, key := range keys {
		e.removePod(key)
	}
	// the name stays in nodeNames until the next read drops it
	// (sortedNodeNames): removing a zone does not shift the list per node
	e.snap.RemoveNode(name)
	e.queue.MoveAllToActiveOrBackoff(scheduler.NodeDelete, e.Now())
	for _, d := range e.drains {
		if d.Node == name && !d.Done {
			d.finish(e, "node deleted")
		}
	}
	e.changes++
	e.settle()
	return nil
}

// UpdateNode changes a node through mutate (labels, taints,
// spec.unschedulable, allocatable) and tells the scheduler and the taint
// manager what changed.
func (e *Engine) UpdateNode(name string, mutate func(n *api.Node)) error {
	ns := e.nodes[name]
	if ns == nil {
		return fmt.Errorf("update node %s: not found", name)
	}
	old := ns.node
	n := copyNode(old)
	mutate(n)
	n.Name = name
	e.setNode(ns, old, n)
	e.settle()
	return nil
}

// setNode installs a changed node object and fans out its changes.
func (e *Engine) setNode(ns *nodeState, old, n *api.Node) {
	ns.node = n
	e.nodeChanged(n.Name)
	e.snap.UpdateNode(n)
	now := e.Now()
	if !reflect.DeepEqual(old.Labels, n.Labels) {
		e.queue.MoveAllToActiveOrBackoff(scheduler.NodeLabelChange, now)
	}
	taintsChanged := !reflect.DeepEqual(old.Spec.Taints, n.Spec.Taints)
	if taintsChanged || old.Spec.Unschedulable != n.Spec.Unschedulable {
		e.queue.MoveAllToActiveOrBackoff(scheduler.NodeTaintChange, now)
	}
	if old.Spec.Unschedulable != n.Spec.Unschedulable {
		if n.Spec.Unschedulable {
			e.record(EventNormal, ReasonNodeNotSchedulable, nodeObject(n.Name), fmt.Sprintf("Node %s status is now: NodeNotSchedulable", n.Name))
		} else {
			e.record(EventNormal, ReasonNodeSchedulable, nodeObject(n.Name), fmt.Sprintf("Node %s status is now: NodeSchedulable", n.Name))
		}
	}
	if !reflect.DeepEqual(old.Status.Allocatable, n.Status.Allocatable) {
		e.queue.MoveAllToActiveOrBackoff(scheduler.NodeAllocatableChange, now)
	}
	if taintsChanged {
		e.taintsChanged(n.Name)
	}
	e.ensurePressurePass(n.Name)
	e.changes++
}

// Cordon marks a node unschedulable (kubectl cordon).
func (e *Engine) Cordon(name string) error {
	return e.UpdateNode(name, func(n *api.Node) { n.Spec.Unschedulable = true })
}

// Uncordon marks a node schedulable again (kubectl uncordon).
func (e *Engine) Uncordon(name string) error {
	return e.UpdateNode(name, func(n *api.Node) { n.Spec.Unschedulable = false })
}

// LabelNode sets (or, with remove, deletes) a node label.
func (e *Engine) LabelNode(name, key, value string, remove bool) error {
	return e.UpdateNode(name, func(n *api.Node) {
		if remove {
			delete(n.Labels, key)
			return
		}
		if n.Labels == nil {
			n.Labels = map[string]string{}
		}
		n.Labels[key] = value
	})
}

// TaintNode adds a taint, replacing one with the same key and effect
// (kubectl taint). NoExecute taints get timeAdded.
func (e *Engine) TaintNode(name string, t api.Taint) error {
	if t.Effect != api.TaintEffectNoSchedule && t.Effect != api.TaintEffectPreferNoSchedule && t.Effect != api.TaintEffectNoExecute {
		return fmt.Errorf("taint node %s: unknown effect %q", name, t.Effect)
	}
	now := e.Now()
	return e.UpdateNode(name, func(n *api.Node) { n.Spec.Taints = withTaint(n.Spec.Taints, t, now) })
}

// UntaintNode removes the taints with key (and effect, if not empty).
func (e *Engine) UntaintNode(name, key, effect string) error {
	if e.nodes[name] == nil {
		return fmt.Errorf("untaint node %s: not found", name)
	}
	found := false
	for _, t := range e.nodes[name].node.Spec.Taints {
		if t.Key == key && (effect == "" || t.Effect == effect) {
			found = true
		}
	}
	if !found {
		return fmt.Errorf("untaint node %s: taint %q not found", name, key)
	}
	return e.UpdateNode(name, func(n *api.Node) { n.Spec.Taints = withoutTaint(n.Spec.Taints, key, effect) })
}

func withTaint(ts []api.Taint, t api.Taint, now api.Time) []api.Taint {
	if t.Effect == api.TaintEffectNoExecute && t.TimeAdded == nil {
		at := now
		t.TimeAdded = &at
	}
	for i := range ts {
		if ts[i].Key == t.Key && ts[i].Effect == t.Effect {
			if ts[i].Value == t.Value {
				return ts
			}
			ts[i] = t
			return ts
		}
	}
	return append(ts, t)
}

func withoutTaint(ts []api.Taint, key, effect string) []api.Taint {
	out := ts[:0]
	for _, t := range ts {
		if t.Key == key && (effect == "" || t.Effect == effect) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// Node returns a node object (nil if none). Do not modify it.
func (e *Engine) Node(name string) *api.Node {
	if ns := e.nodes[name]; ns != nil {
		return ns.node
	}
	return nil
}

// Nodes returns the nodes sorted by name. Do not modify them.
func (e *Engine) Nodes() []*api.Node {
	out := make([]*api.Node, 0, len(e.nodeNames))
	for _, n := range e.sortedNodeNames() {
		out = append(out, e.nodes[n].node)
	}
	return out
}

// NumNodes returns how many nodes there are.
func (e *Engine) NumNodes() int { return len(e.nodes) }

// sortedNodeNames returns the node names sorted. AddNode appends a name
// and RemoveNode leaves it, so adding or removing a zone of thousands of
// nodes does not shift the list once per node: the first read after a
// change sorts the list in place and drops the names of removed nodes
// (and the duplicate of a node removed and added again). A clone copies
// the list as it is and tidies its own copy when it reads it.
func (e *Engine) sortedNodeNames() []string {
	if len(e.nodeNames) == len(e.nodes) && slices.IsSorted(e.nodeNames) {
		return e.nodeNames
	}
	slices.Sort(e.nodeNames)
	names := slices.Compact(e.nodeNames)
	kept := names[:0]
	for _, n := range names {
		if _, ok := e.nodes[n]; ok {
			kept = append(kept, n)
		}
	}
	clear(e.nodeNames[len(kept):])
	e.nodeNames = kept
	return kept
}

func (e *Engine) nodeReady(name string) bool {
	ns := e.nodes[name]
	if ns == nil {
		return false
	}
	c := ns.node.Condition(api.NodeReady)
	return c == nil || c.Status == api.ConditionTrue
}

// kubeletAlive reports whether the node's kubelet acts on its pods: it
// does on a Ready or NotReady node (NotReady is what the kubelet
// reports), not on an unreachable one (status Unknown).
func (e *Engine) kubeletAlive(name string) bool {
	ns := e.nodes[name]
	if ns == nil {
		return false
	}
	c := ns.node.Condition(api.NodeReady)
	return c == nil || c.Status != api.ConditionUnknown
}

// podKeysOnNode lists the pods bound to a node (any state), sorted.
func (e *Engine) podKeysOnNode(name string) []string {
	var m map[string]struct{}
	if set := e.podsByNode[name]; set != nil {
		m = set.keys
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (e *Engine) indexPod(key, node string) {
	if node == "" {
		return
	}
	e.podSetW(node).keys[key] = struct{}{}
}
