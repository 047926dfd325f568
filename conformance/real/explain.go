package real

import (
	"sort"

	v1 "k8s.io/api/core/v1"

	"podlab.dev/podlab/conformance/result"
)

// Explain runs one cycle for pod against the bound pods and reports every
// node's verdict; feasible nodes are always scored (even a single one), and
// each plugin's weighted score is divided by its weight to give the
// normalised score.
//
// A nominated node is not tried first (as schedule does): explain shows
// every node's verdict.
func (r *Runner) Explain(pod *v1.Pod) (*result.Explain, error) {
	if pod.Status.NominatedNodeName != "" {
		pod = pod.DeepCopy()
		pod.Status.NominatedNodeName = ""
	}
	c, err := r.runCycle(pod, true)
	if err != nil {
		return nil, err
	}
	out := &result.Explain{Pod: pod.Namespace + "/" + pod.Name, Weights: r.Weights(), Scored: c.scores != nil}
	scores := map[string]result.NodeVerdict{}
	for _, ns := range c.scores {
		v := result.NodeVerdict{Node: ns.Name, Feasible: true, Scores: map[string]int64{}, Total: ns.TotalScore}
		// Plugins whose PreScore skipped the pod are not run: they score 0.
		for name := range r.weights {
			v.Scores[name] = 0
		}
		for _, ps := range ns.Scores {
			w := r.weights[ps.Name]
			if w == 0 {
				w = 1
			}
			v.Scores[ps.Name] = ps.Score / w
		}
		scores[ns.Name] = v
	}
	for _, ni := range c.all {
		name := ni.Node().Name
		if v, ok := scores[name]; ok {
			out.Nodes = append(out.Nodes, v)
			continue
		}
		st := c.statusOf(name)
		v := result.NodeVerdict{Node: name, Feasible: st.IsSuccess()}
		if !v.Feasible {
			v.Reasons = sortedUnique(st.Reasons())
		}
		out.Nodes = append(out.Nodes, v)
	}
	sort.Slice(out.Nodes, func(i, j int) bool { return out.Nodes[i].Node < out.Nodes[j].Node })
	return out, nil
}
