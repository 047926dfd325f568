package scheduler

import (
	"math/rand/v2"

	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/preemption"
)

// Explanation is everything one cycle computed for a pod, node by node:
// the data behind `podlab explain` and the UI's explain pane.
type Explanation struct {
	// Pod is namespace/name.
	Pod      string
	NumNodes int
	// Feasible lists the nodes that passed every filter, by name.
	Feasible []string
	// Chosen is the node ScheduleOne picks ("" if none).
	Chosen string
	// Message is the FitError message when no node is feasible, without
	// the PostFilter part (as `oracle explain` prints it).
	Message string
	// PostFilterMessage is what preemption added to the message in a
	// scheduling cycle ("preemption: …"), and Preemption its full outcome
	// (nil when preemption did not run). Explain runs it as a dry run.
	PostFilterMessage string
	Preemption        *preemption.Result
	// Profile is the scheduler name of the profile that ran; Policy lists
	// what that profile does differently from the default profile
	// (weights, plugins switched off, args), empty for the default.
	Profile string
	Policy  []string
	// Weights are the score plugins' weights.
	Weights map[string]int64
	// ScoreOrder lists the score plugins in profile order.
	ScoreOrder []string
	// Nodes holds one verdict per node, sorted by node name.
	Nodes []NodeVerdict
	// Gate is the PreEnqueue rejection of a gated pod (SchedulingGates:
	// "waiting for scheduling gates: [a b]") and Gates the pod's gates:
	// such a pod never reaches a scheduling cycle, so no cycle ran —
	// Nodes is empty and Message is the gate's message.
	Gate  *framework.Status
	Gates []string
}

// NodeVerdict is one node's part of an Explanation.
type NodeVerdict struct {
	Node     string
	Feasible bool
	// Plugin is the first filter plugin that rejected the node ("" if
	// feasible, or when a PreFilter result left the node out).
	Plugin string
	Code   framework.Code
	// Reasons are the rejecting status' reasons, exactly as upstream.
	Reasons []string
	// Scores are normalised scores (0..100) per score plugin, for feasible
	// nodes only; skipped and unmodelled plugins report 0.
	Scores map[string]int64
	// RawScores are the scores before NormalizeScore.
	RawScores map[string]int64
	// Total is Σ weight × normalised score.
	Total int64
	// Details holds each Explainer plugin's view of the node (e.g.
	// PodTopologySpread's per-domain counts).
	Details map[string]any
}

// Explain runs one cycle for the pod without changing anything: the
// tie-break generator is copied, so the next ScheduleOne still makes the
// choice Explain reports. Every node is filtered and, when at least one is
// feasible, every feasible node is scored (upstream skips scoring when
// only one node is feasible; the chosen node is the same).
func (s *Scheduler) Explain(pi *framework.PodInfo) *Explanation {
	prof := s.profileFor(pi.Pod)
	if prof == nil {
		return &Explanation{Pod: pi.Pod.Key(), Profile: pi.Pod.Spec.SchedulerName, Message: noProfileResult(pi.Pod).Message}
	}
	if st := s.PreEnqueue(pi.Pod); st != nil {
		return &Explanation{
			Pod: pi.Pod.Key(), NumNodes: len(s.snap.Nodes()), Profile: prof.name, Policy: prof.policy,
			Weights: map[string]int64{}, Gate: st, Gates: append([]string(nil), pi.Pod.Spec.SchedulingGates...),
			Message: st.Message(),
		}
	}
	s.use(prof)
	pcg := *s.pcg
	rng := rand.New(&pcg)
	o := s.run(pi, true, rng)
	res := s.result(o, pi, rng)
	return s.explanation(o, pi, res)
}

func (s *Scheduler) explanation(o *outcome, pi *framework.PodInfo, res Result) *Explanation {
	e := &Explanation{
		Pod:        pi.Pod.Key(),
		NumNodes:   o.numNodes,
		Profile:    s.prof.name,
		Policy:     s.prof.policy,
		Weights:    s.Weights(),
		ScoreOrder: append([]string(nil), s.prof.scoreNames...),
		Nodes:      make([]NodeVerdict, 0, o.numNodes),
	}
	switch {
	case o.chosen >= 0:
		e.Chosen = o.feasible[o.chosen].Node.Name
	case o.err != nil || o.numNodes == 0:
		e.Message = res.Message
	default:
		e.Message = s.fitError(o, res.Reasons, "")
		e.PostFilterMessage, e.Preemption = res.postFilterMsg, res.Preemption
	}
	scoreIndex := map[string]int{}
	for p, pl := range s.prof.score {
		scoreIndex[pl.Name()] = p
	}
	explainable := o.err == nil && o.preFilter == nil
	j := 0 // position in o.feasible (both are in name order)
	for _, ni := range s.snap.Nodes() {
		v := NodeVerdict{Node: ni.Node.Name}
		if o.err != nil {
			v.Code = framework.Error
			v.Reasons = append([]string(nil), o.err.Reasons...)
			e.Nodes = append(e.Nodes, v)
			continue
		}
		if st := s.statusOf(o, ni); st != nil {
			v.Plugin, v.Code = st.Plugin, st.Code
			if o.narrowed != nil && st == o.absent {
				v.Plugin = ""
			}
			v.Reasons = append([]string(nil), st.Reasons...)
		} else if j < len(o.feasible) && o.feasible[j] == ni {
			v.Feasible = true
			e.Feasible = append(e.Feasible, ni.Node.Name)
			v.Scores = make(map[string]int64, len(s.prof.scoreNames))
			v.RawScores = make(map[string]int64, len(s.prof.scoreNames))
			for _, name := range s.prof.scoreNames {
				v.Scores[name], v.RawScores[name] = 0, 0
				p, ok := scoreIndex[name]
				if !ok || o.table.normalized == nil || o.table.normalized[p] == nil {
					continue
				}
				v.Scores[name] = o.table.normalized[p][j].Score
				v.RawScores[name] = o.table.raw[p][j].Score
			}
			if o.table.totals != nil {
				v.Total = o.table.totals[j]
			}
			j++
		}
		if explainable {
			for _, x := range s.prof.explainers {
				if d := x.ExplainNode(o.state, pi, ni); d != nil {
					if v.Details == nil {
						v.Details = map[string]any{}
					}
					v.Details[x.Name()] = d
				}
			}
		}
		e.Nodes = append(e.Nodes, v)
	}
	return e
}
