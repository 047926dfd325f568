package engine

import (
	"maps"

	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Clone returns an independent copy of the whole cluster (for undo):
// objects are shared (they are never modified once published), the
// engine's own state is copied, the snapshot and scheduler are rebuilt.
// Controllers implementing CloneableController (Workloads) are cloned;
// other controllers are shared. The default scheduler's tie-break
// generator continues from the same state.
func (e *Engine) Clone() *Engine { return e.CloneWith(nil) }

// CloneWith is Clone with another scheduler factory (nil: the same): the
// clone's scheduler is built by it, continuing the tie-break generator as
// Clone does. The lab forks a session with it, so the copy's scheduler
// asks the copy — not the original — for what its factory looks up
// (owners' selectors for default spreading).
func (e *Engine) CloneWith(factory SchedulerFactory) *Engine {
	// from here on both engines copy a shared pod state, timeline or
	// node's pod set before changing it (cow.go)
	e.own = &owner{}
	c := &Engine{
		cfg:         e.cfg,
		own:         &owner{},
		eviction:    e.eviction,
		clock:       e.clock.Clone(),
		rand:        e.rand.Clone(),
		nodes:       make(map[string]*nodeState, len(e.nodes)),
		nodeNames:   append([]string(nil), e.nodeNames...),
		pods:        e.pods,
		podsByNode:  maps.Clone(e.podsByNode),
		pdbs:        maps.Clone(e.pdbs),
		classes:     maps.Clone(e.classes),
		namespaces:  maps.Clone(e.namespaces),
		timelines:   e.timelines,
		snap:        e.snap.Clone(),
		queue:       scheduler.NewQueue(),
		controllers: append([]Controller(nil), e.controllers...),
		events:      e.events[:len(e.events):len(e.events)],
		sealed:      e.sealed[:len(e.sealed):len(e.sealed)],
		sealedLen:   e.sealedLen,
		flat:        e.flat[:len(e.flat):len(e.flat)],
		uidSeq:      e.uidSeq,
		podSeq:      e.podSeq,
		genSeq:      e.genSeq,
		started:     e.started,
		changes:     e.changes,
		ctrlSeen:    e.ctrlSeen,
	}
	if c.podsByNode == nil {
		c.podsByNode = map[string]*podSet{}
	}
	if e.podKeysOK {
		// the sorted keys are never modified in place (mergePodKeys makes
		// a new slice)
		e.mergePodKeys()
		c.podKeys, c.podKeysOK = e.podKeys, true
	}
	if factory != nil {
		c.cfg.NewScheduler = factory
	}
	if e.schedWake != nil {
		w := *e.schedWake
		c.schedWake = &w
	}
	for k, ns := range e.nodes {
		cp := *ns
		cp.pressure = ns.pressure.Clone()
		c.nodes[k] = &cp
	}
	// Pending pods change in place in the scheduling queue (attempts,
	// the PodInfo the queue holds): each engine keeps its own.
	for key, ps := range e.pods.All() {
		if ps.state != StatePending {
			continue
		}
		ps.owner = e.own
		cp := ps.copyFor(c.own)
		if ps.info != nil {
			info := *ps.info
			cp.info, cp.infoShared = &info, false
		}
		c.pods.Set(c.own, key, cp)
	}
	for i, ctl := range c.controllers {
		if cc, ok := ctl.(CloneableController); ok {
			c.controllers[i] = cc.CloneFor(c)
		}
	}
	c.sched = c.newScheduler()
	if from, ok := e.sched.(*scheduler.Scheduler); ok {
		if to, ok := c.sched.(*scheduler.Scheduler); ok {
			to.CopyTieBreakState(from)
		}
	}
	c.queue = e.queue.Clone(func(key string) *framework.PodInfo {
		if ps := c.pods.Get(key); ps != nil && ps.info != nil && ps.state == StatePending {
			return ps.info
		}
		return nil
	})
	c.queue.SetPreEnqueue(c.preEnqueue)
	c.copyNominations(e.sched)
	for _, d := range e.drains {
		cp := *d
		cp.Lines = d.Lines[:len(d.Lines):len(d.Lines)]
		cp.pods = make([]*drainPod, len(d.pods))
		for i, p := range d.pods {
			pc := *p
			if p.blocked != nil {
				b := *p.blocked
				pc.blocked = &b
			}
			cp.pods[i] = &pc
		}
		c.drains = append(c.drains, &cp)
	}
	return c
}
