package podtopologyspread

import (
	"fmt"
	"math"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// preFilterState is upstream's preFilterState (filtering.go) with domains
// as ids of the constraint's framework.Topology instead of label values.
type preFilterState struct {
	constraints []constraint
	topos       []*framework.Topology
	// matchNum[i][d] is TpValueToMatchNum: matching pods in domain d over
	// the nodes eligible for constraint i.
	matchNum [][]int32
	// eligible[i][d] says domain d is a key of TpValueToMatchNum[i] (some
	// eligible node is in it); nil means every domain is.
	eligible [][]bool
	// numDomains[i] is len(TpValueToMatchNum[i]).
	numDomains []int
	paths      []criticalPaths
	selfMatch  []int32
	// limit[i] = maxSkew − selfMatch + global minimum: Filter rejects a
	// node whose domain has more matching pods (the skew check rearranged
	// so Filter does one comparison). Kept current by updateWithPod.
	limit []int
	// nodes is the snapshot's node list PreFilter saw (FilterBatch checks
	// node positions against it).
	nodes []*framework.NodeInfo
}

// Clone implements framework.StateData (preemption dry runs mutate the copy
// with AddPod/RemovePod). Constraints and topologies are shared.
func (s *preFilterState) Clone() framework.StateData {
	if s == nil {
		return (*preFilterState)(nil)
	}
	c := *s
	c.matchNum = make([][]int32, len(s.matchNum))
	for i, m := range s.matchNum {
		c.matchNum[i] = append([]int32(nil), m...)
	}
	c.eligible = make([][]bool, len(s.eligible))
	for i, e := range s.eligible {
		if e != nil {
			c.eligible[i] = append([]bool(nil), e...)
		}
	}
	c.numDomains = append([]int(nil), s.numDomains...)
	c.paths = append([]criticalPaths(nil), s.paths...)
	c.limit = append([]int(nil), s.limit...)
	return &c
}

// minMatchNum is the global minimum for the skew, taking minDomains into
// account: 0 while fewer domains than minDomains are eligible.
func (s *preFilterState) minMatchNum(i int) int {
	if s.numDomains[i] < int(s.constraints[i].MinDomains) {
		return 0
	}
	return s.paths[i][0].matchNum
}

// criticalPaths keeps the two domains with the fewest matching pods, as
// upstream: [0] always holds the minimum, [1] is at least [0] but not
// necessarily the second minimum once AddPod/RemovePod updated it (the
// preemption algorithm only ever changes one node per copy).
type criticalPaths [2]struct {
	domain   int32 // -1: none yet
	matchNum int
}

func newCriticalPaths() criticalPaths {
	return criticalPaths{{domain: -1, matchNum: math.MaxInt32}, {domain: -1, matchNum: math.MaxInt32}}
}

// update is criticalPaths.update of filtering.go.
func (p *criticalPaths) update(domain int32, num int) {
	i := -1
	if domain == p[0].domain {
		i = 0
	} else if domain == p[1].domain {
		i = 1
	}
	if i >= 0 {
		p[i].matchNum = num
		if p[0].matchNum > p[1].matchNum {
			p[0], p[1] = p[1], p[0]
		}
		return
	}
	if num < p[0].matchNum {
		p[1] = p[0]
		p[0].domain, p[0].matchNum = domain, num
	} else if num < p[1].matchNum {
		p[1].domain, p[1].matchNum = domain, num
	}
}

// PreFilter implements framework.PreFilterPlugin: it counts matching pods
// per domain for every hard constraint (calPreFilterState). Pods without
// hard constraints (including every pod that only gets the system
// defaults, which are ScheduleAnyway) make it return Skip.
func (pl *Plugin) PreFilter(state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot) (*framework.PreFilterResult, *framework.Status) {
	cs, err := pl.constraintsFor(pod.Pod, api.DoNotSchedule)
	if err != nil {
		pl.lastFilter.Store(state, nil)
		return nil, framework.AsStatus(fmt.Errorf("get constraints from pod: %w", err))
	}
	if len(cs) == 0 {
		pl.lastFilter.Store(state, nil) // a reused CycleState must not see an older pod's state
		return nil, framework.SkipStatus
	}
	s := pl.calPreFilterState(pod.Pod, snap, cs)
	s.nodes = snap.Nodes()
	state.Write(preFilterStateKey, s)
	pl.lastFilter.Store(state, s)
	return nil, nil
}

// PreFilterExtensions implements framework.PreFilterPlugin.
func (pl *Plugin) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// calPreFilterState fills matchNum per constraint. Upstream visits every
// node that has all the constraints' keys and, per constraint, passes its
// inclusion policies, adding the node's matching pods to its domain. Here
// each constraint reads the per-domain sums its selector's index keeps for
// its node set (every node with the key, or a cached nodeSet): O(domains)
// per pod once the set is known.
func (pl *Plugin) calPreFilterState(pod *api.Pod, snap *framework.Snapshot, cs []constraint) *preFilterState {
	n := len(cs)
	s := &preFilterState{
		constraints: cs,
		topos:       make([]*framework.Topology, n),
		matchNum:    make([][]int32, n),
		eligible:    make([][]bool, n),
		numDomains:  make([]int, n),
		paths:       make([]criticalPaths, n),
		selfMatch:   make([]int32, n),
		limit:       make([]int, n),
	}
	metas := make([]*topologyMeta, n)
	for i := range cs {
		metas[i] = pl.topology(snap, cs[i].TopologyKey)
		s.topos[i] = metas[i].topo
		if cs[i].Selector.Matches(pod.Labels) {
			s.selfMatch[i] = 1
		}
	}
	sets := newNodeSetsOf(snap, pod, cs, metas, true)
	for i := range cs {
		c := &cs[i]
		t := s.topos[i]
		set := sets.nodeSetFor(i)
		if c.counts() {
			s.matchNum[i] = append([]int32(nil), index(snap, pod.Namespace, c.Selector).domainSums(t, set)...)
		} else {
			s.matchNum[i] = make([]int32, len(t.Domains))
		}
		if set == nil {
			s.numDomains[i] = len(t.Domains)
		} else {
			p := set.presenceIn(t)
			s.eligible[i] = append([]bool(nil), p.has...)
			s.numDomains[i] = p.count
		}
		// domains are visited in value order (upstream: map order, so its
		// second path may differ on ties; the minimum never does)
		s.paths[i] = newCriticalPaths()
		for d, num := range s.matchNum[i] {
			if s.eligible[i] == nil || s.eligible[i][d] {
				s.paths[i].update(int32(d), int(num))
			}
		}
		s.updateLimit(i)
	}
	return s
}

func (s *preFilterState) updateLimit(i int) {
	s.limit[i] = int(s.constraints[i].MaxSkew) - int(s.selfMatch[i]) + s.minMatchNum(i)
}

// Filter's rejections are shared (the runtime copies a status before
// changing it), so rejecting thousands of nodes allocates nothing.
var (
	statusConstraintsNotMatch = &framework.Status{Code: framework.Unschedulable, Reasons: []string{ErrReasonConstraintsNotMatch}, Plugin: Name}
	statusNodeLabelNotMatch   = &framework.Status{Code: framework.UnschedulableAndUnresolvable, Reasons: []string{ErrReasonNodeLabelNotMatch}, Plugin: Name}
)

// filterState returns the state PreFilter wrote for this cycle.
func (pl *Plugin) filterState(state *framework.CycleState) (*preFilterState, error) {
	s, ok := cyclecache.Get(&pl.lastFilter, state, preFilterStateKey)
	if !ok || s == nil {
		return nil, fmt.Errorf("reading %q from cycleState: not found", preFilterStateKey)
	}
	return s, nil
}

// Filter implements framework.FilterPlugin: for every hard constraint,
// 'existing matching num' + 'self-match (1 or 0)' - 'global minimum' must
// not exceed maxSkew (as matchNum > limit). O(constraints) per node, no
// map lookups, no allocation.
func (pl *Plugin) Filter(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	s, err := pl.filterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	return s.filter(node)
}

// filter is Filter with the cycle's state.
func (s *preFilterState) filter(node *framework.NodeInfo) *framework.Status {
	return s.filterIdx(node.Index, node)
}

// filterAt is filter for nodes[k] of FilterBatch: when nodes is the
// snapshot's node list (checked by pointer, without reading the NodeInfo)
// k is the node's index.
func (s *preFilterState) filterAt(k int32, node *framework.NodeInfo) *framework.Status {
	if int(k) < len(s.nodes) && s.nodes[k] == node {
		return s.filterIdx(int(k), node)
	}
	return s.filterIdx(node.Index, node)
}

// filterIdx is filter for the node at snapshot position idx.
func (s *preFilterState) filterIdx(idx int, node *framework.NodeInfo) *framework.Status {
	for i, t := range s.topos {
		var d int32
		if idx < len(t.DomainOf) {
			d = t.DomainOf[idx]
		} else {
			d = domainOf(t, node)
		}
		if d < 0 {
			return statusNodeLabelNotMatch
		}
		if int(s.matchNum[i][d]) > s.limit[i] {
			return statusConstraintsNotMatch
		}
	}
	return nil
}

// AddPod implements framework.PreFilterExtensions.
func (pl *Plugin) AddPod(state *framework.CycleState, podToSchedule, podToAdd *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	s, err := pl.filterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.updateWithPod(podToAdd.Pod, podToSchedule.Pod, node, 1)
	return nil
}

// RemovePod implements framework.PreFilterExtensions.
func (pl *Plugin) RemovePod(state *framework.CycleState, podToSchedule, podToRemove *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	s, err := pl.filterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.updateWithPod(podToRemove.Pod, podToSchedule.Pod, node, -1)
	return nil
}

// updateWithPod is upstream's: a pod of the preemptor's namespace on a
// node with every key changes its domain's count for each constraint whose
// selector matches it and whose inclusion policies admit the node. As
// upstream it does not look at the pod's deletionTimestamp.
func (s *preFilterState) updateWithPod(updated, preemptor *api.Pod, node *framework.NodeInfo, delta int32) {
	if s == nil || node == nil || node.Node == nil || updated.Namespace != preemptor.Namespace {
		return
	}
	domains := make([]int32, len(s.constraints))
	for i := range s.constraints {
		domains[i] = domainOf(s.topos[i], node)
		if domains[i] < 0 {
			return
		}
	}
	needAffinity, needTaints := hasRequiredNodeAffinity(preemptor), false
	for i := range s.constraints {
		needTaints = needTaints || s.constraints[i].NodeTaintsPolicy == api.PolicyHonor
	}
	e := eligibilityOf(preemptor, node.Node, needAffinity, needTaints)
	for i := range s.constraints {
		c := &s.constraints[i]
		if !c.Selector.Matches(updated.Labels) || !c.includes(e) {
			continue
		}
		d := domains[i]
		s.matchNum[i][d] += delta
		if s.eligible[i] != nil && !s.eligible[i][d] {
			s.eligible[i][d] = true
			s.numDomains[i]++
		}
		s.paths[i].update(d, int(s.matchNum[i][d]))
		s.updateLimit(i)
	}
}
