// Package preemption is kube-scheduler's DefaultPreemption PostFilter
// (pkg/scheduler/framework/preemption/preemption.go and
// plugins/defaultpreemption/default_preemption.go, v1.36): when a pod fits
// nowhere, find the node where evicting the fewest and least important
// lower-priority pods makes room, honouring PodDisruptionBudgets where it
// can.
//
// Differences from a running kube-scheduler, on purpose:
//   - Evaluator.Window chooses which potential nodes are dry-run.
//     UpstreamWindow is DryRunPreemption's: from an offset, until
//     max(100, 10% of the potential nodes) candidates are found (one of
//     them without budget violations); the offset comes from the
//     scheduler's seeded generator instead of rand.Int31n. AllCandidates
//     (the zero value, what the oracle and `podlab schedule` do) dry-runs
//     every potential node and so may find a better node than upstream
//     above 100 nodes. Up to 100 potential nodes both are the same.
//   - The window runs over the potential nodes in node-name order
//     (upstream: the node tree's zone round-robin order).
//   - Dry runs are sequential in window order, so results never depend
//     on goroutine timing; candidates are reported in node-name order and
//     ties left after upstream's criteria go to Evaluator.TieBreak
//     (upstream: map iteration order).
//   - A node whose lower-priority pods only matter to NodeResourcesFit is
//     dry-run with one filter run and sums instead of a filter run per
//     reprieve (fastpath.go); the decision is the same.
//   - Preempt only decides. It neither deletes the victims nor sets the
//     preemptor's nominatedNodeName: the engine does both (graceful deletion
//     with a DisruptionTarget condition, reason PreemptionByScheduler).
//
// It imports engine/api, engine/scheduler/framework and the default filter
// plugins' names (fastpath.go).
package preemption
