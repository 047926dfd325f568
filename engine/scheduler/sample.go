package scheduler

import (
	"fmt"
	"slices"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// percentageOfNodesToScore as upstream (pkg/scheduler/schedule_one.go
// numFeasibleNodesToFind and findNodesThatPassFilters).
const (
	// minFeasibleNodesToFind: below this many nodes every node is
	// evaluated, and at least this many feasible nodes are looked for.
	minFeasibleNodesToFind = 100
	// minFeasibleNodesPercentageToFind is the floor of the adaptive
	// percentage.
	minFeasibleNodesPercentageToFind = 5
	// minRound is the smallest batch of nodes filtered at once while
	// looking for feasible nodes (see filterSome).
	minRound = 64
)

// validPercentage checks Config.PercentageOfNodesToScore as upstream's
// KubeSchedulerConfiguration validation does (0..100; 0 = adaptive).
func validPercentage(p *int32) error {
	if p != nil && (*p < 0 || *p > 100) {
		return fmt.Errorf("percentageOfNodesToScore: Invalid value: %d: not in valid range [0-100]", *p)
	}
	return nil
}

// numFeasibleNodesToFind is upstream's: every node below 100 nodes;
// otherwise percentage % of them (0 ⇒ the adaptive 50 − numAllNodes/125,
// at least 5), but at least 100.
func numFeasibleNodesToFind(percentage, numAllNodes int32) int32 {
	if numAllNodes < minFeasibleNodesToFind {
		return numAllNodes
	}
	if percentage == 0 {
		percentage = int32(50) - numAllNodes/125
		if percentage < minFeasibleNodesPercentageToFind {
			percentage = minFeasibleNodesPercentageToFind
		}
	}
	numNodes := numAllNodes * percentage / 100
	if numNodes < minFeasibleNodesToFind {
		return minFeasibleNodesToFind
	}
	return numNodes
}

// filterSome is findNodesThatPassFilters with a percentageOfNodesToScore:
// starting at the rotating nextStartNodeIndex it filters nodes in
// rotated order until numFeasibleNodesToFind of them pass, and returns
// those (in name order, like filterNodes) for scoring. Nodes after the
// one that completed the set count as not processed: their verdicts are
// dropped and the start index advances by the number of nodes up to and
// including it (upstream: len(feasible) + len(statuses)).
//
// Upstream filters with 16 goroutines and cancels them when enough nodes
// passed, so which nodes it keeps, and how far the start index moves,
// depend on timing. Here nodes are filtered in rounds (plugin-major over
// a fixed partition, as filterNodes) and the result is cut in rotated
// order, which is exactly what upstream does with one goroutine: the same
// cluster and history always give the same nodes. A round is sized from
// the share of nodes that passed so far, so a round rarely filters many
// more nodes than needed.
func (s *Scheduler) filterSome(state *framework.CycleState, pi *framework.PodInfo, nodes []*framework.NodeInfo, percentage int32) ([]*framework.NodeInfo, *framework.Status) {
	b := &s.buf
	total := len(nodes)
	need := int(numFeasibleNodesToFind(percentage, int32(total)))
	start := 0
	if total > 0 {
		start = s.nextStartNodeIndex % total
	}
	b.accNodes, b.accIdx = b.accNodes[:0], b.accIdx[:0]
	if cap(b.roundMark) < len(s.snap.Nodes()) {
		b.roundMark = make([]uint64, len(s.snap.Nodes()))
	}
	b.roundMark = b.roundMark[:len(s.snap.Nodes())]
	processed, found := 0, 0
	var err *framework.Status
	for processed < total && found < need {
		size := need - found
		if found > 0 {
			// expected nodes to filter for the missing ones, at the
			// pass rate seen so far
			size = (need - found) * processed / found
		}
		size = min(max(size, minRound), total-processed)
		b.round = b.round[:0]
		b.markStamp++
		for i := 0; i < size; i++ {
			ni := nodes[(start+processed+i)%total]
			b.round = append(b.round, ni)
			b.roundMark[ni.Index] = b.markStamp
		}
		if err = s.filterPass(state, pi, b.round, false); err != nil {
			break
		}
		stamp := b.markStamp
		if _, err = s.nominatedPass(state, pi, func(ni *framework.NodeInfo) bool { return b.roundMark[ni.Index] == stamp }); err != nil {
			break
		}
		for i, ni := range b.round {
			if b.statuses[ni.Index] != nil {
				continue
			}
			b.accNodes, b.accIdx = append(b.accNodes, ni), append(b.accIdx, int32(ni.Index))
			if found++; found == need {
				// the rest of the round was not processed
				for _, rest := range b.round[i+1:] {
					b.statuses[rest.Index], b.rejectedBy[rest.Index] = nil, 0
				}
				size = i + 1
				break
			}
		}
		processed += size
	}
	if n := len(s.snap.Nodes()); n > 0 {
		s.nextStartNodeIndex = (s.nextStartNodeIndex + processed) % n
	}
	if err != nil {
		return nil, err
	}
	// Back to name order: the nodes were found in rotated order, which is
	// ascending with one wrap-around.
	if w := wrapPoint(b.accIdx); w > 0 {
		rotate(b.accNodes, w)
		rotate(b.accIdx, w)
	}
	b.feasible = append(b.feasible[:0], b.accNodes...)
	b.feasibleIdx = append(b.feasibleIdx[:0], b.accIdx...)
	return b.feasible, nil
}

// wrapPoint returns the position where an ascending-with-one-wrap list
// starts over (0 when it is ascending).
func wrapPoint(idx []int32) int {
	for i := 1; i < len(idx); i++ {
		if idx[i] < idx[i-1] {
			return i
		}
	}
	return 0
}

// rotate moves x[w:] before x[:w] in place.
func rotate[T any](x []T, w int) {
	slices.Reverse(x[:w])
	slices.Reverse(x[w:])
	slices.Reverse(x)
}
