package autoscaler

import (
	"fmt"
	"sort"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/clock"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Event reasons, as cluster-autoscaler records them.
const (
	ReasonTriggeredScaleUp  = "TriggeredScaleUp"
	ReasonNotTriggerScaleUp = "NotTriggerScaleUp"
	ReasonScaleDown         = "ScaleDown"
	ReasonScaleDownFailed   = "ScaleDownFailed"
)

// upcoming is a node the cloud is provisioning.
type upcoming struct {
	Group   string
	Name    string
	ReadyAt api.Time
}

// deletion is a node being removed: tainted, its pods evicted, deleted
// once they are gone.
type deletion struct {
	Node    string
	Group   string
	Started api.Time
	// Pending are the pods still to evict (refused so far); Evicted the
	// pods evicted and not yet gone.
	Pending []string
	Evicted []string
	Empty   bool
	// LastTry is the last eviction round.
	LastTry api.Time
}

// Autoscaler is the cluster autoscaler, an engine.Controller. Build it
// with New, then register it with engine.AddController.
type Autoscaler struct {
	groups []NodeGroup
	// groupIndex maps a group's name to its position in groups (read
	// for every node of every loop).
	groupIndex map[string]int
	opts       Options
	schedCfg   scheduler.Config
	zoneLabel  string
	rng        *clock.Rand

	started  bool
	nextLoop api.Time
	asked    api.Time
	hasAsked bool

	upcoming  []upcoming
	deletions []*deletion
	// seq numbers each group's nodes (names are never reused).
	seq map[string]int
	// unneededSince is when each node became unneeded.
	unneededSince map[string]api.Time
	// unremovable holds the nodes the removal simulation kept, until
	// their recheck time.
	unremovable map[string]unremovableNode

	lastScaleUp, lastScaleDownDelete, lastScaleDownFail *api.Time
	// notified remembers the last NotTriggerScaleUp message per pod, so
	// an unchanged verdict is not recorded every 10 s (the event
	// recorder aggregates repeats upstream).
	notified map[string]string

	// loopRegistered is the current loop's registered node count per
	// group (nil outside RunOnce): counted once per loop, not at every
	// size check.
	loopRegistered map[string]int
	// removedInLoop is set when a node is deleted (an empty node, at
	// once) during RunOnce: the status then reads the node list again.
	removedInLoop bool
	// loop is the current loop's nodes (zero outside RunOnce).
	loop loopNodes
	// buf keeps the last loop's node buffers for the next; loopDepth
	// counts the RunOnce calls in progress.
	buf loopNodes
	// groupBuf is fillGroups' node → group buffer, reused by every loop
	// (a loop every 10 s allocated it afresh).
	groupBuf  []int
	loopDepth int
	// statusHandedOut is set once the status left the autoscaler (its
	// slices may be held); statusNodesBuf is the buffer the loop's node
	// statuses are written to (nil: a new one).
	statusHandedOut bool
	statusNodesBuf  []NodeStatus
	// reference turns the loop's memos and buffers off (equivalence
	// tests compare a run with them to one without).
	reference bool
	// facts memoises nodeFacts per node object.
	facts map[*api.Node]nodeFacts

	status Status
	// infos is the last simulation's PodInfo cache (pods are immutable
	// objects, so an unchanged pointer means an unchanged pod).
	infos map[string]cachedInfo
	// sim is the simulation kept from the last loop that built one
	// (nil: build afresh); it is the autoscaler's own (CloneFor and
	// SetSpreadSelectors drop it).
	sim *simulation
	// placed is the last simulation's placed copies (read, not written,
	// by the next: a clone may share it).
	placed map[placedKey]*framework.PodInfo
}

// New returns an autoscaler over the groups. schedCfg is the scheduler
// configuration the cluster runs (its default constraints and selectors),
// used to simulate placements; seed drives the random expander.
func New(groups []NodeGroup, opts Options, schedCfg scheduler.Config, zoneLabel string, seed int64) (*Autoscaler, error) {
	if err := Validate(groups, opts); err != nil {
		return nil, err
	}
	if zoneLabel == "" {
		zoneLabel = api.LabelTopologyZone
	}
	gs := append([]NodeGroup(nil), groups...)
	sort.Slice(gs, func(i, j int) bool { return gs[i].Name < gs[j].Name })
	index := make(map[string]int, len(gs))
	for i, g := range gs {
		index[g.Name] = i
	}
	return &Autoscaler{
		groups:        gs,
		groupIndex:    index,
		opts:          opts.withDefaults(),
		schedCfg:      schedCfg,
		zoneLabel:     zoneLabel,
		rng:           clock.NewRand(seed ^ 0x5ca1ab1e),
		seq:           map[string]int{},
		unneededSince: map[string]api.Time{},
		unremovable:   map[string]unremovableNode{},
		notified:      map[string]string{},
	}, nil
}

// Groups returns the node groups, sorted by name.
func (a *Autoscaler) Groups() []NodeGroup { return a.groups }

// Options returns the options in force (defaults filled in).
func (a *Autoscaler) Options() Options { return a.opts }

// InitialNodes returns the nodes each group starts with (min of them),
// named group-1, group-2, …, for the scenario loader to add.
func (a *Autoscaler) InitialNodes(existing func(group string) int) []*api.Node {
	var out []*api.Node
	for _, g := range a.groups {
		for have := existing(g.Name); have < g.Min; have++ {
			out = append(out, a.newNode(g))
		}
	}
	return out
}

func (a *Autoscaler) newNode(g NodeGroup) *api.Node {
	a.seq[g.Name]++
	n := nodeFromTemplate(g.Template, fmt.Sprintf("%s-%d", g.Name, a.seq[g.Name]))
	n.Labels[NodeGroupLabel] = g.Name
	return n
}

// SetSpreadSelectors replaces the owners' selectors its simulated
// scheduling uses for default spreading (a lab session forked from
// another answers for its own workloads).
func (a *Autoscaler) SetSpreadSelectors(f func(*api.Pod) api.Selector) {
	a.schedCfg.SpreadSelectors = f
	a.sim = nil
}

// CloneFor implements engine.CloneableController.
func (a *Autoscaler) CloneFor(e *engine.Engine) engine.Controller {
	c := *a
	c.statusHandedOut, a.statusHandedOut = true, true // both hold its slices
	c.rng = a.rng.Clone()
	c.upcoming = append([]upcoming(nil), a.upcoming...)
	c.deletions = make([]*deletion, len(a.deletions))
	for i, d := range a.deletions {
		cp := *d
		cp.Pending = append([]string(nil), d.Pending...)
		cp.Evicted = append([]string(nil), d.Evicted...)
		c.deletions[i] = &cp
	}
	c.seq = copyMap(a.seq)
	c.unneededSince = copyMap(a.unneededSince)
	c.unremovable = copyMap(a.unremovable)
	c.notified = copyMap(a.notified)
	c.facts, c.buf, c.groupBuf = nil, loopNodes{}, nil // its own (forks may run concurrently)
	c.loop, c.loopRegistered, c.loopDepth = loopNodes{}, nil, 0
	c.sim = nil
	return &c
}

func copyMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Reconcile implements engine.Controller: nodes whose provisioning time
// is up register, drained nodes are deleted, and every scan interval the
// main loop (StaticAutoscaler.RunOnce) runs.
func (a *Autoscaler) Reconcile(e *engine.Engine, now api.Time) {
	a.registerProvisioned(e, now)
	a.progressDeletions(e, now)
	if !a.started {
		a.started = true
		a.nextLoop = now
	}
	if now >= a.nextLoop {
		a.RunOnce(e, now)
		a.nextLoop = now.Add(a.opts.ScanInterval)
	}
	a.askWake(e, now)
}

// askWake schedules the next instant the autoscaler must run at.
func (a *Autoscaler) askWake(e *engine.Engine, now api.Time) {
	next := a.nextLoop
	for _, u := range a.upcoming {
		if u.ReadyAt > now && u.ReadyAt < next {
			next = u.ReadyAt
		}
	}
	if next > now && (!a.hasAsked || a.asked != next) {
		a.asked, a.hasAsked = next, true
		e.WakeAt(next)
	}
}

// registerProvisioned adds the nodes whose provisioning time is up.
func (a *Autoscaler) registerProvisioned(e *engine.Engine, now api.Time) {
	kept := a.upcoming[:0]
	var ready []upcoming
	for _, u := range a.upcoming {
		if u.ReadyAt <= now {
			ready = append(ready, u)
		} else {
			kept = append(kept, u)
		}
	}
	a.upcoming = kept
	for _, u := range ready {
		g := a.group(u.Group)
		if g == nil {
			continue
		}
		n := nodeFromTemplate(g.Template, u.Name)
		n.Labels[NodeGroupLabel] = g.Name
		for e.Node(n.Name) != nil { // a node of that name was added meanwhile
			n = a.newNode(*g)
		}
		if err := e.AddNode(n); err != nil {
			// the cloud provider refused the node (here: the lab's object
			// budget); upstream's executor records the failed scale-up on
			// the status ConfigMap (scaleup/orchestrator/executor.go:
			// "FailedToScaleUpGroup", "Scale-up failed for group %s: %v")
			a.record(e, "ConfigMap", "kube-system", "cluster-autoscaler-status", engine.EventWarning,
				ReasonFailedToScaleUpGroup, fmt.Sprintf("Scale-up failed for group %s: %v", g.Name, err))
		}
	}
}

// ReasonFailedToScaleUpGroup is the event of a node group whose new node
// could not be created.
const ReasonFailedToScaleUpGroup = "FailedToScaleUpGroup"

func (a *Autoscaler) group(name string) *NodeGroup {
	if i, ok := a.groupIndex[name]; ok {
		return &a.groups[i]
	}
	return nil
}

// registeredOf counts each group's registered nodes.
func (a *Autoscaler) registeredOf(nodes []*api.Node) map[string]int {
	count := make([]int, len(a.groups))
	for i, n := range nodes {
		if g := a.loop.factOf(i, n, a).group; g >= 0 {
			count[g]++
		}
	}
	return a.byName(count)
}

// byName maps the groups with a non-zero count to it.
func (a *Autoscaler) byName(count []int) map[string]int {
	m := make(map[string]int, len(a.groups))
	for g, c := range count {
		if c > 0 {
			m[a.groups[g].Name] = c
		}
	}
	return m
}

// sizes counts each group's registered nodes, upcoming nodes and nodes
// being deleted. Within RunOnce, nodes is the loop's node list, whose
// count loopRegistered holds.
func (a *Autoscaler) sizes(nodes []*api.Node) (registered, coming, deleting map[string]int) {
	if registered = a.loopRegistered; registered == nil {
		registered = a.registeredOf(nodes)
	}
	coming, deleting = a.inFlight()
	return
}

// inFlight counts each group's upcoming nodes and nodes being deleted.
func (a *Autoscaler) inFlight() (coming, deleting map[string]int) {
	coming, deleting = map[string]int{}, map[string]int{}
	for _, u := range a.upcoming {
		coming[u.Group]++
	}
	for _, d := range a.deletions {
		deleting[d.Group]++
	}
	return
}

// targetSize is the group's size as the cloud provider reports it:
// registered and upcoming nodes, less the ones being deleted.
func (a *Autoscaler) targetSize(g string, registered, coming, deleting map[string]int) int {
	return registered[g] + coming[g] - deleting[g]
}

func (a *Autoscaler) record(e *engine.Engine, kind, ns, name, typ, reason, msg string) {
	e.ControllerCluster().Record(controllers.Event{Time: e.Now(), Type: typ, Reason: reason, Message: msg, Kind: kind, Namespace: ns, Name: name, Source: "cluster-autoscaler"})
}

// RunOnce is one autoscaler loop: scale-up for unschedulable pods; when
// nothing was added, scale-down of unneeded nodes.
func (a *Autoscaler) RunOnce(e *engine.Engine, now api.Time) {
	st := Status{LoopAt: now, NextLoop: now.Add(a.opts.ScanInterval), Ran: true}
	// the node list and requests are read into the previous loop's
	// buffers (nothing published keeps them) — unless this loop runs
	// inside another (RunOnce called outside the engine's settle: a taint
	// settles the engine, which reconciles), which keeps its own.
	outer, outerRegistered, outerRemoved := a.loop, a.loopRegistered, a.removedInLoop
	nested := a.loopDepth > 0
	buf := a.buf
	if nested {
		buf = loopNodes{}
	}
	a.loopDepth++
	// the last status's node list is reused as this loop's when nobody
	// was handed that status (Status, CloneFor): the quiet day's loops
	// then allocate no 450-entry list each
	a.statusNodesBuf = nil
	if !nested && !a.statusHandedOut && !a.reference {
		a.statusNodesBuf = a.status.ScaleDown.Nodes[:0]
	}
	defer func() {
		// a node this loop removed is gone for the outer loop too
		a.loop, a.loopRegistered, a.removedInLoop = outer, outerRegistered, outerRemoved || a.removedInLoop
		a.loopDepth--
	}()
	var nodes []*api.Node
	var reqs []engine.NodeRequests
	if a.reference {
		nodes = e.Nodes() // reqs nil: NodeRequested per node
	} else {
		nodes, reqs = e.NodesRequested(buf.nodes, buf.reqs)
	}
	a.pruneFacts(nodes)
	a.removedInLoop = false
	a.loop = loopNodes{nodes: nodes, reqs: reqs, facts: buf.facts[:0]}
	for _, n := range nodes {
		a.loop.facts = append(a.loop.facts, a.factsOf(n))
	}
	if !nested {
		a.buf = a.loop
	}
	a.loopRegistered = a.registeredOf(nodes)
	// the simulation (every node and pod copied into a snapshot) is built
	// only when a pod needs a scale-up or a node is a scale-down candidate:
	// a quiet loop reads sizes and utilisation and stops there.
	var sim *simulation
	getSim := func() (*simulation, error) {
		if sim == nil {
			s, err := a.simulationOf(e, nodes)
			if err != nil {
				return nil, err
			}
			sim = s
		}
		return sim, nil
	}
	scaledUp := false
	pending := e.UnschedulablePods()
	st.ScaleUp.Unschedulable = len(pending)
	a.forgetGone(pending, nodes)
	if len(pending) == 0 {
		st.ScaleUp.Result = resultNoUnschedulable
	} else {
		s, err := getSim()
		if err != nil {
			st.Error = err.Error()
			a.status, a.statusHandedOut = st, false
			return
		}
		if remaining := a.processPodList(s, pending, now, &st.ScaleUp); len(remaining) > 0 {
			scaledUp = a.scaleUp(e, s, remaining, nodes, now, &st)
		}
	}
	if !a.opts.ScaleDownDisabled {
		if err := a.scaleDown(e, getSim, func() *simulation { return sim }, nodes, now, scaledUp, &st); err != nil {
			st.Error = err.Error()
		}
	} else {
		st.ScaleDown.Skipped = "scale-down is disabled"
	}
	if a.removedInLoop {
		a.loop = loopNodes{nodes: e.Nodes()}
	}
	a.fillGroups(&st)
	a.status, a.statusHandedOut = st, false
}

// simulationOf builds the simulation: every node with its pods, plus the
// upcoming nodes as template copies (so pods that will fit on them do
// not trigger another scale-up).
//
// Outside the reference mode and a nested loop, the last loop's
// simulation is kept and synced (simulation_sync.go) instead.
func (a *Autoscaler) simulationOf(e *engine.Engine, nodes []*api.Node) (*simulation, error) {
	var sim *simulation
	if keep := !a.reference && a.loopDepth == 1; keep && a.sim != nil {
		sim = a.sim
		sim.sync(nodes, e.PodsOnNode)
		sim.placedCur = map[placedKey]*framework.PodInfo{}
	} else {
		var err error
		if sim, err = newSimulation(a.schedCfg, nodes, e.PodsOnNode, a.infos); err != nil {
			return nil, err
		}
		if keep {
			a.sim = sim
		}
	}
	a.infos = sim.infos
	sim.reference = a.reference
	sim.placedPrev, a.placed = a.placed, sim.placedCur
	for _, u := range a.upcoming {
		if g := a.group(u.Group); g != nil {
			sim.addNode(g.Template, u.Name)
		}
	}
	return sim, nil
}

func ptrTime(t api.Time) *api.Time { return &t }

func since(t *api.Time, now api.Time) time.Duration {
	if t == nil {
		return 1 << 62
	}
	return time.Duration(now - *t)
}

// NewGroupNode returns the group's next node (GROUP-N, labelled into the
// group) for a loader that starts the group with nodes; nil for an
// unknown group.
func (a *Autoscaler) NewGroupNode(group string) *api.Node {
	g := a.group(group)
	if g == nil {
		return nil
	}
	return a.newNode(*g)
}

// forgetGone drops what the autoscaler remembers about pods that are no
// longer pending and nodes that no longer exist, so long runs do not
// accumulate it.
func (a *Autoscaler) forgetGone(pending []*api.Pod, nodes []*api.Node) {
	if len(a.notified) > 0 {
		still := make(map[string]bool, len(pending))
		for _, p := range pending {
			still[p.Key()] = true
		}
		for k := range a.notified {
			if !still[k] {
				delete(a.notified, k)
			}
		}
	}
	if len(a.unremovable) > 0 || len(a.unneededSince) > 0 {
		exists := make(map[string]bool, len(nodes))
		for _, n := range nodes {
			exists[n.Name] = true
		}
		for k := range a.unremovable {
			if !exists[k] {
				delete(a.unremovable, k)
			}
		}
		for k := range a.unneededSince {
			if !exists[k] {
				delete(a.unneededSince, k)
			}
		}
	}
}
