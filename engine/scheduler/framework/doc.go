// Package framework holds the types the scheduler's plugins and its runtime
// share, shaped after kube-scheduler's pkg/scheduler/framework: Status with
// user-facing reasons, per-node aggregates (NodeInfo), per-pod precomputed
// data (PodInfo), the Snapshot a cycle reads, CycleState for data a plugin
// computes once per pod in PreFilter/PreScore, and the plugin interfaces.
//
// It imports engine/api only. Plugins live in engine/scheduler/plugins/...,
// the runtime (queue, cache, cycle, preemption) in engine/scheduler.
package framework
