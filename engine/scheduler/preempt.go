package scheduler

import (
	"math/rand/v2"
	"sort"

	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/preemption"
)

// preemptionPostFilter is the default profile's PostFilter:
// DefaultPreemption (engine/scheduler/preemption) with this scheduler as
// its framework.Handle. Equally good candidates are broken by smallest
// name with TieBreakByName, else uniformly at random with the cycle's
// seeded generator (upstream: map iteration order).
func (s *Scheduler) preemptionPostFilter(args PreemptionArgs) postFilterFunc {
	// One evaluator for the profile's life: its dry-run buffers are
	// reused from one preemption to the next.
	ev := &preemption.Evaluator{Handle: s,
		MinCandidateNodesPercentage: args.MinCandidateNodesPercentage, MinCandidateNodesAbsolute: args.MinCandidateNodesAbsolute}
	return func(state *framework.CycleState, pi *framework.PodInfo, statuses framework.NodeToStatus, rng *rand.Rand) postFilterResult {
		ev.PDBs, ev.Window, ev.Offset, ev.TieBreak = s.cfg.PDBs, s.cfg.PreemptionWindow, rng.IntN, nil
		if s.cfg.TieBreak == TieBreakRandom {
			ev.TieBreak = func(candidates []string) string {
				c := append([]string(nil), candidates...)
				sort.Strings(c)
				return c[rng.IntN(len(c))]
			}
		}
		r := ev.Preempt(state, pi, statuses)
		return postFilterResult{nominatedNode: r.NominatedNode, victims: r.Victims, message: r.Message, full: &r}
	}
}
