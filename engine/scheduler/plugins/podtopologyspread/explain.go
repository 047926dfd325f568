package podtopologyspread

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Explanation is the arithmetic behind the plugin's verdict on one node,
// for the UI (ExplainNode's value). Hard lists the DoNotSchedule
// constraints as Filter judged them, Soft the ScheduleAnyway ones as Score
// counted them; either is empty when that phase did not run (PreFilter or
// PreScore returned Skip, or scoring was not needed).
type Explanation struct {
	Hard []ConstraintExplanation
	Soft []ConstraintExplanation
	// Ignored: scoring ignored the node because it lacks a topology key
	// (it scores 0).
	Ignored bool
	// RawScore is Score's value for the node (before normalisation) when
	// the node was scored.
	RawScore int64
}

// ConstraintExplanation shows one constraint on one node.
type ConstraintExplanation struct {
	TopologyKey        string
	WhenUnsatisfiable  string
	MaxSkew            int32
	MinDomains         int32
	NodeAffinityPolicy string
	NodeTaintsPolicy   string
	// Selector is the selector counting pods, matchLabelKeys merged in,
	// in kubectl syntax.
	Selector string
	// Domain is the node's value for TopologyKey; MissingLabel when it
	// has none (Filter rejects it as unresolvable).
	Domain       string
	MissingLabel bool
	// MatchNum is the matching pods counted in the node's domain (for
	// kubernetes.io/hostname soft constraints: on the node itself).
	MatchNum int
	// SelfMatch is 1 when the selector matches the incoming pod's own
	// labels (placing it adds one to the domain), else 0.
	SelfMatch int
	// GlobalMin is the minimum used for the skew: the smallest count of
	// an eligible domain, or 0 when MinDomainsForcedZero.
	GlobalMin int
	// EligibleDomains is the number of domains with an eligible node.
	EligibleDomains      int
	MinDomainsForcedZero bool
	// Skew = MatchNum + SelfMatch − GlobalMin; Pass = Skew ≤ MaxSkew
	// (hard constraints only; soft ones always pass).
	Skew int
	Pass bool
	// NormalizingWeight is log(domains + 2) and Score the constraint's
	// contribution MatchNum × weight + (MaxSkew − 1) (soft constraints).
	NormalizingWeight float64
	Score             float64
	// Domains lists every domain of the key, sorted by value, for bars.
	Domains []DomainCount
}

// DomainCount is one domain's matching pods.
type DomainCount struct {
	Domain string
	Count  int
	// Eligible: the domain counts for this constraint (a hard
	// constraint's eligible domain, a soft one's domain among the scored
	// nodes).
	Eligible bool
}

// ExplainNode implements framework.Explainer. The result is an
// *Explanation, or nil when neither PreFilter nor PreScore ran.
func (pl *Plugin) ExplainNode(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) any {
	fs, _ := state.Read(preFilterStateKey).(*preFilterState)
	ss, _ := state.Read(preScoreStateKey).(*preScoreState)
	if fs == nil && ss == nil {
		return nil
	}
	out := &Explanation{}
	if fs != nil {
		for i := range fs.constraints {
			out.Hard = append(out.Hard, fs.explain(i, pod.Pod, node))
		}
	}
	if ss != nil {
		if _, ok := ss.ignored[node.Node.Name]; ok {
			out.Ignored = true
		}
		for i := range ss.constraints {
			out.Soft = append(out.Soft, ss.explain(i, pod.Pod, node))
		}
		out.RawScore = ss.score(node)
	}
	return out
}

func describe(c *constraint, pod *api.Pod, t *framework.Topology, node *framework.NodeInfo) (ConstraintExplanation, int32) {
	e := ConstraintExplanation{
		TopologyKey:        c.TopologyKey,
		WhenUnsatisfiable:  c.WhenUnsatisfiable,
		MaxSkew:            c.MaxSkew,
		MinDomains:         c.MinDomains,
		NodeAffinityPolicy: c.NodeAffinityPolicy,
		NodeTaintsPolicy:   c.NodeTaintsPolicy,
		Selector:           c.Selector.String(),
		Pass:               true,
	}
	if c.Selector.Matches(pod.Labels) {
		e.SelfMatch = 1
	}
	d := domainOf(t, node)
	if d < 0 {
		e.MissingLabel = true
	} else {
		e.Domain = t.Domains[d]
	}
	return e, d
}

func (s *preFilterState) explain(i int, pod *api.Pod, node *framework.NodeInfo) ConstraintExplanation {
	c := &s.constraints[i]
	t := s.topos[i]
	e, d := describe(c, pod, t, node)
	e.EligibleDomains = s.numDomains[i]
	e.MinDomainsForcedZero = s.numDomains[i] < int(c.MinDomains)
	e.GlobalMin = s.minMatchNum(i)
	e.Domains = make([]DomainCount, len(t.Domains))
	for j, v := range t.Domains {
		e.Domains[j] = DomainCount{Domain: v, Count: int(s.matchNum[i][j]), Eligible: s.eligible[i] == nil || s.eligible[i][j]}
	}
	if d < 0 {
		e.Pass = false
		return e
	}
	e.MatchNum = int(s.matchNum[i][d])
	e.Skew = e.MatchNum + e.SelfMatch - e.GlobalMin
	e.Pass = e.Skew <= int(c.MaxSkew)
	return e
}

func (s *preScoreState) explain(i int, pod *api.Pod, node *framework.NodeInfo) ConstraintExplanation {
	c := &s.constraints[i]
	t := s.topos[i]
	e, d := describe(c, pod, t, node)
	e.NormalizingWeight = s.weights[i]
	e.Domains = make([]DomainCount, len(t.Domains))
	for j, v := range t.Domains {
		e.Domains[j].Domain = v
	}
	if s.hostname[i] {
		// hostname constraints count per node: sum each node into its domain.
		if idx := s.indexes[i]; idx != nil {
			for n, cnt := range idx.perNode {
				if dd := t.DomainOf[n]; dd >= 0 {
					e.Domains[dd].Count += int(cnt)
				}
			}
		}
		for j := range e.Domains {
			e.Domains[j].Eligible = true
		}
	} else {
		for j := range e.Domains {
			e.Domains[j].Eligible = s.present[i][j]
			if s.present[i][j] {
				e.Domains[j].Count = int(s.counts[i][j])
			}
		}
	}
	if d >= 0 {
		e.MatchNum = int(s.count(i, d, node))
		e.Score = scoreForCount(int64(e.MatchNum), c.MaxSkew, s.weights[i])
	}
	return e
}
