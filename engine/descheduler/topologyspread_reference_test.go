package descheduler

import (
	"slices"
	"sort"

	"podlab.dev/podlab/engine/api"
)

// The topology spread plugin as it was before constraints walked only
// their label groups' pods (topologyspread.go): the reference the
// equivalence test compares the plugin with.

// topologySpread is Balance (topologyspreadconstraint.go:117): per
// namespace, per distinct constraint its pods declare, count the
// matching pods per domain and, when two domains differ by more than
// maxSkew, pick the fewest pods that bring every domain within maxSkew of
// the ideal average (balanceDomains).
func topologySpreadReference(c *pluginCtx, args *TopologySpreadArgs) error {
	filter := c.filter(args.Namespaces, args.LabelSelector)
	allowed := args.Constraints
	if len(allowed) == 0 {
		allowed = []string{api.DoNotSchedule}
	}
	// constraints come from the listed pods: when no pod on the pass's
	// nodes declares one, nothing is listed or matched (a cluster without
	// spread constraints pays one look at each pod)
	if !c.v.anySpreadConstraint() {
		return nil
	}
	pods := c.v.podsOnNodes(filter)
	var namespaces []string
	byNS := map[string][]*api.Pod{}
	for _, p := range pods {
		if _, ok := byNS[p.Namespace]; !ok {
			namespaces = append(namespaces, p.Namespace)
		}
		byNS[p.Namespace] = append(byNS[p.Namespace], p)
	}
	sort.Strings(namespaces)
	type chosen struct {
		pod    *api.Pod
		reason string
	}
	var forEviction []chosen
	picked := map[*api.Pod]bool{}
	for _, ns := range namespaces {
		var constraints []spreadConstraint
		seen := map[string]bool{}
		seenQuick := map[quickKey]bool{}
		for _, p := range byNS[ns] {
			for i := range p.Spec.TopologySpreadConstraints {
				tc := &p.Spec.TopologySpreadConstraints[i]
				if !slices.Contains(allowed, tc.WhenUnsatisfiable) {
					continue
				}
				// most pods repeat their workload's constraint: a cheap key
				// of everything the identity depends on skips compiling it
				// again (the identity would be seen already)
				pk, fast := quickIdentity(tc, p)
				if fast && seenQuick[pk] {
					continue
				}
				sc, err := newSpreadConstraint(tc, p)
				if err != nil {
					continue
				}
				if fast {
					seenQuick[pk] = true
				}
				if seen[sc.identity] {
					continue
				}
				seen[sc.identity] = true
				constraints = append(constraints, sc)
			}
		}
		// Pods with the same labels match the same selectors: match each
		// distinct label set once per constraint (upstream matches every
		// pod; the result is the same, without 100 × 30,000 matches).
		nsPods := byNS[ns]
		groupOf := make([]int, len(nsPods))
		groupIndex := map[labelsKey]int{}
		var groupLabels []map[string]string
		for i, p := range nsPods {
			k := keyOfLabels(p.Labels)
			g, ok := groupIndex[k]
			if !ok {
				g = len(groupLabels)
				groupIndex[k] = g
				groupLabels = append(groupLabels, p.Labels)
			}
			groupOf[i] = g
		}
		matched := make([]bool, len(groupLabels))
		for ci := range constraints {
			sc := &constraints[ci]
			for g, l := range groupLabels {
				matched[g] = sc.selector.Matches(l)
			}
			domains := map[string]*domain{}
			for _, n := range c.v.nodes {
				if val, ok := n.Labels[sc.key]; ok && sc.includes(n) {
					if domains[val] == nil {
						domains[val] = &domain{value: val}
					}
				}
			}
			sum := 0
			for i, p := range nsPods {
				if !matched[groupOf[i]] || c.v.terminating(p) {
					continue
				}
				val, ok := c.v.node[p.Spec.NodeName].Labels[sc.key]
				if !ok {
					continue
				}
				d := domains[val]
				if d == nil {
					// a pod on a node the inclusion policies leave out
					// still counts (upstream appends to a new pair).
					d = &domain{value: val}
					domains[val] = d
				}
				d.pods = append(d.pods, p)
				sum++
			}
			if len(domains) == 0 || isBalanced(domains, sc.maxSkew) {
				continue
			}
			for _, ch := range balanceDomains(c, sc, domains, sum, args.TopologyBalanceNodeFit == nil || *args.TopologyBalanceNodeFit) {
				if !picked[ch.pod] {
					picked[ch.pod] = true
					forEviction = append(forEviction, chosen(ch))
				}
			}
		}
	}
	nodeLimited := map[string]bool{}
	for _, ch := range forEviction {
		p := ch.pod
		if nodeLimited[p.Spec.NodeName] || !filter(p) {
			continue
		}
		if c.ev.preEvictionFilter(p) != "" {
			continue
		}
		if err := c.evict(p, ch.reason); err != nil {
			if le, ok := err.(*limitError); ok {
				switch le.kind {
				case limitNode:
					nodeLimited[p.Spec.NodeName] = true
				case limitTotal:
					return err
				}
			}
		}
	}
	return nil
}
