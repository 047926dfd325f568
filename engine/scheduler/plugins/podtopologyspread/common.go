package podtopologyspread

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// constraint is a compiled TopologySpreadConstraint (upstream's
// topologySpreadConstraint in common.go): the selector has matchLabelKeys
// merged in, nil policies are resolved to their defaults.
type constraint struct {
	MaxSkew            int32
	TopologyKey        string
	WhenUnsatisfiable  string
	Selector           api.Selector
	MinDomains         int32
	NodeAffinityPolicy string
	NodeTaintsPolicy   string
}

// counts reports whether the selector can count existing pods: upstream's
// countPodsMatchSelector returns 0 for an empty selector (and a nil one
// matches nothing), although Selector.Matches still decides selfMatch and
// the AddPod/RemovePod updates.
func (c *constraint) counts() bool {
	return !c.Selector.Empty() && !c.Selector.IsNothing()
}

// hasRequiredNodeAffinity reports a nodeSelector or required node
// affinity (what nodeAffinityPolicy Honor looks at).
func hasRequiredNodeAffinity(pod *api.Pod) bool {
	if len(pod.Spec.NodeSelector) > 0 {
		return true
	}
	a := pod.Spec.Affinity
	return a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil
}

// nodeEligibility holds, for one node, what the inclusion policies need.
type nodeEligibility struct {
	affinity bool // the node matches the pod's nodeSelector + required affinity
	taints   bool // the pod tolerates every NoSchedule/NoExecute taint
}

func eligibilityOf(pod *api.Pod, node *api.Node, needAffinity, needTaints bool) nodeEligibility {
	e := nodeEligibility{affinity: true, taints: true}
	if needAffinity {
		e.affinity = api.PodMatchesNodeSelectorAndAffinityTerms(pod, node)
	}
	if needTaints {
		_, untolerated := api.FindUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, api.DoNotScheduleTaint)
		e.taints = !untolerated
	}
	return e
}

// includes is matchNodeInclusionPolicies (common.go).
func (c *constraint) includes(e nodeEligibility) bool {
	if c.NodeAffinityPolicy == api.PolicyHonor && !e.affinity {
		return false
	}
	if c.NodeTaintsPolicy == api.PolicyHonor && !e.taints {
		return false
	}
	return true
}

// constraintsFor returns the pod's constraints of one kind
// (getConstraints / initPreScoreState): its own, or the defaults when it
// has none.
func (pl *Plugin) constraintsFor(pod *api.Pod, action string) ([]constraint, error) {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		cs, err := filterConstraints(pod.Spec.TopologySpreadConstraints, pod.Labels, action)
		if err != nil {
			kind := "hard"
			if action == api.ScheduleAnyway {
				kind = "soft"
			}
			return nil, fmt.Errorf("obtaining pod's %s topology spread constraints: %w", kind, err)
		}
		return cs, nil
	}
	return pl.defaultConstraintsFor(pod, action)
}

// filterConstraints is filterTopologySpreadConstraints: it keeps the
// constraints with the given whenUnsatisfiable, compiles their selectors
// and ANDs key=value for every matchLabelKeys key the pod carries
// (mergeLabelSetWithSelector; a nil labelSelector stays match-nothing).
func filterConstraints(in []api.TopologySpreadConstraint, podLabels map[string]string, action string) ([]constraint, error) {
	var out []constraint
	for i := range in {
		c := &in[i]
		if c.WhenUnsatisfiable != action {
			continue
		}
		sel, err := api.CompileSelector(c.LabelSelector)
		if err != nil {
			return nil, fmt.Errorf("topologyKey %q: %w", c.TopologyKey, err)
		}
		for _, k := range c.MatchLabelKeys {
			if v, ok := podLabels[k]; ok {
				sel = sel.AddEquals(k, v)
			}
		}
		tc := constraint{
			MaxSkew:            c.MaxSkew,
			TopologyKey:        c.TopologyKey,
			WhenUnsatisfiable:  c.WhenUnsatisfiable,
			Selector:           sel,
			MinDomains:         1, // nil minDomains behaves as 1
			NodeAffinityPolicy: api.PolicyHonor,
			NodeTaintsPolicy:   api.PolicyIgnore,
		}
		if c.MinDomains != nil {
			tc.MinDomains = *c.MinDomains
		}
		if c.NodeAffinityPolicy != nil {
			tc.NodeAffinityPolicy = *c.NodeAffinityPolicy
		}
		if c.NodeTaintsPolicy != nil {
			tc.NodeTaintsPolicy = *c.NodeTaintsPolicy
		}
		out = append(out, tc)
	}
	return out, nil
}

// defaultConstraintsFor is buildDefaultConstraints: the configured
// defaults of the given kind, all counting pods with the selector of what
// selects the pod; none when nothing does.
func (pl *Plugin) defaultConstraintsFor(pod *api.Pod, action string) ([]constraint, error) {
	cs, err := filterConstraints(pl.defaultConstraints, pod.Labels, action)
	if err != nil {
		return nil, fmt.Errorf("setting default topology spread constraints: %w", err)
	}
	if len(cs) == 0 || pl.selectors == nil {
		return nil, nil
	}
	sel := pl.selectors(pod)
	if sel.Empty() || sel.IsNothing() {
		return nil, nil
	}
	for i := range cs {
		cs[i].Selector = sel
	}
	return cs, nil
}

// topologyMeta is what the plugin derives once per Topology.
type topologyMeta struct {
	topo *framework.Topology
	// missing counts nodes without the key.
	missing int
	// emptyDomain is the id of the domain whose value is "", or -1.
	emptyDomain int32
}

// topology returns the snapshot's Topology for key with its metadata.
func (pl *Plugin) topology(snap *framework.Snapshot, key string) *topologyMeta {
	t := snap.Topology(key)
	if m := pl.topoMeta[key]; m != nil && m.topo == t {
		return m
	}
	m := &topologyMeta{topo: t, emptyDomain: -1}
	for _, d := range t.DomainOf {
		if d < 0 {
			m.missing++
		}
	}
	if len(t.Domains) > 0 && t.Domains[0] == "" {
		m.emptyDomain = 0 // Domains are sorted, so "" comes first
	}
	pl.topoMeta[key] = m
	return m
}

// domainOf returns the node's domain id for a topology, or -1: by
// NodeInfo.Index, or, for an index out of the topology's range (a NodeInfo
// made outside the snapshot), by looking the label up.
func domainOf(t *framework.Topology, ni *framework.NodeInfo) int32 {
	if ni.Index < len(t.DomainOf) {
		return t.DomainOf[ni.Index]
	}
	v, ok := ni.Node.Labels[t.Key]
	if !ok {
		return -1
	}
	for i, d := range t.Domains {
		if d == v {
			return int32(i)
		}
	}
	return -1
}
