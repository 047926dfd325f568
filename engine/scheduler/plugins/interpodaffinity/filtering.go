package interpodaffinity

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// preFilterState is what PreFilter computes for Filter (filtering.go
// preFilterState upstream).
type preFilterState struct {
	pod *framework.PodInfo
	// The incoming pod's required terms, namespaces resolved.
	affinityTerms     []incomingTerm
	antiAffinityTerms []incomingTerm
	// nsLabels are the incoming pod's namespace labels, matched by existing
	// pods' namespaceSelectors.
	nsLabels map[string]string

	// existingAntiAffinity: per domain, existing pods whose required
	// anti-affinity terms match the incoming pod.
	existingAntiAffinity topologyCounts
	// affinity: per domain of each affinity term's key, existing pods
	// matching all the incoming pod's affinity terms.
	affinity topologyCounts
	// antiAffinity: per domain, existing pods matching each of the incoming
	// pod's anti-affinity terms.
	antiAffinity topologyCounts
}

// Clone implements framework.StateData.
func (s *preFilterState) Clone() framework.StateData {
	if s == nil {
		return nil
	}
	out := *s
	out.existingAntiAffinity = s.existingAntiAffinity.clone()
	out.affinity = s.affinity.clone()
	out.antiAffinity = s.antiAffinity.clone()
	return &out
}

// updateWithPod adds (multiplier 1) or removes (-1) an existing pod's
// contributions, as preFilterState.updateWithPod upstream. shared is false
// outside PreFilter (see topologyCounts.forKey).
func (s *preFilterState) updateWithPod(pi *framework.PodInfo, node *framework.NodeInfo, multiplier int64, shared bool) {
	incoming := s.pod.Pod
	for i := range pi.RequiredAntiAffinityTerms {
		t := &pi.RequiredAntiAffinityTerms[i]
		if t.Matches(incoming, s.nsLabels) {
			s.existingAntiAffinity.add(t.TopologyKey, node, multiplier, shared)
		}
	}
	s.updateWithIncomingTerms(pi.Pod, node, multiplier, shared)
}

// updateWithIncomingTerms counts an existing pod against the incoming pod's
// own required terms.
func (s *preFilterState) updateWithIncomingTerms(existing *api.Pod, node *framework.NodeInfo, multiplier int64, shared bool) {
	if matchesAll(s.affinityTerms, existing) {
		for i := range s.affinityTerms {
			s.affinity.add(s.affinityTerms[i].TopologyKey, node, multiplier, shared)
		}
	}
	for i := range s.antiAffinityTerms {
		if s.antiAffinityTerms[i].matches(existing) {
			s.antiAffinity.add(s.antiAffinityTerms[i].TopologyKey, node, multiplier, shared)
		}
	}
}

// PreFilter counts, per topology domain, the existing pods whose required
// anti-affinity rejects the incoming pod and the pods matching the incoming
// pod's required terms. It returns Skip when neither applies.
func (pl *Plugin) PreFilter(state *framework.CycleState, pi *framework.PodInfo, snap *framework.Snapshot) (*framework.PreFilterResult, *framework.Status) {
	pl.lastFilter.Store(state, nil)
	if pi.ParseError != nil {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("parsing pod: %v", pi.ParseError))
	}
	// Nothing to count: no pod in the cluster has required anti-affinity
	// and the incoming pod has no required terms — the Skip below, without
	// visiting every node.
	if len(pi.RequiredAffinityTerms) == 0 && len(pi.RequiredAntiAffinityTerms) == 0 && presenceOf(snap).withRequiredAnti == 0 {
		return nil, framework.SkipStatus
	}
	s := &preFilterState{
		pod:                  pi,
		affinityTerms:        resolveTerms(snap, pi.RequiredAffinityTerms),
		antiAffinityTerms:    resolveTerms(snap, pi.RequiredAntiAffinityTerms),
		nsLabels:             snap.NamespaceLabelsOf(pi.Pod.Namespace),
		existingAntiAffinity: newTopologyCounts(snap),
		affinity:             newTopologyCounts(snap),
		antiAffinity:         newTopologyCounts(snap),
	}
	// Create the incoming terms' keys up front so AddPod never has to.
	for i := range s.affinityTerms {
		s.affinity.forKey(s.affinityTerms[i].TopologyKey, true, true)
	}
	for i := range s.antiAffinityTerms {
		s.antiAffinity.forKey(s.antiAffinityTerms[i].TopologyKey, true, true)
	}

	// Existing pods' required anti-affinity: only pods that have it
	// (getExistingAntiAffinityCounts over HavePodsWithRequiredAntiAffinityList).
	for _, ni := range snap.Nodes() {
		for _, ep := range ni.PodsWithRequiredAntiAffinity {
			for i := range ep.RequiredAntiAffinityTerms {
				t := &ep.RequiredAntiAffinityTerms[i]
				if t.Matches(pi.Pod, s.nsLabels) {
					s.existingAntiAffinity.add(t.TopologyKey, ni, 1, true)
				}
			}
		}
	}
	// The incoming pod's own terms: every pod on every node
	// (getIncomingAffinityAntiAffinityCounts), only when it has terms.
	if len(s.affinityTerms) > 0 || len(s.antiAffinityTerms) > 0 {
		for _, ni := range snap.Nodes() {
			for _, ep := range ni.Pods {
				s.updateWithIncomingTerms(ep.Pod, ni, 1, true)
			}
		}
	}

	if s.existingAntiAffinity.nonZero == 0 && len(s.affinityTerms) == 0 && len(s.antiAffinityTerms) == 0 {
		return nil, framework.SkipStatus
	}
	state.Write(preFilterStateKey, s)
	pl.lastFilter.Store(state, s)
	return nil, nil
}

