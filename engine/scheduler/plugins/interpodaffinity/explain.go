package interpodaffinity

import "podlab.dev/podlab/engine/scheduler/framework"

// NodeDetail is the arithmetic behind the plugin's verdict on one node, for
// display (framework.Explainer).
type NodeDetail struct {
	// Required lists the incoming pod's required terms with the number of
	// matching pods in the node's domain of each term's key.
	Required []TermCount
	// SelfMatch is set when no pod anywhere matches the pod's required
	// affinity and the pod matches its own terms: the affinity is then
	// satisfied by any node carrying every key.
	SelfMatch bool
	// ExistingAntiAffinity lists, per topology key, the existing pods whose
	// required anti-affinity matches the incoming pod in the node's domain
	// (only keys with such pods somewhere).
	ExistingAntiAffinity []DomainCount
	// Score lists the raw score contributions of the node's domains per key
	// (before normalisation); their sum is the raw score.
	Score []DomainCount
}

// TermCount is one required term of the incoming pod on one node.
type TermCount struct {
	Anti        bool
	TopologyKey string
	// Domain is the node's value for the key; HasKey false when it has none.
	Domain string
	HasKey bool
	// Matching counts pods matching (all affinity terms / this anti-affinity
	// term) in that domain.
	Matching int64
}

// DomainCount is a number attached to a node's domain of one key.
type DomainCount struct {
	TopologyKey string
	Domain      string
	Count       int64
}

// ExplainNode implements framework.Explainer. It returns a NodeDetail, or
// nil when the plugin had nothing to do for the pod.
func (pl *Plugin) ExplainNode(state *framework.CycleState, _ *framework.PodInfo, node *framework.NodeInfo) any {
	pf, _ := state.Read(preFilterStateKey).(*preFilterState)
	ps, _ := state.Read(preScoreStateKey).(*preScoreState)
	if pf == nil && ps == nil {
		return nil
	}
	d := &NodeDetail{}
	if pf != nil {
		for i := range pf.affinityTerms {
			d.Required = append(d.Required, termCount(&pf.affinity, false, pf.affinityTerms[i].TopologyKey, node))
		}
		for i := range pf.antiAffinityTerms {
			d.Required = append(d.Required, termCount(&pf.antiAffinity, true, pf.antiAffinityTerms[i].TopologyKey, node))
		}
		d.SelfMatch = len(pf.affinityTerms) > 0 && pf.affinity.nonZero == 0 && matchesAll(pf.affinityTerms, pf.pod.Pod)
		for _, dc := range pf.existingAntiAffinity.byKey {
			if n, ok := pf.existingAntiAffinity.getIn(dc, node); ok {
				d.ExistingAntiAffinity = append(d.ExistingAntiAffinity, DomainCount{TopologyKey: dc.key, Domain: node.Node.Labels[dc.key], Count: n})
			}
		}
	}
	if ps != nil {
		for _, dc := range ps.scores.byKey {
			if n, ok := ps.scores.getIn(dc, node); ok {
				d.Score = append(d.Score, DomainCount{TopologyKey: dc.key, Domain: node.Node.Labels[dc.key], Count: n})
			}
		}
	}
	return d
}

func termCount(c *topologyCounts, anti bool, key string, node *framework.NodeInfo) TermCount {
	n, ok := c.get(key, node)
	return TermCount{Anti: anti, TopologyKey: key, Domain: node.Node.Labels[key], HasKey: ok, Matching: n}
}
