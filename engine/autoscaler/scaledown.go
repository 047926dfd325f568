package autoscaler

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// evictionRetryTime is actuation's EvictionRetryTime: refused evictions
// are retried this often.
const evictionRetryTime = 10 * time.Second

// Upstream defaults that bound the cost of a loop: a node the removal
// simulation found unremovable is not simulated again for
// --unremovable-node-recheck-timeout, and one loop looks for at most
// --scale-down-non-empty-candidates-count unneeded nodes.
const (
	unremovableNodeRecheckTimeout    = 5 * time.Minute
	scaleDownNonEmptyCandidatesCount = 30
)

// unremovableNode is a node the simulation could not remove, and until
// when that verdict stands.
type unremovableNode struct {
	reason string
	until  api.Time
}

func (a *Autoscaler) recentlyUnremovable(node string, now api.Time) bool {
	u, ok := a.unremovable[node]
	if ok && now >= u.until {
		delete(a.unremovable, node)
		return false
	}
	return ok
}

// utilization is utilization.Calculate: the larger of the CPU and memory
// requests of the node's pods over its allocatable (DaemonSet pods left
// out with --ignore-daemonsets-utilization; long-terminating pods left
// out).
func utilization(ni *framework.NodeInfo, ignoreDaemonSets bool, now api.Time) (float64, string) {
	var cpu, mem int64
	for _, pi := range ni.Pods {
		p := pi.Pod
		if longTerminating(p, now) {
			continue
		}
		if ignoreDaemonSets {
			if ref := p.ControllerRef(); ref != nil && ref.Kind == "DaemonSet" {
				continue
			}
		}
		r := api.PodRequests(p, api.PodRequestsOptions{})
		cpu += r[api.ResourceCPU].MilliValue()
		mem += r[api.ResourceMemory].Value()
	}
	return ratio(cpu, mem, ni.Node)
}

func nodeReady(n *api.Node) bool {
	c := n.Condition(api.NodeReady)
	return c != nil && c.Status == api.ConditionTrue
}

func hasTaint(n *api.Node, key string) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}

