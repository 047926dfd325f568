package descheduler

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// Eviction is one eviction a pass attempted: the pod, the plugin and
// profile that chose it, why (Reason: the constraint, the skew or the
// threshold it fixes), and what happened (Outcome).
type Eviction struct {
	Pod     string // namespace/name
	Node    string
	Profile string
	Plugin  string
	Reason  string
	// Evicted is true when the Eviction API accepted it (in a dry run:
	// when it would).
	Evicted bool
	// Outcome is "evicted", "would be evicted", or why not (a budget's
	// refusal, an eviction limit).
	Outcome string
}

// Result is what one pass did.
type Result struct {
	At        api.Time
	DryRun    bool
	Evictions []Eviction
	// Skipped says why the pass did nothing ("" when it ran).
	Skipped string
	// Errors are plugins that could not run (e.g. a missing priority class).
	Errors []string
}

// Evicted counts the accepted evictions.
func (r *Result) Evicted() int {
	n := 0
	for _, e := range r.Evictions {
		if e.Evicted {
			n++
		}
	}
	return n
}

// EvictFunc asks the Eviction API to evict a pod; it returns "" when the
// eviction was accepted, else why not (e.g. the PDB's message).
type EvictFunc func(p *api.Pod, e *Eviction) (refused string)

// Limit errors (evictions/errors.go): the plugins stop early on them.
type limitError struct{ kind, msg string }

func (e *limitError) Error() string { return e.msg }

const (
	limitNode      = "node"
	limitNamespace = "namespace"
	limitTotal     = "total"
)

// pass is one descheduling cycle: the view, the policy's limits and
// counters (PodEvictor; ResetCounters at the start of every cycle), and
// the evictions so far.
type pass struct {
	policy  *Policy
	v       *view
	evictFn EvictFunc
	// attempted, when set, sees every eviction attempt as it ends.
	attempted func(*Eviction)
	res       *Result
	perNode   map[string]uint
	perNS     map[string]uint
	total     uint
}

// Run performs one descheduling pass (descheduler.runProfiles): every
// profile's deschedule plugins, then every profile's balance plugins.
// evict performs (or, in a dry run, judges) each eviction.
func Run(policy *Policy, s *State, dryRun bool, evict EvictFunc) *Result {
	return run(policy, s, dryRun, evict, nil)
}

// run is Run with an optional attempted hook, called after every eviction
// attempt (accepted, refused or over a limit) with its final record, so
// events can be recorded as PodEvictor.EvictPod does, at the attempt.
func run(policy *Policy, s *State, dryRun bool, evict EvictFunc, attempted func(*Eviction)) *Result {
	res := &Result{At: s.Now, DryRun: dryRun}
	v := newView(s, policy.NodeSelector)
	// runProfiles: "Skipping descheduling cycle: requires >=2 nodes".
	if len(v.nodes) <= 1 {
		res.Skipped = fmt.Sprintf("requires >=2 ready nodes, found %d", len(v.nodes))
		return res
	}
	ps := &pass{policy: policy, v: v, evictFn: evict, attempted: attempted, res: res, perNode: map[string]uint{}, perNS: map[string]uint{}}
	type run struct {
		pr  *Profile
		ev  *evictor
		err error
	}
	runs := make([]run, len(policy.Profiles))
	for i := range policy.Profiles {
		pr := &policy.Profiles[i]
		ev, err := newEvictor(pr.Evictor, v)
		runs[i] = run{pr, ev, err}
		if err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("profile %s: %v", pr.Name, err))
		}
	}
	for _, r := range runs {
		if r.err != nil {
			continue
		}
		for _, name := range r.pr.Deschedule {
			if ps.plugin(r.pr, r.ev, name) {
				return res
			}
		}
	}
	for _, r := range runs {
		if r.err != nil {
			continue
		}
		for _, name := range r.pr.Balance {
			if ps.plugin(r.pr, r.ev, name) {
				return res
			}
		}
	}
	return res
}

// duplicatesPlugin and topologySpreadPlugin are removeDuplicates and
// topologySpread (variables so the equivalence tests can run the
// reference implementations in their place).
var (
	duplicatesPlugin     = removeDuplicates
	topologySpreadPlugin = topologySpread
)

