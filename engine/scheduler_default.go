package engine

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

func init() { defaultScheduler = DefaultScheduler }

// DefaultScheduler builds the default-profile scheduler (engine/scheduler)
// with a seeded random tie-break among equally scored nodes, as a running
// kube-scheduler picks (selectHost).
func DefaultScheduler(seed int64, snap *framework.Snapshot, pdbs func() []*api.PodDisruptionBudget) Scheduler {
	return scheduler.New(scheduler.Config{Seed: seed, TieBreak: scheduler.TieBreakRandom, PDBs: pdbs}, snap)
}

// ByNameScheduler is the default profile with ties going to the smallest
// node name (what the oracle and the timeless commands do).
func ByNameScheduler(seed int64, snap *framework.Snapshot, pdbs func() []*api.PodDisruptionBudget) Scheduler {
	return scheduler.New(scheduler.Config{Seed: seed, TieBreak: scheduler.TieBreakByName, PDBs: pdbs}, snap)
}
