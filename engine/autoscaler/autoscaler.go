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
	groups    []NodeGroup
	opts      Options
	schedCfg  scheduler.Config
	zoneLabel string
	rng       *clock.Rand

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

	status Status
	// infos is the last simulation's PodInfo cache (pods are immutable
	// objects, so an unchanged pointer means an unchanged pod).
	infos map[string]cachedInfo
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
	return &Autoscaler{
		groups:        gs,
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
}

// CloneFor implements engine.CloneableController.
func (a *Autoscaler) CloneFor(e *engine.Engine) engine.Controller {
	c := *a
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
		_ = e.AddNode(n)
	}
}

func (a *Autoscaler) group(name string) *NodeGroup {
	for i := range a.groups {
		if a.groups[i].Name == name {
			return &a.groups[i]
		}
	}
	return nil
}

// groupOf returns the node's group name ("" when not autoscaled).
func (a *Autoscaler) groupOf(n *api.Node) string {
	g := n.Labels[NodeGroupLabel]
	if a.group(g) == nil {
		return ""
	}
	return g
}

// sizes counts each group's registered nodes, upcoming nodes and nodes
// being deleted.
func (a *Autoscaler) sizes(nodes []*api.Node) (registered, coming, deleting map[string]int) {
	registered, coming, deleting = map[string]int{}, map[string]int{}, map[string]int{}
	for _, n := range nodes {
		if g := a.groupOf(n); g != "" {
			registered[g]++
		}
	}
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
	nodes := e.Nodes()
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
			a.status = st
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
	a.fillGroups(e, &st)
	a.status = st
}

// simulationOf builds the simulation: every node with its pods, plus the
// upcoming nodes as template copies (so pods that will fit on them do
// not trigger another scale-up).
func (a *Autoscaler) simulationOf(e *engine.Engine, nodes []*api.Node) (*simulation, error) {
	sim, err := newSimulation(a.schedCfg, nodes, e.PodsOnNode, a.infos)
	if err != nil {
		return nil, err
	}
	a.infos = sim.infos
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
