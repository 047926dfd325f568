// Package scheduler is the scheduler runtime: profiles (the default one —
// plugin order and score weights of kube-scheduler v1.36 — and those of a
// KubeSchedulerConfiguration, merged and expanded as upstream:
// profile_config.go, profile_merge.go), the scheduling cycle of
// pkg/scheduler/schedule_one.go (PreFilter, Filter with nominated pods,
// PreScore, Score, NormalizeScore, weights, host selection), the FitError
// message, the framework.Handle the preemption evaluator calls back into,
// the data behind `podlab explain`, the scheduling queue and the nominator.
//
// It reads and never writes the framework.Snapshot: ScheduleOne decides,
// the caller binds (Snapshot.AddPod) and applies preemption. It imports
// engine/api, engine/scheduler/framework, the plugin packages and
// engine/scheduler/preemption; it must not import the engine, the lab or
// the UI. It never reads the wall clock: queue times are api.Time values
// the engine passes in, and the tie-break generator is seeded.
package scheduler
