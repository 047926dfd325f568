package engine

import (
	"fmt"
	"sort"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/disruption"
)

// PDBs returns the disruption budgets sorted by namespace/name, with
// their status computed now as the disruption controller would. Do not
// modify them.
func (e *Engine) PDBs() []*api.PodDisruptionBudget {
	if e.pdbCache != nil && e.pdbCacheChanges == e.changes && e.pdbCacheAt == e.Now() {
		return e.pdbCache
	}
	keys := make([]string, 0, len(e.pdbs))
	for k := range e.pdbs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*api.PodDisruptionBudget, 0, len(keys))
	var podKeys []string // sorted once for all budgets, and only if there are any
	if len(keys) > 0 {
		podKeys = e.sortedPodKeys()
	}
	for _, k := range keys {
		b := e.pdbs[k]
		c := *b
		c.Status = e.pdbStatus(b, podKeys).Status
		e.pdbs[k] = &c
		out = append(out, &c)
	}
	e.pdbCache, e.pdbCacheChanges, e.pdbCacheAt = out, e.changes, e.Now()
	return out
}

// pdbStatus computes a budget's status from the pods (podKeys: every pod,
// sorted).
func (e *Engine) pdbStatus(b *api.PodDisruptionBudget, podKeys []string) disruption.StatusResult {
	sel, err := api.CompileSelector(b.Spec.Selector)
	if err != nil {
		return disruption.StatusResult{Err: err}
	}
	var pods []*api.Pod
	for _, k := range podKeys {
		p := e.pods.Get(k).pod
		if disruption.Selects(b, sel, p) {
			pods = append(pods, p)
		}
	}
	return disruption.ComputeStatus(b, pods, e.cfg.Scale, e.Now())
}

// SetScaleLookup sets how budgets find a workload's scale (controllers
// call it when they register).
func (e *Engine) SetScaleLookup(f disruption.ScaleFunc) {
	e.cfg.Scale = f
	e.changes++
}

// Evict calls the Eviction API for a pod (namespace/name): the pod's
// budget decides (disruption.DecideEviction); an allowed eviction takes
// one disruption from the budget, adds the DisruptionTarget condition
// (EvictionByEvictionAPI) and deletes the pod gracefully with opts.
func (e *Engine) Evict(key string, opts DeleteOptions) (disruption.Decision, error) {
	d, err := e.evict(key, opts)
	e.settle()
	return d, err
}

func (e *Engine) evict(key string, opts DeleteOptions) (disruption.Decision, error) {
	ps := e.pods.Get(key)
	if ps == nil {
		return disruption.Decision{Code: 404, Message: fmt.Sprintf("pods %q not found", nameOf(key))}, fmt.Errorf("evict pod %s: not found", key)
	}
	budgets := disruption.BudgetsFor(ps.pod, e.PDBs())
	d := disruption.DecideEviction(ps.pod, budgets)
	if !d.Allowed {
		return d, nil
	}
	if d.Decrement {
		b := e.pdbs[d.Budget]
		c := *b
		c.Status.DisruptionsAllowed--
		dp := make(map[string]api.Time, len(b.Status.DisruptedPods)+1)
		for k, v := range b.Status.DisruptedPods {
			dp[k] = v
		}
		dp[ps.pod.Name] = e.Now()
		c.Status.DisruptedPods = dp
		e.pdbs[d.Budget] = &c
	}
	e.addDisruptionTarget(e.mut(ps), disruption.ReasonEvictionByEvictionAPI, disruption.MessageEvictionByEvictionAPI)
	e.changes++
	if err := e.deletePod(key, opts); err != nil {
		return d, err
	}
	return d, nil
}

func nameOf(key string) string {
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '/' {
			return key[i+1:]
		}
	}
	return key
}
