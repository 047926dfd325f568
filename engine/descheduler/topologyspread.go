package descheduler

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// spreadConstraint is the plugin's internal topologySpreadConstraint
// (topologyspreadconstraint.go:56): the selector parsed and merged with
// matchLabelKeys, the inclusion policies resolved, and — when they are
// Honor — the declaring pod's required node affinity and tolerations.
type spreadConstraint struct {
	maxSkew       int32
	key           string
	when          string
	selector      api.Selector
	affinityHonor bool
	taintsHonor   bool
	owner         *api.Pod // for node affinity / tolerations when honoured
	// identity is what hasIdenticalConstraints compares (reflect.DeepEqual
	// of the struct upstream).
	identity string
}

// newSpreadConstraint is newTopologySpreadConstraint (:470).
func newSpreadConstraint(c *api.TopologySpreadConstraint, p *api.Pod) (spreadConstraint, error) {
	sel, err := api.CompileSelector(c.LabelSelector)
	if err != nil {
		return spreadConstraint{}, err
	}
	if c.LabelSelector == nil {
		// metav1.LabelSelectorAsSelector(nil) is labels.Nothing().
		sel = api.Nothing()
	}
	if len(c.MatchLabelKeys) > 0 && p.Labels != nil && !sel.IsNothing() {
		for _, k := range c.MatchLabelKeys {
			if v, ok := p.Labels[k]; ok {
				sel = sel.AddEquals(k, v)
			}
		}
	}
	sc := spreadConstraint{
		maxSkew: c.MaxSkew, key: c.TopologyKey, when: c.WhenUnsatisfiable, selector: sel,
		affinityHonor: c.NodeAffinityPolicy == nil || *c.NodeAffinityPolicy == api.PolicyHonor,
		taintsHonor:   c.NodeTaintsPolicy != nil && *c.NodeTaintsPolicy == api.PolicyHonor,
		owner:         p,
	}
	var id strings.Builder
	id.WriteString(strconv.Itoa(int(sc.maxSkew)))
	id.WriteString("|" + sc.key + "|" + sel.String() + "|" + strconv.FormatBool(sc.affinityHonor) + "|" + strconv.FormatBool(sc.taintsHonor))
	if sc.affinityHonor {
		if len(p.Spec.NodeSelector) > 0 {
			id.WriteString("|ns=" + sortedMap(p.Spec.NodeSelector))
		}
		if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			fmt.Fprintf(&id, "|na=%+v", *a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
		}
	}
	if sc.taintsHonor {
		fmt.Fprintf(&id, "|tol=%+v", p.Spec.Tolerations)
	}
	sc.identity = id.String()
	return sc, nil
}

// quickKey determines newSpreadConstraint's identity for the common
// constraint (see quickIdentity); comparing it allocates nothing.
type quickKey struct {
	maxSkew int32
	topo    string
	labels  labelsKey
}

// quickEligible is quickIdentity's condition: matchLabels only, no
// matchLabelKeys or inclusion policies, no node selector or affinity.
func quickEligible(c *api.TopologySpreadConstraint, p *api.Pod) bool {
	return c.LabelSelector != nil && len(c.LabelSelector.MatchExpressions) == 0 && len(c.MatchLabelKeys) == 0 &&
		c.NodeAffinityPolicy == nil && c.NodeTaintsPolicy == nil &&
		len(p.Spec.NodeSelector) == 0 && (p.Spec.Affinity == nil || p.Spec.Affinity.NodeAffinity == nil)
}

// matches reports whether k is a single label and m that label alone
// (keyOfLabels(m) == k), by one lookup; false otherwise (a caller then
// builds m's key).
func (k labelsKey) matches(m map[string]string) bool {
	if !k.single || len(m) != 1 {
		return false
	}
	v, ok := m[k.k]
	return ok && v == k.v
}