// PreFilterExtensions implements framework.PreFilterPlugin.
func (pl *Plugin) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// AddPod updates the counts as if podToAdd ran on node (nominated pods,
// preemption reprieves). A missing state means PreFilter skipped.
func (pl *Plugin) AddPod(state *framework.CycleState, _, podToAdd *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	s, _ := state.Read(preFilterStateKey).(*preFilterState)
	if s == nil {
		return nil
	}
	s.updateWithPod(podToAdd, node, 1, false)
	return nil
}

// RemovePod updates the counts as if podToRemove left node (preemption).
func (pl *Plugin) RemovePod(state *framework.CycleState, _, podToRemove *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	s, _ := state.Read(preFilterStateKey).(*preFilterState)
	if s == nil {
		return nil
	}
	s.updateWithPod(podToRemove, node, -1, false)
	return nil
}

// Filter checks the pod's required affinity, its required anti-affinity,
// then the existing pods' required anti-affinity, in upstream's order and
// with upstream's codes: a missing affinity match cannot be fixed by
// preemption (UnschedulableAndUnresolvable), anti-affinity can.
func (pl *Plugin) Filter(state *framework.CycleState, _ *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	s, _ := cyclecache.Get(&pl.lastFilter, state, preFilterStateKey)
	if s == nil {
		return framework.AsStatus(fmt.Errorf("reading %q from cycle state: PreFilter did not run", preFilterStateKey))
	}
	if !s.satisfiesPodAffinity(node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch)
	}
	if !s.satisfiesPodAntiAffinity(node) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonAntiAffinityRulesNotMatch)
	}
	if !s.satisfiesExistingPodsAntiAffinity(node) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch)
	}
	return nil
}

// satisfiesExistingPodsAntiAffinity: no existing pod's anti-affinity term
// counts the incoming pod in any of the node's domains.
func (s *preFilterState) satisfiesExistingPodsAntiAffinity(node *framework.NodeInfo) bool {
	if s.existingAntiAffinity.nonZero == 0 {
		return true
	}
	for _, d := range s.existingAntiAffinity.byKey {
		if n, _ := s.existingAntiAffinity.getIn(d, node); n > 0 {
			return false
		}
	}
	return true
}

// satisfiesPodAntiAffinity: no pod matching one of the incoming pod's
// anti-affinity terms in that term's domain of the node. A node without
// the term's key satisfies it.
func (s *preFilterState) satisfiesPodAntiAffinity(node *framework.NodeInfo) bool {
	if s.antiAffinity.nonZero == 0 {
		return true
	}
	for i := range s.antiAffinityTerms {
		if n, _ := s.antiAffinity.get(s.antiAffinityTerms[i].TopologyKey, node); n > 0 {
			return false
		}
	}
	return true
}

// satisfiesPodAffinity: the node has every term's key and each of its
// domains holds a pod matching all terms — or no pod anywhere matches and
// the pod matches its own terms (the first pod of a group with affinity to
// itself, satisfyPodAffinity upstream).
func (s *preFilterState) satisfiesPodAffinity(node *framework.NodeInfo) bool {
	podsExist := true
	for i := range s.affinityTerms {
		n, ok := s.affinity.get(s.affinityTerms[i].TopologyKey, node)
		if !ok {
			return false
		}
		if n <= 0 {
			podsExist = false
		}
	}
	if !podsExist {
		return s.affinity.nonZero == 0 && matchesAll(s.affinityTerms, s.pod.Pod)
	}
	return true
}
