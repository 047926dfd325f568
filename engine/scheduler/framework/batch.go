package framework

// Optional batch fast paths. The runtime calls a plugin once per cycle
// and per run of nodes instead of once per node, so a plugin can fetch its
// cycle state once and loop without a dynamic call per node. A plugin
// that implements them must give every node exactly the verdict and score
// its per-node Filter / Score would (the per-node methods stay the
// reference: preemption dry runs and nominated-pod passes use them).

// BatchFilterPlugin is a FilterPlugin with a batch fast path.
type BatchFilterPlugin interface {
	FilterPlugin
	// FilterBatch filters nodes[k] for every k in cand, in order, calls
	// reject(k, status) for each node it rejects, and returns cand
	// compacted in place to the positions it accepts (order kept). It may
	// run concurrently on disjoint cand lists.
	FilterBatch(state *CycleState, pod *PodInfo, nodes []*NodeInfo, cand []int32, reject func(k int32, st *Status)) []int32
}

// BatchScorePlugin is a ScorePlugin with a batch fast path.
type BatchScorePlugin interface {
	ScorePlugin
	// ScoreBatch sets scores[i].Score to what Score gives nodes[i], for
	// every i (Name and Index are the runtime's and must be left alone).
	// It may run concurrently on disjoint ranges.
	ScoreBatch(state *CycleState, pod *PodInfo, nodes []*NodeInfo, scores []NodeScore) *Status
}
