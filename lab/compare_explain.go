package lab

import (
	"fmt"
	"sort"
	"strings"
)

// PodDiff explains a pod the two lanes placed differently: each lane's
// scheduler verdict on the pod now, and the plugin that made the lane
// prefer its node over the other lane's.
type PodDiff struct {
	Pod   string
	Lanes [2]LaneVerdict
}

// LaneVerdict is one lane's side of a PodDiff.
type LaneVerdict struct {
	Lane string
	// Node is where the pod is in this lane ("" pending), Other where it
	// is in the other lane.
	Node, Other string
	// Explanation is the lane's scheduling cycle for the pod (a bound pod
	// taken out of the cluster for it, as the explain view does).
	Explanation *LiveExplanation
	// Plugin decided between Node and Other in this lane: the filter that
	// rejects Other here, or the score plugin with the largest weighted
	// lead of Node over Other. "" when the lane cannot tell (the pod is
	// pending here and in the other lane too, or absent).
	Plugin string
	// Why is that in one line.
	Why string
}

// ExplainDiff explains pod (namespace/name) in both lanes.
func (f *Fork) ExplainDiff(pod string) (*PodDiff, error) {
	d := &PodDiff{Pod: pod}
	var nodes [2]string
	for i, s := range f.lanes {
		p := s.eng.Pod(pod)
		if p == nil {
			return nil, fmt.Errorf("pod %s is not in lane %s", pod, laneName(i))
		}
		nodes[i] = p.Spec.NodeName
	}
	for i, s := range f.lanes {
		ex, err := s.Explain(pod)
		if err != nil {
			return nil, fmt.Errorf("lane %s: %w", laneName(i), err)
		}
		v := LaneVerdict{Lane: laneName(i), Node: nodes[i], Other: nodes[1-i], Explanation: ex}
		v.Plugin, v.Why = decisive(ex, nodes[i], nodes[1-i])
		d.Lanes[i] = v
	}
	return d, nil
}

// decisive names what made a lane choose own over other.
func decisive(ex *LiveExplanation, own, other string) (plugin, why string) {
	if own == "" {
		if ex.Message != "" {
			return "", "pending: " + ex.Message
		}
		return "", "pending"
	}
	if other == "" {
		return "", fmt.Sprintf("on %s here; pending in the other lane", own)
	}
	verdict := func(n string) (int, bool) {
		for i := range ex.Nodes {
			if ex.Nodes[i].Node == n {
				return i, true
			}
		}
		return 0, false
	}
	oi, ok1 := verdict(own)
	xi, ok2 := verdict(other)
	if !ok1 || !ok2 {
		return "", fmt.Sprintf("on %s here, on %s in the other lane", own, other)
	}
	o, x := ex.Nodes[oi], ex.Nodes[xi]
	if !x.Feasible {
		return x.Plugin, fmt.Sprintf("%s is filtered out here by %s: %s", other, x.Plugin, strings.Join(x.Reasons, ", "))
	}
	if !o.Feasible {
		// it runs on a node it would not get now (the cluster changed)
		return o.Plugin, fmt.Sprintf("%s would not pass %s now: %s", own, o.Plugin, strings.Join(o.Reasons, ", "))
	}
	type lead struct {
		plugin string
		d      int64
	}
	var leads []lead
	for _, pl := range ex.ScoreOrder {
		w := ex.Weights[pl]
		if dd := w * (o.Scores[pl] - x.Scores[pl]); dd != 0 {
			leads = append(leads, lead{pl, dd})
		}
	}
	sort.SliceStable(leads, func(i, j int) bool { return leads[i].d > leads[j].d })
	if len(leads) == 0 || leads[0].d <= 0 {
		return "", fmt.Sprintf("%s and %s score the same here (%d vs %d): a tie broken at random", own, other, o.Total, x.Total)
	}
	return leads[0].plugin, fmt.Sprintf("%s leads %s by %d on %s (total %d vs %d)", own, other, leads[0].d, leads[0].plugin, o.Total, x.Total)
}
