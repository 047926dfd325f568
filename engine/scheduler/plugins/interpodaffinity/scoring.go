package interpodaffinity

import (
	"fmt"
	"math"

	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

const preScoreStateKey framework.StateKey = "PreScore" + Name

// preScoreState holds, per topology domain, the summed weights of matching
// terms (scoring.go preScoreState upstream, as domain arrays).
type preScoreState struct {
	scores topologyCounts
}

// Clone implements framework.StateData; scoring state is never mutated
// after PreScore, so it is shared as upstream does.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore sums, per domain, the weights of: the incoming pod's preferred
// affinity (+) and anti-affinity (−) terms matched by existing pods, and
// existing pods' required affinity (+HardPodAffinityWeight), preferred
// affinity (+) and preferred anti-affinity (−) terms matched by the
// incoming pod. Without preferred terms of its own only nodes holding pods
// with affinity are visited. Skip when nothing contributed.
func (pl *Plugin) PreScore(state *framework.CycleState, pi *framework.PodInfo, snap *framework.Snapshot, _ []*framework.NodeInfo) *framework.Status {
	pl.lastScore.Store(state, nil)
	if pi.ParseError != nil {
		return framework.AsStatus(fmt.Errorf("failed to parse pod: %w", pi.ParseError))
	}
	// Nothing can contribute: the incoming pod has no preferred terms and no
	// pod in the cluster has affinity terms — the Skip below, without
	// visiting every node.
	if len(pi.PreferredAffinityTerms) == 0 && len(pi.PreferredAntiAffinityTerms) == 0 && presenceOf(snap).withAffinity == 0 {
		return framework.SkipStatus
	}
	a := pi.Pod.Spec.Affinity
	hasConstraints := a != nil && ((a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) ||
		(a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0))
	// scoring.go PreScore: existing pods' terms are optionally ignored
	// for a pod without preferred inter-pod terms
	if pl.args.IgnorePreferredTermsOfExistingPods && !hasConstraints {
		return framework.SkipStatus
	}

	sc := &scorer{
		incoming:   pi,
		affinity:   resolveWeighted(snap, pi.PreferredAffinityTerms),
		anti:       resolveWeighted(snap, pi.PreferredAntiAffinityTerms),
		nsLabels:   snap.NamespaceLabelsOf(pi.Pod.Namespace),
		topoScore:  newTopologyCounts(snap),
		hardWeight: int64(pl.args.HardPodAffinityWeight),
	}
	for _, ni := range snap.Nodes() {
		pods := ni.PodsWithAffinity
		if hasConstraints {
			pods = ni.Pods
		}
		for _, ep := range pods {
			sc.processExistingPod(ep, ni)
		}
	}
	if !sc.topoScore.touched {
		return framework.SkipStatus
	}
	ps := &preScoreState{scores: sc.topoScore}
	state.Write(preScoreStateKey, ps)
	pl.lastScore.Store(state, ps)
	return nil
}

type scorer struct {
	incoming  *framework.PodInfo
	affinity  []incomingTerm
	anti      []incomingTerm
	nsLabels  map[string]string
	topoScore topologyCounts
	// hardWeight is args.hardPodAffinityWeight (0: existing pods'
	// required terms do not score).
	hardWeight int64
}

// processExistingPod adds one existing pod's contributions
// (processExistingPod upstream).
func (sc *scorer) processExistingPod(ep *framework.PodInfo, ni *framework.NodeInfo) {
	if len(ni.Node.Labels) == 0 {
		return
	}
	for i := range sc.affinity {
		if t := &sc.affinity[i]; t.matches(ep.Pod) {
			sc.topoScore.add(t.TopologyKey, ni, int64(t.Weight), true)
		}
	}
	for i := range sc.anti {
		if t := &sc.anti[i]; t.matches(ep.Pod) {
			sc.topoScore.add(t.TopologyKey, ni, -int64(t.Weight), true)
		}
	}
	in := sc.incoming.Pod
	for i := range ep.RequiredAffinityTerms {
		if sc.hardWeight <= 0 {
			break
		}
		if t := &ep.RequiredAffinityTerms[i]; t.Matches(in, sc.nsLabels) {
			sc.topoScore.add(t.TopologyKey, ni, sc.hardWeight, true)
		}
	}
	for i := range ep.PreferredAffinityTerms {
		if t := &ep.PreferredAffinityTerms[i]; t.Matches(in, sc.nsLabels) {
			sc.topoScore.add(t.TopologyKey, ni, int64(t.Weight), true)
		}
	}
	for i := range ep.PreferredAntiAffinityTerms {
		if t := &ep.PreferredAntiAffinityTerms[i]; t.Matches(in, sc.nsLabels) {
			sc.topoScore.add(t.TopologyKey, ni, -int64(t.Weight), true)
		}
	}
}

// Score is the sum over topology keys of the node's domain totals: positive
// for affinity, negative for anti-affinity; normalised later.
func (pl *Plugin) Score(state *framework.CycleState, _ *framework.PodInfo, node *framework.NodeInfo) (int64, *framework.Status) {
	s, _ := cyclecache.Get(&pl.lastScore, state, preScoreStateKey)
	if s == nil {
		return 0, framework.AsStatus(fmt.Errorf("reading %q from cycle state: PreScore did not run", preScoreStateKey))
	}
	var score int64
	for _, d := range s.scores.byKey {
		n, _ := s.scores.getIn(d, node)
		score += n
	}
	return score, nil
}

// ScoreExtensions implements framework.ScorePlugin.
func (pl *Plugin) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore maps the scores linearly onto [0, MaxNodeScore] between
// their minimum and maximum (all 0 when they are equal), truncating, as
// upstream.
func (pl *Plugin) NormalizeScore(state *framework.CycleState, _ *framework.PodInfo, scores []framework.NodeScore) *framework.Status {
	s, _ := state.Read(preScoreStateKey).(*preScoreState)
	if s == nil {
		return framework.AsStatus(fmt.Errorf("reading %q from cycle state: PreScore did not run", preScoreStateKey))
	}
	if len(s.scores.byKey) == 0 {
		return nil
	}
	normalize(scores)
	return nil
}

func normalize(scores []framework.NodeScore) {
	minCount, maxCount := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range scores {
		if scores[i].Score > maxCount {
			maxCount = scores[i].Score
		}
		if scores[i].Score < minCount {
			minCount = scores[i].Score
		}
	}
	diff := maxCount - minCount
	for i := range scores {
		f := float64(0)
		if diff > 0 {
			f = float64(framework.MaxNodeScore) * (float64(scores[i].Score-minCount) / float64(diff))
		}
		scores[i].Score = int64(f)
	}
}