// scaleDown is the planner (core/scaledown/planner) and, when allowed, the
// actuator: every autoscaled node is checked for eligibility
// (eligibility.go: scale-down-disabled annotation, readiness, utilisation
// below the threshold), then its pods are simulated onto the other nodes
// (RemovalSimulator: drainability rules, PDBs, the scheduler's filters);
// nodes that pass are unneeded, and those unneeded for
// --scale-down-unneeded-time are removed unless a cooldown applies or the
// group is at its minimum.
func (a *Autoscaler) scaleDown(e *engine.Engine, getSim func() (*simulation, error), built func() *simulation, nodes []*api.Node, now api.Time, scaledUp bool, st *Status) error {
	sd := &st.ScaleDown
	pdbs := e.PDBs()
	tracker := newPDBTracker(pdbs)
	ksPDBs := kubeSystemPDBs(pdbs)
	skipSystem := !a.opts.SkipNodesWithSystemPodsDisabled
	deletingSet := map[string]bool{}
	for _, d := range a.deletions {
		deletingSet[d.Node] = true
		sd.Deleting = append(sd.Deleting, DeletionStatus{Node: d.Node, Started: d.Started, Pending: append([]string(nil), d.Pending...), Evicted: append([]string(nil), d.Evicted...)})
	}
	removed := map[string]bool{}
	unneeded := map[string]bool{}
	toMove := map[string][]*api.Pod{}
	// PreFilteringScaleDownNodeProcessor: nodes of groups at their minimum
	// size are no candidates at all.
	registered0, coming0, deleting0 := a.sizes(nodes)
	atMin := map[string]string{} // group → reason, for groups at min
	for _, g := range a.groups {
		if a.targetSize(g.Name, registered0, coming0, deleting0) <= g.Min {
			atMin[g.Name] = fmt.Sprintf("NodeGroupMinSizeReached: %s is at its minimum size %d", g.Name, g.Min)
		}
	}
	// eligibility first (FilterOutUnremovable): every node's utilisation is
	// read before any removal is simulated, so pods moved in the simulation
	// do not count against their destination.
	var eligible []int
	if sd.Nodes = a.statusNodesBuf; sd.Nodes == nil {
		sd.Nodes = make([]NodeStatus, 0, len(nodes))
	}
	a.statusNodesBuf = nil
	for i, n := range nodes {
		f := a.loop.factOf(i, n, a)
		if f.group < 0 {
			continue
		}
		g := a.groups[f.group].Name
		ns := NodeStatus{Node: n.Name, Group: g}
		known := true
		ns.Utilization, ns.Resource, known = a.utilizationOf(e, built(), i, n, f, now)
		switch {
		case deletingSet[n.Name] || f.toBeDeleted:
			ns.Removing = true
			ns.Reason = "CurrentlyBeingDeleted"
		case atMin[g] != "":
			ns.Reason = atMin[g]
		case a.recentlyUnremovable(n.Name, now):
			ns.Reason = "RecentlyUnremovable: " + a.unremovable[n.Name].reason + " (rechecked after --unremovable-node-recheck-timeout 5m)"
		case f.scaleDownDisabled:
			ns.Reason = "ScaleDownDisabledAnnotation: the node is annotated " + ScaleDownDisabledAnnotation + "=true"
		case !f.ready && a.opts.ScaleDownUnreadyDisabled:
			ns.Reason = "ScaleDownUnreadyDisabled: the node is not ready and --scale-down-unready-enabled is false"
		case !known:
			ns.Reason = "UnexpectedError: the node is not in the snapshot"
		case ns.Utilization >= a.opts.ScaleDownUtilizationThreshold:
			ns.Reason = fmt.Sprintf("NotUnderutilized: %s requested is %.0f%% of allocatable, not below the %.0f%% threshold", ns.Resource, ns.Utilization*100, a.opts.ScaleDownUtilizationThreshold*100)
		default:
			eligible = append(eligible, len(sd.Nodes))
		}
		sd.Nodes = append(sd.Nodes, ns)
	}
	// then the removal simulation, candidate by candidate: the nodes
	// already unneeded first (their timers go on), then by name, until
	// --scale-down-non-empty-candidates-count unneeded nodes are found.
	sort.SliceStable(eligible, func(i, j int) bool {
		_, ui := a.unneededSince[sd.Nodes[eligible[i]].Node]
		_, uj := a.unneededSince[sd.Nodes[eligible[j]].Node]
		return ui && !uj
	})
	var sim *simulation
	if len(eligible) > 0 {
		var err error
		if sim, err = getSim(); err != nil {
			return err
		}
	}
	found := 0
	for _, i := range eligible {
		ns := &sd.Nodes[i]
		if found >= scaleDownNonEmptyCandidatesCount {
			ns.Reason = fmt.Sprintf("not evaluated this loop: %d unneeded nodes were found first (--scale-down-non-empty-candidates-count)", scaleDownNonEmptyCandidatesCount)
			if since, ok := a.unneededSince[ns.Node]; ok {
				ns.Unneeded, ns.UnneededSince, ns.Reason = true, since, ""
				ns.UnneededFor = a.unneededTime(ns.Node, e)
				unneeded[ns.Node] = true
			}
			continue
		}
		pods, dests, reason := a.simulateRemoval(sim, sim.snap.Get(ns.Node), tracker, ksPDBs, skipSystem, removed, deletingSet, now)
		if reason != "" {
			ns.Reason = reason
			a.unremovable[ns.Node] = unremovableNode{reason: reason, until: now.Add(unremovableNodeRecheckTimeout)}
			continue
		}
		found++
		removed[ns.Node] = true
		unneeded[ns.Node] = true
		toMove[ns.Node] = pods
		ns.Unneeded = true
		ns.Destinations = dests
		since, ok := a.unneededSince[ns.Node]
		if !ok {
			since = now
			a.unneededSince[ns.Node] = now
		}
		ns.UnneededSince = since
		ns.UnneededFor = a.unneededTime(ns.Node, e)
	}
	for name := range a.unneededSince {
		if !unneeded[name] {
			delete(a.unneededSince, name)
		}
	}

	switch {
	case scaledUp:
		sd.Skipped = "a scale-up was requested in this loop"
		return nil
	case since(a.lastScaleUp, now) < a.opts.ScaleDownDelayAfterAdd:
		sd.Skipped = fmt.Sprintf("in cooldown: scale-up at %s, --scale-down-delay-after-add %s", *a.lastScaleUp, a.opts.ScaleDownDelayAfterAdd)
		return nil
	case since(a.lastScaleDownFail, now) < a.opts.ScaleDownDelayAfterFailure:
		sd.Skipped = fmt.Sprintf("in cooldown: scale-down failed at %s, --scale-down-delay-after-failure %s", *a.lastScaleDownFail, a.opts.ScaleDownDelayAfterFailure)
		return nil
	case since(a.lastScaleDownDelete, now) < a.opts.ScaleDownDelayAfterDelete:
		sd.Skipped = fmt.Sprintf("in cooldown: node deleted at %s, --scale-down-delay-after-delete %s", *a.lastScaleDownDelete, a.opts.ScaleDownDelayAfterDelete)
		return nil
	}

	registered, coming, deleting := a.sizes(nodes)
	draining := false
	for _, d := range a.deletions {
		if !d.Empty {
			draining = true
		}
	}
	emptyDeleted := 0
	for i := range sd.Nodes {
		ns := &sd.Nodes[i]
		if !ns.Unneeded || now.Sub(ns.UnneededSince) < a.unneededTime(ns.Node, e) {
			continue
		}
		g := a.group(ns.Group)
		if a.targetSize(g.Name, registered, coming, deleting) <= g.Min {
			ns.Reason = fmt.Sprintf("NodeGroupMinSizeReached: %s is at its minimum size %d", g.Name, g.Min)
			continue
		}
		empty := len(toMove[ns.Node]) == 0
		if empty && emptyDeleted >= a.opts.MaxEmptyBulkDelete {
			continue
		}
		if !empty && draining {
			continue // --max-drain-parallelism 1
		}
		a.startDeletion(e, ns.Node, g.Name, toMove[ns.Node], now)
		ns.Removing = true
		deleting[g.Name]++
		if empty {
			emptyDeleted++
		} else {
			draining = true
		}
		delete(a.unneededSince, ns.Node)
	}
	return nil
}

