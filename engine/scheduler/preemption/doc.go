// Package preemption is kube-scheduler's DefaultPreemption PostFilter
// (pkg/scheduler/framework/preemption/preemption.go and
// plugins/defaultpreemption/default_preemption.go, v1.36): when a pod fits
// nowhere, find the node where evicting the fewest and least important
// lower-priority pods makes room, honouring PodDisruptionBudgets where it
// can.
//
// Differences from a running kube-scheduler, on purpose:
//   - Every candidate node is dry-run. Upstream dry-runs a window of
//     max(100, 10% of the candidates) starting at a random offset and stops
//     once enough candidates are found; up to 100 candidate nodes there is
//     no difference, above it the lab may find a better node than upstream.
//   - Dry runs are sequential in node-name order, so results never depend
//     on goroutine timing; ties left after upstream's criteria go to
//     Evaluator.TieBreak (upstream: map iteration order).
//   - Preempt only decides. It neither deletes the victims nor sets the
//     preemptor's nominatedNodeName: the engine does both (graceful deletion
//     with a DisruptionTarget condition, reason PreemptionByScheduler).
//
// It imports engine/api and engine/scheduler/framework only.
package preemption