// quickIdentity is a key of everything the identity depends on for the
// common constraint — matchLabels only, no matchLabelKeys or inclusion
// policies, and no node selector or node affinity on the pod — and false
// for any other (which then takes the full path).
func quickIdentity(c *api.TopologySpreadConstraint, p *api.Pod) (quickKey, bool) {
	if c.LabelSelector == nil || len(c.LabelSelector.MatchExpressions) > 0 || len(c.MatchLabelKeys) > 0 ||
		c.NodeAffinityPolicy != nil || c.NodeTaintsPolicy != nil ||
		len(p.Spec.NodeSelector) > 0 || (p.Spec.Affinity != nil && p.Spec.Affinity.NodeAffinity != nil) {
		return quickKey{}, false
	}
	return quickKey{c.MaxSkew, c.TopologyKey, keyOfLabels(c.LabelSelector.MatchLabels)}, true
}

// labelsKey identifies a label set: a single label by its key and value
// (no string is built), more by sortedMap.
type labelsKey struct {
	single     bool
	k, v, many string
}

func keyOfLabels(m map[string]string) labelsKey {
	if len(m) == 1 {
		for k, v := range m {
			return labelsKey{single: true, k: k, v: v}
		}
	}
	return labelsKey{many: sortedMap(m)}
}

func sortedMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + m[k] + ",")
	}
	return b.String()
}

// includes is matchNodeInclusionPolicies (:447).
func (sc *spreadConstraint) includes(n *api.Node) bool {
	if sc.affinityHonor && !api.PodMatchesNodeSelectorAndAffinityTerms(sc.owner, n) {
		return false
	}
	if sc.taintsHonor {
		if _, bad := api.FindUntoleratedTaint(n.Spec.Taints, sc.owner.Spec.Tolerations, api.DoNotScheduleTaint); bad {
			return false
		}
	}
	return true
}

func (sc *spreadConstraint) describe() string {
	return fmt.Sprintf("topologySpreadConstraint {topologyKey: %s, maxSkew: %d, whenUnsatisfiable: %s, selector: %s}", sc.key, sc.maxSkew, sc.when, sc.selector.String())
}

// domain is a topology pair with the counted pods (upstream topology).
type domain struct {
	value string
	pods  []*api.Pod
}