// plugin runs one plugin; true means the total limit was reached.
func (ps *pass) plugin(pr *Profile, ev *evictor, name string) (stop bool) {
	c := &pluginCtx{pass: ps, profile: pr, ev: ev, name: name}
	var err error
	switch name {
	case TopologySpreadName:
		err = topologySpreadPlugin(c, &pr.Args.TopologySpread)
	case DuplicatesName:
		err = duplicatesPlugin(c, &pr.Args.Duplicates)
	case LowNodeUtilizationName:
		err = lowNodeUtilization(c, &pr.Args.LowNodeUtilization)
	case HighNodeUtilizationName:
		err = highNodeUtilization(c, &pr.Args.HighNodeUtilization)
	case NodeTaintsName:
		err = nodeTaints(c, &pr.Args.NodeTaints)
	case NodeAffinityName:
		err = nodeAffinity(c, &pr.Args.NodeAffinity)
	case InterPodAntiAffinityName:
		err = interPodAntiAffinity(c, &pr.Args.InterPodAntiAffinity)
	case TooManyRestartsName:
		err = tooManyRestarts(c, &pr.Args.TooManyRestarts)
	case PodLifeTimeName:
		err = podLifeTime(c, &pr.Args.PodLifeTime)
	case FailedPodsName:
		err = failedPods(c, &pr.Args.FailedPods)
	}
	if le, ok := err.(*limitError); ok && le.kind == limitTotal {
		return true
	}
	return false
}

// pluginCtx is what a plugin works with: the view, its profile's
// evictor, and evict.
type pluginCtx struct {
	*pass
	profile *Profile
	ev      *evictor
	name    string
}

// filter is the plugins' pod filter (podutil.Options): the evictor's
// Filter, then the plugin's namespaces and label selector.
func (c *pluginCtx) filter(ns *Namespaces, sel *api.Selector) func(*api.Pod) bool {
	return func(p *api.Pod) bool {
		if !ns.allows(p.Namespace) {
			return false
		}
		if sel != nil && !sel.Empty() && !sel.Matches(p.Labels) {
			return false
		}
		return c.ev.filter(p) == ""
	}
}

// evict is PodEvictor.EvictPod (evictions.go:509): the total, node and
// namespace limits first, then the Eviction API; counters move only on
// success. A nil error means the pod was evicted (or would be).
func (c *pluginCtx) evict(p *api.Pod, reason string) error {
	e := Eviction{Pod: p.Namespace + "/" + p.Name, Node: p.Spec.NodeName, Profile: c.profile.Name, Plugin: c.name, Reason: reason}
	pol := c.policy
	var lerr *limitError
	switch {
	case pol.MaxNoOfPodsToEvictTotal != nil && c.total+1 > *pol.MaxNoOfPodsToEvictTotal:
		lerr = &limitError{limitTotal, fmt.Sprintf("total eviction limit exceeded (%d)", *pol.MaxNoOfPodsToEvictTotal)}
	case p.Spec.NodeName != "" && pol.MaxNoOfPodsToEvictPerNode != nil && c.perNode[p.Spec.NodeName]+1 > *pol.MaxNoOfPodsToEvictPerNode:
		lerr = &limitError{limitNode, fmt.Sprintf("node eviction limit exceeded (%d)", *pol.MaxNoOfPodsToEvictPerNode)}
	case pol.MaxNoOfPodsToEvictPerNamespace != nil && c.perNS[p.Namespace]+1 > *pol.MaxNoOfPodsToEvictPerNamespace:
		lerr = &limitError{limitNamespace, fmt.Sprintf("namespace eviction limit exceeded (%d)", *pol.MaxNoOfPodsToEvictPerNamespace)}
	}
	if lerr != nil {
		e.Outcome = "not evicted: " + lerr.msg
		c.record(e)
		return lerr
	}
	if refused := c.evictFn(p, &e); refused != "" {
		e.Outcome = "refused: " + refused
		c.record(e)
		return fmt.Errorf("%s", refused)
	}
	e.Evicted = true
	if e.Outcome == "" {
		e.Outcome = "evicted"
		if c.res.DryRun {
			e.Outcome = "would be evicted"
		}
	}
	c.record(e)
	if p.Spec.NodeName != "" {
		c.perNode[p.Spec.NodeName]++
	}
	c.perNS[p.Namespace]++
	c.total++
	c.v.evicted[p] = true
	return nil
}

// record appends an attempt to the result and shows it to the hook.
func (c *pluginCtx) record(e Eviction) {
	c.res.Evictions = append(c.res.Evictions, e)
	if c.attempted != nil {
		c.attempted(&c.res.Evictions[len(c.res.Evictions)-1])
	}
}
