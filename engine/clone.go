package engine

import (
	"podlab.dev/podlab/engine/api"
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
	c := &Engine{
		cfg:         e.cfg,
		eviction:    e.eviction,
		clock:       e.clock.Clone(),
		rand:        e.rand.Clone(),
		nodes:       make(map[string]*nodeState, len(e.nodes)),
		nodeNames:   append([]string(nil), e.nodeNames...),
		pods:        make(map[string]*podState, len(e.pods)),
		podsByNode:  make(map[string]map[string]struct{}, len(e.podsByNode)),
		pdbs:        make(map[string]*api.PodDisruptionBudget, len(e.pdbs)),
		classes:     make(map[string]*api.PriorityClass, len(e.classes)),
		namespaces:  make(map[string]*api.Namespace, len(e.namespaces)),
		timelines:   make(map[string]*podTimeline, len(e.timelines)),
		snap:        framework.NewSnapshot(),
		queue:       scheduler.NewQueue(),
		controllers: append([]Controller(nil), e.controllers...),
		events:      e.events[:len(e.events):len(e.events)],
		uidSeq:      e.uidSeq,
		genSeq:      e.genSeq,
		started:     e.started,
		changes:     e.changes,
		ctrlSeen:    e.ctrlSeen,
	}
	if factory != nil {
		c.cfg.NewScheduler = factory
	}
	if e.schedWake != nil {
		w := *e.schedWake
		c.schedWake = &w
	}
	for k, v := range e.pdbs {
		c.pdbs[k] = v
	}
	for k, v := range e.classes {
		c.classes[k] = v
	}
	for k, v := range e.namespaces {
		c.namespaces[k] = v
		c.snap.SetNamespace(k, v.Labels)
	}
	for k, ns := range e.nodes {
		cp := *ns
		cp.pressure = ns.pressure.Clone()
		c.nodes[k] = &cp
		c.snap.AddNode(ns.node)
	}
	for k, tl := range e.timelines {
		cp := *tl
		cp.plans = tl.plans[:len(tl.plans):len(tl.plans)]
		c.timelines[k] = &cp
	}
	for _, key := range e.sortedPodKeys() {
		ps := e.pods[key]
		cp := *ps
		if ps.info != nil {
			info := *ps.info
			cp.info = &info
		}
		if ps.kill != nil {
			k := *ps.kill
			cp.kill = &k
		}
		if ps.taintAt != nil {
			at := *ps.taintAt
			cp.taintAt = &at
		}
		cp.rt = ps.rt.clone()
		c.pods[key] = &cp
		c.indexPod(key, cp.pod.Spec.NodeName)
		if e.snap.NodeOfPod(key) != nil {
			c.snap.AddPod(cp.info)
		}
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
		if ps := c.pods[key]; ps != nil && ps.info != nil && ps.state == StatePending {
			return ps.info
		}
		return nil
	})
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
