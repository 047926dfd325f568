package scheduler

import (
	"math/rand/v2"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// ExplainPlugin is one plugin's Details of Explain on the first node (in
// name order) whose details accept takes, without the rest of the
// explanation (every node's verdict, scores and every plugin's details):
// a view that needs one plugin's account — a workload's spread, compared
// across two lanes on every tick — pays for one scheduling cycle. nil
// when Explain would have no such details (no profile, an error or a
// PreFilter rejection, or no node accepted).
func (s *Scheduler) ExplainPlugin(pi *framework.PodInfo, plugin string, accept func(any) bool) any {
	prof := s.profileFor(pi.Pod)
	if prof == nil {
		return nil
	}
	s.use(prof)
	pcg := *s.pcg
	o := s.run(pi, true, rand.New(&pcg))
	if o.err != nil || o.preFilter != nil {
		return nil
	}
	for _, x := range s.prof.explainers {
		if x.Name() != plugin {
			continue
		}
		for _, ni := range s.snap.Nodes() {
			if d := x.ExplainNode(o.state, pi, ni); d != nil && accept(d) {
				return d
			}
		}
	}
	return nil
}
