package engine

import (
	"fmt"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/engine/scheduler"
)

// CloneableController is a Controller with state of its own that Clone
// must copy for the cloned engine.
type CloneableController interface {
	Controller
	CloneFor(e *Engine) Controller
}

// Workloads runs engine/controllers' Manager (ReplicaSet, Deployment,
// StatefulSet, DaemonSet, Job, CronJob, garbage collector) in the engine:
// it is reconciled after every change and at the times it asks for, and
// disruption budgets take workload scales from it.
type Workloads struct {
	Manager *controllers.Manager
	lastAsk api.Time
	asked   bool
}

// NewWorkloads creates the controller manager over the engine, registers
// it and returns it (add workloads to w.Manager, then call
// w.Manager.Start() once the scenario is loaded).
func (e *Engine) NewWorkloads(seed int64) *Workloads {
	w := &Workloads{}
	w.Manager = controllers.New(e.ControllerCluster(), seed)
	// the engine installs a new pod object on every change and reports
	// it: the manager keeps its own pod indexes and syncs only what
	// changed (work queues)
	w.Manager.UseWorkQueues(true)
	e.Watch(w.Manager)
	e.SetScaleLookup(w.Manager.ScaleOf)
	e.AddController(w)
	return w
}

// Reconcile implements Controller.
func (w *Workloads) Reconcile(e *Engine, now api.Time) {
	w.Manager.Reconcile(now)
	if t, ok := w.Manager.NextWake(); ok && t > now && (!w.asked || w.lastAsk != t) {
		w.lastAsk, w.asked = t, true
		e.WakeAt(t)
	}
}

// CloneFor implements CloneableController.
func (w *Workloads) CloneFor(e *Engine) Controller {
	c := &Workloads{lastAsk: w.lastAsk, asked: w.asked}
	c.Manager = w.Manager.Clone(e.ControllerCluster())
	// watchers are not cloned: the clone's manager watches the clone
	e.Watch(c.Manager)
	e.cfg.Scale = c.Manager.ScaleOf
	return c
}

// ControllerCluster is the engine as controllers.Cluster: the API calls
// a controller makes.
func (e *Engine) ControllerCluster() controllers.Cluster { return clusterAPI{e} }

type clusterAPI struct{ e *Engine }

// Pods implements controllers.Cluster.
func (c clusterAPI) Pods(namespace string) []*api.Pod {
	keys := c.e.sortedPodKeys()
	if namespace != "" {
		// Keys are "namespace/name", sorted, so a namespace's pods are one
		// run of them: found by binary search, not by visiting every pod
		// (a report over 2,800 Deployments of a 30,000-pod import spent a
		// minute here).
		keys = namespaceRun(keys, namespace)
	}
	out := make([]*api.Pod, 0, len(keys))
	for _, k := range keys {
		out = append(out, c.e.pods.Get(k).pod)
	}
	return out
}

// PodByKey implements controllers.PodLookup.
func (c clusterAPI) PodByKey(key string) *api.Pod { return c.e.Pod(key) }

// namespaceRun returns the keys of namespace's objects from sorted
// "namespace/name" keys.
func namespaceRun(keys []string, namespace string) []string {
	prefix := namespace + "/"
	i := sort.SearchStrings(keys, prefix)
	j := i
	for j < len(keys) && strings.HasPrefix(keys[j], prefix) {
		j++
	}
	return keys[i:j]
}

// Nodes implements controllers.Cluster.
func (c clusterAPI) Nodes() []*api.Node { return c.e.Nodes() }

// CreatePod implements controllers.Cluster.
// The controllers hand their freshly built pod over (createOwnedPod)
// rather than have it copied.
func (c clusterAPI) CreatePod(p *api.Pod) error { return c.e.createOwnedPod(p) }

// DeletePod implements controllers.Cluster.
func (c clusterAPI) DeletePod(namespace, name string) error {
	return c.e.deletePod(namespace+"/"+name, DeleteOptions{})
}

// SetPodOwnership implements controllers.Cluster.
func (c clusterAPI) SetPodOwnership(namespace, name string, labels map[string]string, refs []api.OwnerReference) error {
	key := namespace + "/" + name
	ps := c.e.pods.Get(key)
	if ps == nil {
		return fmt.Errorf("pods %q not found", name)
	}
	p := copyPod(ps.pod)
	p.Labels = make(map[string]string, len(labels))
	for k, v := range labels {
		p.Labels[k] = v
	}
	p.OwnerReferences = append([]api.OwnerReference(nil), refs...)
	c.e.setPodObjectForScheduler(ps, p)
	if ps.state == StatePending {
		c.e.queue.Update(ps.info, c.e.Now())
	} else {
		c.e.queue.MoveAllToActiveOrBackoff(scheduler.AssignedPodLabelChange, c.e.Now())
	}
	c.e.changes++
	return nil
}

// FinishPod implements controllers.Cluster: the pod's containers end on
// their own (a Job's pod completing or failing).
func (c clusterAPI) FinishPod(namespace, name, phase, reason string) error {
	key := namespace + "/" + name
	ps := c.e.pods.Get(key)
	if ps == nil {
		return fmt.Errorf("pods %q not found", name)
	}
	if ps.state != StateRunning {
		return fmt.Errorf("pod %s is %s, not Running", key, ps.state)
	}
	at := c.e.Now()
	c.e.timelineW(key).gone = &at
	c.e.markTerminated(ps, phase, reason, "PodCompleted")
	return nil
}

// Record implements controllers.Cluster.
func (c clusterAPI) Record(ev controllers.Event) {
	obj := strings.ToLower(ev.Kind) + "/"
	if ev.Namespace != "" {
		obj += ev.Namespace + "/"
	}
	c.e.events = append(c.e.events, Event{Time: c.e.Now(), Type: ev.Type, Reason: ev.Reason, Object: obj + ev.Name, Message: ev.Message})
}

// Settle lets controllers and the scheduler react now to changes made
// outside the engine's methods (workloads added or edited through
// Workloads.Manager).
func (e *Engine) Settle() {
	e.changes++
	e.settle()
}
