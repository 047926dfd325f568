package scheduler

import (
	"math/rand/v2"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// selectHost returns the position of the chosen node among the feasible
// nodes (in name order) given their totals. TieBreakByName takes the first
// best node. TieBreakRandom keeps the reservoir sampling of kube-scheduler's
// selectHost (releases up to v1.31): the k-th node tying the best score
// replaces the choice with probability 1/k, one draw per tie, so every
// best node is equally likely. v1.36 pops a heap whose order among equal
// totals depends on the order parallel filtering happened to finish in —
// arbitrary, not reproducible; a seeded uniform choice is the faithful
// deterministic stand-in.
func selectHost(feasible []*framework.NodeInfo, totals []int64, tb TieBreak, rng *rand.Rand) int {
	best, bestScore, ties := 0, totals[0], 1
	for i := 1; i < len(feasible); i++ {
		switch sc := totals[i]; {
		case sc > bestScore:
			best, bestScore, ties = i, sc, 1
		case sc == bestScore && tb == TieBreakRandom:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return best
}
