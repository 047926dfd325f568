package engine

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/preemption"
)

func init() { defaultScheduler = DefaultScheduler }

// DefaultScheduler builds the default-profile scheduler (engine/scheduler)
// as a running kube-scheduler behaves: a seeded random tie-break among
// equally scored nodes, and preemption dry runs over upstream's window of
// candidate nodes.
func DefaultScheduler(seed int64, snap *framework.Snapshot, pdbs func() []*api.PodDisruptionBudget) Scheduler {
	return scheduler.New(scheduler.Config{Seed: seed, TieBreak: scheduler.TieBreakRandom, PDBs: pdbs, PreemptionWindow: preemption.UpstreamWindow}, snap)
}

// ByNameScheduler is the default profile with ties going to the smallest
// node name (what the oracle and the timeless commands do).
func ByNameScheduler(seed int64, snap *framework.Snapshot, pdbs func() []*api.PodDisruptionBudget) Scheduler {
	return scheduler.New(scheduler.Config{Seed: seed, TieBreak: scheduler.TieBreakByName, PDBs: pdbs}, snap)
}
