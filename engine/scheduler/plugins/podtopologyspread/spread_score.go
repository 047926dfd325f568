package podtopologyspread

import (
	"fmt"
	"math"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

const preScoreStateKey framework.StateKey = "PreScore" + Name

// preScoreState is upstream's preScoreState (scoring.go), domains as ids.
type preScoreState struct {
	constraints []constraint
	topos       []*framework.Topology
	hostname    []bool
	// indexes[i] counts constraint i's pods (nil: its selector counts none).
	indexes []*matchIndex
	// counts[i][d] is TopologyValueToPodCounts for a non-hostname
	// constraint; only domains present among the scored nodes are
	// meaningful (others may hold sums Score never reads). Index
	// len(Domains) is the "" domain of nodes without the key (system
	// defaults only).
	counts [][]int32
	// present[i][d]: domain d is a key of TopologyValueToPodCounts[i].
	present [][]bool
	// weights is TopologyNormalizingWeight.
	weights []float64
	// ignored holds the names of nodes missing a key (IgnoredNodes); nil
	// when there are none.
	ignored map[string]struct{}
	// nodes is the snapshot's node list PreScore saw (ScoreBatch checks
	// node positions against it).
	nodes []*framework.NodeInfo
	// terms is what Score reads per constraint, precomputed.
	terms []scoreTerm
}

// scoreTerm is one constraint's contribution, ready for Score:
// perDomain[d] = count × weight + (maxSkew − 1) for a non-hostname key;
// for kubernetes.io/hostname, perNode[node] × weight + offset.
type scoreTerm struct {
	domainOf  []int32
	perDomain []float64
	perNode   []int32 // hostname with a counting selector
	hostname  bool
	weight    float64
	offset    float64
}

// Clone implements framework.StateData; as upstream the state is not
// copied (nothing mutates it after PreScore).
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore implements framework.PreScorePlugin: it counts matching pods
// per domain for every soft constraint and weighs each constraint by
// log(number of domains + 2). Returns Skip when the pod has no soft
// constraints.
func (pl *Plugin) PreScore(state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot, feasible []*framework.NodeInfo) *framework.Status {
	if snap.NumNodes() == 0 {
		pl.lastScore.Store(state, nil)
		return framework.SkipStatus
	}
	p := pod.Pod
	cs, err := pl.constraintsFor(p, api.ScheduleAnyway)
	if err != nil {
		pl.lastScore.Store(state, nil)
		return framework.AsStatus(fmt.Errorf("calculating preScoreState: %w", err))
	}
	if len(cs) == 0 {
		pl.lastScore.Store(state, nil)
		return framework.SkipStatus
	}
	// Only require that nodes have all the topology labels if using
	// non-system-default spreading rules, so nodes without a zone label
	// still get hostname spreading (as upstream).
	requireAll := len(p.Spec.TopologySpreadConstraints) > 0 || !pl.systemDefaulted
	s := pl.calPreScoreState(p, snap, feasible, cs, requireAll)
	s.nodes = snap.Nodes()
	state.Write(preScoreStateKey, s)
	pl.lastScore.Store(state, s)
	return nil
}

func (pl *Plugin) calPreScoreState(pod *api.Pod, snap *framework.Snapshot, feasible []*framework.NodeInfo, cs []constraint, requireAll bool) *preScoreState {
	n := len(cs)
	s := &preScoreState{
		constraints: cs,
		topos:       make([]*framework.Topology, n),
		hostname:    make([]bool, n),
		indexes:     make([]*matchIndex, n),
		counts:      make([][]int32, n),
		present:     make([][]bool, n),
		weights:     make([]float64, n),
	}
	metas := make([]*topologyMeta, n)
	var partial []*framework.Topology
	for i := range cs {
		metas[i] = pl.topology(snap, cs[i].TopologyKey)
		s.topos[i] = metas[i].topo
		s.hostname[i] = cs[i].TopologyKey == api.LabelHostname
		if cs[i].counts() {
			s.indexes[i] = index(snap, pod.Namespace, cs[i].Selector)
		}
		if !s.hostname[i] {
			s.present[i] = make([]bool, len(s.topos[i].Domains)+1)
		}
		if metas[i].missing > 0 {
			partial = append(partial, metas[i].topo)
		}
	}

	// initPreScoreState: ignored nodes, domains present among the scored
	// nodes, and their number per constraint.
	topoSize := make([]int, n)
	// Without ignorable nodes the scan can stop once every non-hostname
	// constraint has seen all its domains.
	remaining := -1
	if !requireAll || len(partial) == 0 {
		remaining = 0
		for i := range cs {
			if s.hostname[i] {
				continue
			}
			remaining += len(s.topos[i].Domains)
			if metas[i].missing > 0 && metas[i].emptyDomain < 0 {
				remaining++ // the "" domain of nodes without the key
			}
		}
	}
feasibleNodes:
	for _, ni := range feasible {
		if remaining == 0 {
			break
		}
		if requireAll {
			for _, t := range partial {
				if domainOf(t, ni) < 0 {
					if s.ignored == nil {
						s.ignored = map[string]struct{}{}
					}
					s.ignored[ni.Node.Name] = struct{}{}
					continue feasibleNodes
				}
			}
		}
		for i := range cs {
			if s.hostname[i] {
				continue
			}
			d := scoreDomain(metas[i], ni)
			if !s.present[i][d] {
				s.present[i][d] = true
				topoSize[i]++
				if remaining > 0 {
					remaining--
				}
			}
		}
	}
	for i := range cs {
		size := topoSize[i]
		if s.hostname[i] {
			size = len(feasible) - len(s.ignored)
		}
		s.weights[i] = topologyNormalizingWeight(size)
	}

	// Counts of the non-hostname constraints (hostname ones are counted
	// per node in Score), from the index's sums over the constraint's node
	// set; only domains present among the scored nodes are read.
	var slow []int
	sets := newNodeSetsOf(snap, pod, cs, metas, requireAll)
	for i := range cs {
		if s.hostname[i] {
			continue
		}
		m := metas[i]
		switch {
		case s.indexes[i] == nil:
			s.counts[i] = make([]int32, len(m.topo.Domains)+1)
		case !requireAll && m.missing > 0 && m.emptyDomain >= 0:
			// nodes without the key count towards the "" domain, which
			// only matters when some node is explicitly labelled "".
			s.counts[i] = make([]int32, len(m.topo.Domains)+1)
			slow = append(slow, i)
		default:
			s.counts[i] = s.indexes[i].domainSums(m.topo, sets.nodeSetFor(i)) // shared, read-only
		}
	}
	if len(slow) > 0 {
		countScoreSlow(pod, snap, s, metas, partial, slow, requireAll)
	}
	s.terms = make([]scoreTerm, n)
	for i := range cs {
		t := scoreTerm{domainOf: s.topos[i].DomainOf, hostname: s.hostname[i], weight: s.weights[i], offset: float64(cs[i].MaxSkew - 1)}
		if t.hostname {
			if s.indexes[i] != nil {
				t.perNode = s.indexes[i].perNode
			}
		} else {
			t.perDomain = make([]float64, len(s.topos[i].Domains))
			for d := range t.perDomain {
				t.perDomain[d] = scoreForCount(int64(s.counts[i][d]), cs[i].MaxSkew, t.weight)
			}
		}
		s.terms[i] = t
	}
	return s
}

// scoreDomain is the domain a node's value falls in for scoring: nodes
// without the key (only scored with the system defaults) fall in the ""
// domain, as upstream's node.Labels[key] lookup gives "".
func scoreDomain(m *topologyMeta, ni *framework.NodeInfo) int32 {
	d := domainOf(m.topo, ni)
	if d >= 0 {
		return d
	}
	if m.emptyDomain >= 0 {
		return m.emptyDomain
	}
	return int32(len(m.topo.Domains))
}

// countScoreSlow is PreScore's processAllNode for the constraints in slow:
// every node (with all keys when required) whose inclusion policies admit
// it adds its matching pods to its domain, if that domain is present.
func countScoreSlow(pod *api.Pod, snap *framework.Snapshot, s *preScoreState, metas []*topologyMeta, partial []*framework.Topology, slow []int, requireAll bool) {
	needAffinity, needTaints := false, false
	for _, i := range slow {
		c := &s.constraints[i]
		needAffinity = needAffinity || (c.NodeAffinityPolicy == api.PolicyHonor && hasRequiredNodeAffinity(pod))
		needTaints = needTaints || c.NodeTaintsPolicy == api.PolicyHonor
	}
nodes:
	for n, ni := range snap.Nodes() {
		if requireAll {
			for _, t := range partial {
				if t.DomainOf[n] < 0 {
					continue nodes
				}
			}
		}
		e := eligibilityOf(pod, ni.Node, needAffinity, needTaints)
		for _, i := range slow {
			if !s.constraints[i].includes(e) {
				continue
			}
			d := scoreDomain(metas[i], ni)
			if s.present[i][d] {
				s.counts[i][d] += s.indexes[i].perNode[n]
			}
		}
	}
}

func (pl *Plugin) scoreState(state *framework.CycleState) (*preScoreState, error) {
	s, ok := cyclecache.Get(&pl.lastScore, state, preScoreStateKey)
	if !ok || s == nil {
		return nil, fmt.Errorf("reading %q from cycleState: not found", preScoreStateKey)
	}
	return s, nil
}

// Score implements framework.ScorePlugin: Σ over the soft constraints the
// node has a key for of count × weight + (maxSkew − 1), rounded; count is
// the domain's matching pods, or the node's own for kubernetes.io/hostname.
// O(constraints) per node.
func (pl *Plugin) Score(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) (int64, *framework.Status) {
	s, err := pl.scoreState(state)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	return s.score(node), nil
}

func (s *preScoreState) score(node *framework.NodeInfo) int64 {
	if s.ignored != nil {
		if _, ok := s.ignored[node.Node.Name]; ok {
			return 0
		}
	}
	return s.scoreIdx(node.Index, node)
}

// scoreIdx is score without the ignored-node check, for the node at
// snapshot position idx.
func (s *preScoreState) scoreIdx(idx int, node *framework.NodeInfo) int64 {
	var score float64
	for i := range s.terms {
		t := &s.terms[i]
		if idx >= len(t.domainOf) {
			return s.scoreSlow(node)
		}
		d := t.domainOf[idx]
		switch {
		case d < 0:
		case !t.hostname:
			score += t.perDomain[d]
		case t.perNode != nil:
			score += float64(t.perNode[idx])*t.weight + t.offset
		default:
			score += t.offset
		}
	}
	return int64(math.Round(score))
}

// scoreSlow scores a NodeInfo whose Index is not in the snapshot's range
// (a copy made after the node set changed).
func (s *preScoreState) scoreSlow(node *framework.NodeInfo) int64 {
	var score float64
	for i := range s.constraints {
		d := domainOf(s.topos[i], node)
		if d < 0 {
			continue
		}
		score += scoreForCount(s.count(i, d, node), s.constraints[i].MaxSkew, s.weights[i])
	}
	return int64(math.Round(score))
}

// count is the matching pods constraint i sees for a node in domain d.
func (s *preScoreState) count(i int, d int32, node *framework.NodeInfo) int64 {
	if s.hostname[i] {
		if idx := s.indexes[i]; idx != nil && node.Index < len(idx.perNode) {
			return int64(idx.perNode[node.Index])
		}
		return 0
	}
	return int64(s.counts[i][d])
}

// ScoreExtensions implements framework.ScorePlugin.
func (pl *Plugin) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore implements framework.ScoreExtensions: fewer matching pods
// score higher, MaxNodeScore × (max + min − score) / max over the
// non-ignored nodes; ignored nodes get 0; all-zero scores become
// MaxNodeScore.
func (pl *Plugin) NormalizeScore(state *framework.CycleState, pod *framework.PodInfo, scores []framework.NodeScore) *framework.Status {
	s, err := pl.scoreState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	normalize(scores, s.ignored)
	return nil
}

const invalidScore = -1

func normalize(scores []framework.NodeScore, ignored map[string]struct{}) {
	var minScore int64 = math.MaxInt64
	var maxScore int64
	for i := range scores {
		if ignored != nil {
			if _, ok := ignored[scores[i].Name]; ok {
				scores[i].Score = invalidScore
				continue
			}
		}
		minScore = min(minScore, scores[i].Score)
		maxScore = max(maxScore, scores[i].Score)
	}
	for i := range scores {
		switch {
		case scores[i].Score == invalidScore:
			scores[i].Score = 0
		case maxScore == 0:
			scores[i].Score = framework.MaxNodeScore
		default:
			scores[i].Score = framework.MaxNodeScore * (maxScore + minScore - scores[i].Score) / maxScore
		}
	}
}

// topologyNormalizingWeight is log(size + 2): pod counts of topologies
// with few domains are not watered down by those with many.
func topologyNormalizingWeight(size int) float64 {
	return math.Log(float64(size + 2))
}

// scoreForCount adds maxSkew − 1 so small differences between domains are
// watered down, controlling the score's tolerance to skew.
func scoreForCount(cnt int64, maxSkew int32, weight float64) float64 {
	return float64(cnt)*weight + float64(maxSkew-1)
}
