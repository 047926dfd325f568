package scheduler

import (
	"math/rand/v2"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// selectHost returns the position of the chosen node among the feasible
// nodes (in name order) given their totals. TieBreakByName takes the first
// best node (the oracle's rule). TieBreakRandom chooses uniformly among
// the best nodes, the distribution of the reservoir sampling in
// kube-scheduler's selectHost (up to v1.31: the k-th tying node replaced
// the choice with probability 1/k), drawn once — rng.IntN(ties) picks the
// winner among the ties in name order — instead of once per tie, which
// costs a draw per node when thousands of nodes tie. v1.36 pops a heap
// whose order among equal totals depends on the order parallel filtering
// happened to finish in: arbitrary and not reproducible, so a seeded
// uniform choice is the deterministic stand-in.
func selectHost(feasible []*framework.NodeInfo, totals []int64, tb TieBreak, rng *rand.Rand) int {
	best, bestScore, ties := 0, totals[0], 1
	for i := 1; i < len(feasible); i++ {
		switch sc := totals[i]; {
		case sc > bestScore:
			best, bestScore, ties = i, sc, 1
		case sc == bestScore:
			ties++
		}
	}
	if tb != TieBreakRandom || ties == 1 {
		return best
	}
	k := rng.IntN(ties)
	for i := best; i < len(feasible); i++ {
		if totals[i] == bestScore {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return best
}