// topologySpread is Balance (topologyspreadconstraint.go:117): per
// namespace, per distinct constraint its pods declare, count the
// matching pods per domain and, when two domains differ by more than
// maxSkew, pick the fewest pods that bring every domain within maxSkew of
// the ideal average (balanceDomains).
func topologySpread(c *pluginCtx, args *TopologySpreadArgs) error {
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
		var lastQuick quickKey // seen
		hasLastQuick := false
		for _, p := range byNS[ns] {
			for i := range p.Spec.TopologySpreadConstraints {
				tc := &p.Spec.TopologySpreadConstraints[i]
				if !slices.Contains(allowed, tc.WhenUnsatisfiable) {
					continue
				}
				// most pods repeat their workload's constraint: a cheap key
				// of everything the identity depends on skips compiling it
				// again (the identity would be seen already)
				// and pods of a workload sit next to each other: a
				// constraint equal to the last quick one has its key
				if hasLastQuick && quickEligible(tc, p) && lastQuick.maxSkew == tc.MaxSkew && lastQuick.topo == tc.TopologyKey &&
					lastQuick.labels.matches(tc.LabelSelector.MatchLabels) {
					continue
				}
				pk, fast := quickIdentity(tc, p)
				if fast && seenQuick[pk] {
					lastQuick, hasLastQuick = pk, true
					continue
				}
				sc, err := newSpreadConstraint(tc, p)
				if err != nil {
					continue
				}
				if fast {
					seenQuick[pk] = true
					lastQuick, hasLastQuick = pk, true
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
		lastGroup := -1
		var lastKey labelsKey
		for i, p := range nsPods {
			// neighbours (a workload's pods) mostly share their labels
			if lastGroup >= 0 && lastKey.matches(p.Labels) {
				groupOf[i] = lastGroup
				continue
			}
			k := keyOfLabels(p.Labels)
			g, ok := groupIndex[k]
			if !ok {
				g = len(groupLabels)
				groupIndex[k] = g
				groupLabels = append(groupLabels, p.Labels)
			}
			groupOf[i] = g
			lastGroup, lastKey = g, k
		}
		// each group's pods (indexes into nsPods, in order): a constraint
		// walks the pods of the groups it matches, not every pod
		members := make([][]int32, len(groupLabels))
		for i, g := range groupOf {
			members[g] = append(members[g], int32(i))
		}
		var picks []int32
		for ci := range constraints {
			sc := &constraints[ci]
			picks = picks[:0]
			groups := 0
			for g, l := range groupLabels {
				if sc.selector.Matches(l) {
					picks = append(picks, members[g]...)
					groups++
				}
			}
			if groups > 1 {
				slices.Sort(picks) // nsPods order, as a walk over them
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
			for _, i := range picks {
				p := nsPods[i]
				if c.v.terminating(p) {
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

// isBalanced is topologyIsBalanced (:248).
func isBalanced(domains map[string]*domain, maxSkew int32) bool {
	lo, hi := math.MaxInt32, math.MinInt32
	for _, d := range domains {
		lo = min(lo, len(d.pods))
		hi = max(hi, len(d.pods))
	}
	return int32(hi-lo) <= maxSkew
}

type spreadChoice struct {
	pod    *api.Pod
	reason string
}

// balanceDomains is balanceDomains (:287): domains sorted by size; i
// walks up from the smallest, j down from the largest; while j's surplus
// over i exceeds maxSkew, move min(half the excess over maxSkew, j's
// surplus over the average, i's deficit) pods, preferring pods that fit
// a node in a domain below the average.
func balanceDomains(c *pluginCtx, sc *spreadConstraint, domains map[string]*domain, sum int, nodeFit bool) []spreadChoice {
	idealAvg := float64(sum) / float64(len(domains))
	sorted := sortDomains(domains, func(p *api.Pod) bool { return c.ev.filter(p) == "" })
	counts := describeDomains(sorted)
	var eligible []*api.Node
	for _, n := range c.v.nodes {
		if sc.includes(n) {
			eligible = append(eligible, n)
		}
	}
	below := nodesBelowIdealAvg(eligible, sorted, sc.key, idealAvg)
	var memo map[plainRequests][2]string // for below
	var out []spreadChoice
	i, j := 0, len(sorted)-1
	for i < j {
		if float64(len(sorted[j].pods)) <= idealAvg {
			j--
		}
		skew := float64(len(sorted[j].pods) - len(sorted[i].pods))
		if int32(skew) <= sc.maxSkew {
			i++
			continue
		}
		aboveAvg := math.Ceil(float64(len(sorted[j].pods)) - idealAvg)
		belowAvg := math.Ceil(idealAvg - float64(len(sorted[i].pods)))
		halfSkew := math.Ceil((skew - float64(sc.maxSkew)) / 2)
		move := int(math.Min(math.Min(aboveAvg, belowAvg), halfSkew))
		if move <= 0 {
			i++
			continue
		}
		src := sorted[j].pods
		fits := make(map[*api.Pod]bool, len(src))
		if memo == nil {
			memo = map[plainRequests][2]string{}
		}
		// prefer pods that fit below-average domains at the back (the
		// end is evicted first); stable, so the sort above holds
		// otherwise: a stable partition, non-fitting first
		var fitting []*api.Pod
		k := 0
		for _, p := range src {
			f := c.v.fitsAnyOtherNodeMemo(p, below, memo)
			fits[p] = f
			if f {
				fitting = append(fitting, p)
			} else {
				src[k] = p
				k++
			}
		}
		copy(src[k:], fitting)
		toEvict := src[len(src)-move:]
		reason := fmt.Sprintf("%s in namespace %s: pods per domain %s; %s has %d, %s has %d: skew %d > maxSkew %d, so move %d toward the ideal average %.3g",
			sc.describe(), sc.owner.Namespace, counts, sorted[j].value, len(src), sorted[i].value, len(sorted[i].pods), int(skew), sc.maxSkew, move, idealAvg)
		for _, p := range toEvict {
			// PodFitsAnyOtherNode: a pod that cannot land below the
			// average still counts as moved, but is not evicted.
			if nodeFit && !fits[p] {
				continue
			}
			out = append(out, spreadChoice{p, reason})
		}
		sorted[j].pods = src[:len(src)-move]
		sorted[i].pods = append(sorted[i].pods, toEvict...)
	}
	return out
}

func describeDomains(sorted []*domain) string {
	byName := append([]*domain(nil), sorted...)
	sort.Slice(byName, func(a, b int) bool { return byName[a].value < byName[b].value })
	parts := make([]string, len(byName))
	for k, d := range byName {
		parts[k] = fmt.Sprintf("%s=%d", d.value, len(d.pods))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// nodesBelowIdealAvg is filterNodesBelowIdealAvg (:390).
func nodesBelowIdealAvg(nodes []*api.Node, sorted []*domain, key string, idealAvg float64) []*api.Node {
	byDomain := map[string][]*api.Node{}
	for _, n := range nodes {
		if d, ok := n.Labels[key]; ok {
			byDomain[d] = append(byDomain[d], n)
		}
	}
	var out []*api.Node
	for _, d := range sorted {
		if float64(len(d.pods)) < idealAvg {
			out = append(out, byDomain[d.value]...)
		}
	}
	return out
}

// sortDomains is sortDomains (:414): domains ascending by size and, in
// each, pods ordered so the back (evicted first) holds evictable pods
// without a nodeSelector or node affinity, by ascending priority.
// Upstream sorts with sort.Slice over a map; podlab breaks ties by domain
// value and keeps pods' key order among equals, so a pass is
// deterministic.
func sortDomains(domains map[string]*domain, evictable func(*api.Pod) bool) []*domain {
	out := make([]*domain, 0, len(domains))
	// each pod's sort attributes are computed once (not per comparison)
	type ranked struct {
		p       *api.Pod
		ev, sel bool
	}
	var rs []ranked
	for _, d := range domains {
		rs = rs[:0]
		for _, p := range d.pods {
			rs = append(rs, ranked{p, evictable(p), hasSelectorOrAffinity(p)})
		}
		sort.SliceStable(rs, func(a, b int) bool {
			ra, rb := &rs[a], &rs[b]
			if ra.ev != rb.ev {
				return !ra.ev
			}
			if ra.sel != rb.sel {
				return ra.sel
			}
			return priorityLess(ra.p, rb.p)
		})
		for i := range rs {
			d.pods[i] = rs[i].p
		}
		out = append(out, d)
	}
	sort.Slice(out, func(a, b int) bool {
		if len(out[a].pods) != len(out[b].pods) {
			return len(out[a].pods) < len(out[b].pods)
		}
		return out[a].value < out[b].value
	})
	return out
}

// priorityLess orders by ascending priority, unset first
// (!comparePodsByPriority).
func priorityLess(a, b *api.Pod) bool {
	switch {
	case a.Spec.Priority == nil && b.Spec.Priority == nil:
		return false
	case a.Spec.Priority == nil:
		return true
	case b.Spec.Priority == nil:
		return false
	}
	return *a.Spec.Priority < *b.Spec.Priority
}

func hasSelectorOrAffinity(p *api.Pod) bool {
	return p.Spec.NodeSelector != nil || (p.Spec.Affinity != nil && p.Spec.Affinity.NodeAffinity != nil)
}
