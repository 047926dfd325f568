package descheduler

import (
	"fmt"
	"strings"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/engine/disruption"
)

// Event reasons and messages (evictions.go EvictPod): a successful
// eviction is a Normal event whose reason is the plugin (opts.Reason is
// empty, so StrategyName) and a failed one, with
// evictionFailureEventNotification, a Warning EvictionFailed.
const (
	ReasonEvictionFailed = "EvictionFailed"
	eventSource          = "sigs.k8s.io/descheduler"
)

// StateOf reads the engine's cluster for a pass.
func StateOf(e *engine.Engine) *State {
	classes := map[string]*api.PriorityClass{}
	for _, pc := range e.PriorityClasses() {
		classes[pc.Name] = pc
	}
	return &State{Now: e.Now(), Nodes: e.Nodes(), Pods: e.Pods(), PDBs: e.PDBs(), Classes: classes}
}

// Deschedule runs one pass on the engine. Evictions go through the
// engine's Eviction API (engine.Evict: PDBs decide, DisruptionTarget,
// graceful deletion) and are recorded as events, as upstream's
// PodEvictor does. With dryRun nothing changes: each eviction is judged
// against the budgets as they would stand after the pass's earlier
// evictions.
func Deschedule(e *engine.Engine, p *Policy, dryRun bool) *Result {
	s := StateOf(e)
	if dryRun {
		return Run(p, s, true, dryRunEvict(s.PDBs))
	}
	rec := e.ControllerCluster()
	// Events at each attempt, as PodEvictor.EvictPod records them.
	attempted := func(ev *Eviction) {
		if pe, ok := eventFor(ev, p); ok {
			rec.Record(controllers.Event{Time: e.Now(), Type: pe.Type, Reason: pe.Reason, Message: pe.Message, Kind: "Pod", Namespace: pe.Namespace, Name: pe.Name, Source: eventSource})
		}
	}
	return run(p, s, false, func(pod *api.Pod, ev *Eviction) string {
		d, err := e.Evict(pod.Namespace+"/"+pod.Name, engine.DeleteOptions{GracePeriodSeconds: p.GracePeriodSeconds})
		switch {
		case err != nil:
			return err.Error()
		case !d.Allowed:
			return d.Message
		}
		return ""
	}, attempted)
}

// podEvent is one event a pass records about a pod.
type podEvent struct {
	Type, Reason, Message string
	Namespace, Name       string
}

// evictionEvents are the events of a (not dry) pass, in attempt order.
func evictionEvents(res *Result, p *Policy) []podEvent {
	var out []podEvent
	for i := range res.Evictions {
		if pe, ok := eventFor(&res.Evictions[i], p); ok {
			out = append(out, pe)
		}
	}
	return out
}

// eventFor is the event PodEvictor.EvictPod (evictions.go) records for
// an attempt: a Normal event whose reason is the plugin for an eviction;
// with evictionFailureEventNotification a Warning EvictionFailed for a
// failure, eviction limits included.
func eventFor(ev *Eviction, p *Policy) (podEvent, bool) {
	ns, name, _ := strings.Cut(ev.Pod, "/")
	switch {
	case ev.Evicted:
		return podEvent{engine.EventNormal, ev.Plugin, fmt.Sprintf("pod eviction from %s node by %s", ev.Node, eventSource), ns, name}, true
	case p.EvictionFailureEventNotification:
		why := strings.TrimPrefix(strings.TrimPrefix(ev.Outcome, "refused: "), "not evicted: ")
		return podEvent{engine.EventWarning, ReasonEvictionFailed, fmt.Sprintf("pod eviction from %s node by %s failed: %s", ev.Node, eventSource, why), ns, name}, true
	}
	return podEvent{}, false
}

// dryRunEvict judges evictions against the budgets without acting,
// spending a budget's disruptionsAllowed as the real evictions would.
func dryRunEvict(pdbs []*api.PodDisruptionBudget) EvictFunc {
	spent := map[string]int32{}
	return func(pod *api.Pod, _ *Eviction) string {
		budgets := disruption.BudgetsFor(pod, pdbs)
		var adjusted []*api.PodDisruptionBudget
		for _, b := range budgets {
			c := *b
			c.Status.DisruptionsAllowed -= spent[b.Key()]
			adjusted = append(adjusted, &c)
		}
		d := disruption.DecideEviction(pod, adjusted)
		if !d.Allowed {
			return d.Message
		}
		if d.Decrement {
			spent[d.Budget]++
		}
		return ""
	}
}

// Controller runs a pass every Interval on the virtual clock, starting
// when it is added (upstream's wait.NonSlidingUntil runs at once, then
// every deschedulingInterval). Last holds the latest pass.
type Controller struct {
	Policy   *Policy
	Interval time.Duration
	next     api.Time
	started  bool
	Last     *Result
	// Passes counts the passes run.
	Passes int
	// OnPass, if set, sees every pass's result.
	OnPass func(*Result)
}

// Reconcile implements engine.Controller.
func (c *Controller) Reconcile(e *engine.Engine, now api.Time) {
	if c.Interval <= 0 {
		return
	}
	if c.started && now < c.next {
		return
	}
	c.started = true
	c.next = now.Add(c.Interval)
	e.WakeAt(c.next)
	c.Last = Deschedule(e, c.Policy, false)
	c.Passes++
	if c.OnPass != nil {
		c.OnPass(c.Last)
	}
}

// CloneFor implements engine.CloneableController.
func (c *Controller) CloneFor(*engine.Engine) engine.Controller {
	cp := *c
	return &cp
}