// unneededTime is how long a node must be unneeded before it goes:
// --scale-down-unready-time for an unready node (planner
// UnneededNodes.RemovableAt), --scale-down-unneeded-time otherwise.
func (a *Autoscaler) unneededTime(node string, e *engine.Engine) time.Duration {
	if n := e.Node(node); n != nil && !nodeReady(n) {
		return a.opts.ScaleDownUnreadyTime
	}
	return a.opts.ScaleDownUnneededTime
}

// utilizationOf is the node's utilisation: from the simulation when one
// was built this loop (it counts the pending pods placed on existing
// nodes, as upstream's snapshot does), else from the engine's cached
// request sums; per pod with --ignore-daemonsets-utilization.
func (a *Autoscaler) utilizationOf(e *engine.Engine, sim *simulation, i int, n *api.Node, f nodeFacts, now api.Time) (float64, string, bool) {
	if sim != nil {
		ni := sim.snap.Get(n.Name)
		if ni == nil {
			return 0, "", false
		}
		u, r := utilization(ni, a.opts.IgnoreDaemonSetsUtilization, now)
		return u, r, true
	}
	if a.opts.IgnoreDaemonSetsUtilization {
		ni := &framework.NodeInfo{Node: n}
		for _, p := range e.PodsOnNode(n.Name) {
			if !p.IsTerminal() {
				ni.Pods = append(ni.Pods, &framework.PodInfo{Pod: p})
			}
		}
		u, r := utilization(ni, true, now)
		return u, r, true
	}
	if i < len(a.loop.reqs) && a.loop.nodes[i] == n {
		u, r := ratioOf(a.loop.reqs[i].MilliCPU, a.loop.reqs[i].Memory, f)
		return u, r, true
	}
	req, ok := e.NodeRequested(n.Name)
	if !ok {
		return 0, "", false
	}
	u, r := ratioOf(req.MilliCPU, req.Memory, f)
	return u, r, true
}

// ratio is max(cpu, memory) requested over allocatable, with the resource.
func ratio(milliCPU, memory int64, n *api.Node) (float64, string) {
	return ratioOf(milliCPU, memory, nodeFacts{
		allocCPU: n.Status.Allocatable[api.ResourceCPU].MilliValue(),
		allocMem: n.Status.Allocatable[api.ResourceMemory].Value(),
	})
}

// simulateRemoval is RemovalSimulator.SimulateNodeRemoval: the pods that
// must move (drainability rules, PDBs), each placed on the first other
// node it fits (not one being removed), leaving them there for the next
// candidate. It returns the pods, their destinations, or the reason the
// node must stay (the simulation is left unchanged then).
func (a *Autoscaler) simulateRemoval(sim *simulation, ni *framework.NodeInfo, tracker *pdbTracker, ksPDBs []*api.PodDisruptionBudget, skipSystem bool, removed, deleting map[string]bool, now api.Time) ([]*api.Pod, []PodNote, string) {
	var pods []*api.Pod
	for _, pi := range ni.Pods {
		v := podDrainability(pi.Pod, skipSystem, ksPDBs, now)
		if v.Blocked != "" {
			return nil, nil, fmt.Sprintf("%s: %s", v.Blocked, v.Message)
		}
		if v.Move {
			pods = append(pods, pi.Pod)
		}
	}
	if v, blocked := tracker.blocks(pods); blocked {
		return nil, nil, fmt.Sprintf("%s: %s", v.Blocked, v.Message)
	}
	name := ni.Node.Name
	for _, p := range pods {
		sim.removePod(p)
	}
	elsewhere := func(o *framework.NodeInfo) bool {
		n := o.Node.Name
		return n != name && !removed[n] && !deleting[n] && !hasTaint(o.Node, ToBeDeletedTaint)
	}
	var dests []PodNote
	var placed []*api.Pod
	for _, p := range pods {
		node, ok := sim.fitsAny(p, elsewhere)
		if !ok {
			// undo: the pods go back where they were
			for _, q := range placed {
				sim.removePod(q)
			}
			for _, q := range pods {
				sim.addPod(q, name)
			}
			return nil, nil, fmt.Sprintf("NoPlaceToMovePods: %s fits no other node", p.Key())
		}
		sim.addPod(p, node)
		placed = append(placed, p)
		dests = append(dests, PodNote{Pod: p.Key(), Note: node})
	}
	tracker.take(pods)
	return pods, dests, ""
}

