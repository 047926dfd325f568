// Package attach runs the workload controllers (engine/controllers) inside
// an engine.Engine: it implements controllers.Cluster with the engine's
// public API and registers the Manager as an engine.Controller. It exists
// so that engine never imports controllers (and controllers itself stays
// free of the engine).
package attach

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
)

// Controllers is the controllers attached to one engine.
type Controllers struct {
	*controllers.Manager
	e *engine.Engine
	// events holds controller events when the engine cannot record them.
	events   []controllers.Event
	wakeSent map[api.Time]bool
}

// New attaches a Manager to the engine (seed drives generated pod names
// and UIDs). The controllers do nothing until Start: load the whole
// scenario first.
func New(e *engine.Engine, seed int64) *Controllers {
	c := &Controllers{e: e, wakeSent: map[api.Time]bool{}}
	c.Manager = controllers.New(&cluster{c: c}, seed)
	e.SetScaleLookup(c.ScaleOf)
	e.AddController(c)
	return c
}

// Start lets the controllers act and reconciles at the current instant.
func (c *Controllers) Start() error {
	c.Manager.Start()
	return c.touch()
}

// Do runs a user operation on the controllers (scale, rollout undo,
// delete …) at the current instant and lets the cluster settle.
func (c *Controllers) Do(op func(m *controllers.Manager) error) error {
	c.SetNow(c.e.Now())
	if err := op(c.Manager); err != nil {
		return err
	}
	return c.touch()
}

type toucher interface{ Touch() }

// touch makes the engine reconcile now.
func (c *Controllers) touch() error {
	if t, ok := any(c.e).(toucher); ok {
		t.Touch()
		return nil
	}
	c.e.WakeAt(c.e.Now())
	return c.e.Step(0)
}

// Clone attaches a copy of the controllers to a clone of their engine
// (engine.Clone shares registered controllers; this one answers only its
// own engine, so the copy takes over on the clone).
func (c *Controllers) Clone(clone *engine.Engine) *Controllers {
	cp := &Controllers{e: clone, wakeSent: map[api.Time]bool{}, events: append([]controllers.Event(nil), c.events...)}
	cp.Manager = c.Manager.Clone(&cluster{c: cp})
	clone.SetScaleLookup(cp.ScaleOf)
	clone.AddController(cp)
	return cp
}

// Reconcile implements engine.Controller.
func (c *Controllers) Reconcile(e *engine.Engine, now api.Time) {
	if e != c.e {
		return // registered on an engine this copy does not drive (see Clone)
	}
	c.Manager.Reconcile(now)
	if t, ok := c.NextWake(); ok && !c.wakeSent[t] {
		c.wakeSent[t] = true
		e.WakeAt(t)
	}
}

// Events returns controller events the engine could not record itself.
func (c *Controllers) Events() []controllers.Event { return c.events }

// cluster implements controllers.Cluster over the engine.
type cluster struct{ c *Controllers }

func (k *cluster) Pods(namespace string) []*api.Pod {
	all := k.c.e.Pods()
	if namespace == "" {
		return all
	}
	out := make([]*api.Pod, 0, len(all))
	for _, p := range all {
		if p.Namespace == namespace {
			out = append(out, p)
		}
	}
	return out
}

func (k *cluster) Nodes() []*api.Node { return k.c.e.Nodes() }

func (k *cluster) CreatePod(p *api.Pod) error { return k.c.e.CreatePod(p) }

func (k *cluster) DeletePod(namespace, name string) error {
	return k.c.e.DeletePod(namespace+"/"+name, engine.DeleteOptions{})
}

type podMetaSetter interface {
	SetPodMeta(key string, labels map[string]string, refs []api.OwnerReference) error
}

func (k *cluster) SetPodOwnership(namespace, name string, labels map[string]string, refs []api.OwnerReference) error {
	if s, ok := any(k.c.e).(podMetaSetter); ok {
		return s.SetPodMeta(namespace+"/"+name, labels, refs)
	}
	return fmt.Errorf("set owner of pod %s/%s: the engine has no SetPodMeta", namespace, name)
}

type podFinisher interface {
	FinishPod(key, phase, reason string) error
}

func (k *cluster) FinishPod(namespace, name, phase, reason string) error {
	if f, ok := any(k.c.e).(podFinisher); ok {
		return f.FinishPod(namespace+"/"+name, phase, reason)
	}
	return fmt.Errorf("finish pod %s/%s: the engine has no FinishPod", namespace, name)
}

type eventRecorder interface {
	RecordEvent(typ, reason, object, message string)
}

func (k *cluster) Record(ev controllers.Event) {
	if r, ok := any(k.c.e).(eventRecorder); ok {
		r.RecordEvent(ev.Type, ev.Reason, strings.ToLower(ev.Kind)+"/"+ev.Namespace+"/"+ev.Name, ev.Message)
		return
	}
	k.c.events = append(k.c.events, ev)
}