// startDeletion is the actuator's start: the ToBeDeletedByClusterAutoscaler
// taint, the events, and (for a node with pods to move) the evictions.
func (a *Autoscaler) startDeletion(e *engine.Engine, node, group string, pods []*api.Pod, now api.Time) {
	_ = e.TaintNode(node, api.Taint{Key: ToBeDeletedTaint, Value: strconv.FormatInt(int64(time.Duration(now)/time.Second), 10), Effect: api.TaintEffectNoSchedule})
	a.record(e, "Node", "", node, engine.EventNormal, ReasonScaleDown, "marked the node as toBeDeleted/unschedulable")
	d := &deletion{Node: node, Group: group, Started: now, Empty: len(pods) == 0}
	for _, p := range pods {
		if e.Pod(p.Key()) == nil {
			continue
		}
		d.Pending = append(d.Pending, p.Key())
	}
	sort.Strings(d.Pending)
	for _, key := range d.Pending {
		ns, name := splitKey(key)
		a.record(e, "Pod", ns, name, engine.EventNormal, ReasonScaleDown, "deleting pod for node scale down")
	}
	a.deletions = append(a.deletions, d)
	a.evictPending(e, d)
	a.finishDeletion(e, d, now)
}

// evictPending calls the Eviction API for each pod not evicted yet, with
// the pod's grace period capped at --max-graceful-termination-sec.
func (a *Autoscaler) evictPending(e *engine.Engine, d *deletion) {
	var still []string
	d.LastTry = e.Now()
	for _, key := range d.Pending {
		p := e.Pod(key)
		if p == nil || p.Spec.NodeName != d.Node {
			continue
		}
		grace := int64(30)
		if p.Spec.TerminationGracePeriodSeconds != nil {
			grace = *p.Spec.TerminationGracePeriodSeconds
		}
		grace = min(grace, a.opts.MaxGracefulTerminationSec)
		dec, err := e.Evict(key, engine.DeleteOptions{GracePeriodSeconds: &grace})
		if err != nil || !dec.Allowed {
			still = append(still, key)
			continue
		}
		d.Evicted = append(d.Evicted, key)
	}
	d.Pending = still
}

func splitKey(key string) (string, string) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

// progressDeletions retries refused evictions every 10 s, gives up after
// MaxPodEvictionTime (the node is untainted, ScaleDownFailed), and deletes
// the nodes whose evicted pods are gone.
func (a *Autoscaler) progressDeletions(e *engine.Engine, now api.Time) {
	var kept []*deletion
	for _, d := range append([]*deletion(nil), a.deletions...) {
		if e.Node(d.Node) == nil {
			continue
		}
		if len(d.Pending) > 0 {
			if now.Sub(d.Started) >= a.opts.MaxPodEvictionTime {
				_ = e.UntaintNode(d.Node, ToBeDeletedTaint, "")
				a.record(e, "Node", "", d.Node, engine.EventWarning, ReasonScaleDownFailed, "failed to drain the node, aborting ScaleDown")
				a.lastScaleDownFail = ptrTime(now)
				continue
			}
			if now.Sub(d.LastTry) >= evictionRetryTime {
				a.evictPending(e, d)
			}
		}
		if !a.finishDeletion(e, d, now) {
			kept = append(kept, d)
		}
	}
	a.deletions = kept
}

// finishDeletion deletes the node once nothing is left to evict and the
// evicted pods are gone; it reports whether the node was deleted.
func (a *Autoscaler) finishDeletion(e *engine.Engine, d *deletion, now api.Time) bool {
	if len(d.Pending) > 0 {
		return false
	}
	for _, key := range d.Evicted {
		if p := e.Pod(key); p != nil && p.Spec.NodeName == d.Node && !p.IsTerminal() {
			return false
		}
	}
	if e.Node(d.Node) == nil {
		return true
	}
	a.record(e, "Node", "", d.Node, engine.EventNormal, ReasonScaleDown, "node removed by cluster autoscaler")
	_ = e.RemoveNode(d.Node)
	a.removedInLoop = true
	a.lastScaleDownDelete = ptrTime(now)
	for i, x := range a.deletions {
		if x == d {
			a.deletions = append(a.deletions[:i], a.deletions[i+1:]...)
			break
		}
	}
	return true
}
