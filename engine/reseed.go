package engine

// Reseed makes every later random choice follow a new seed (the lab's
// `seed N` command): the scheduler is rebuilt through Config.NewScheduler
// with it over the same snapshot, and the pods nominated so far stay
// nominated. Replaying the same commands replays the same reseed, so runs
// stay reproducible.
func (e *Engine) Reseed(seed int64) {
	old := e.sched
	e.cfg.Seed = seed
	e.sched = e.newScheduler()
	e.copyNominations(old)
}

// newScheduler builds a scheduler over the engine's snapshot with its
// seed: Config.NewScheduler, else the default profile.
func (e *Engine) newScheduler() Scheduler {
	factory := e.cfg.NewScheduler
	if factory == nil {
		factory = defaultScheduler
	}
	return factory(e.cfg.Seed, e.snap, e.PDBs)
}

// copyNominations nominates, in e's scheduler, every pod that from's
// scheduler nominates (in pod-key order). It walks the nominated keys,
// not every pod's: a clone (a checkpoint) whose pod-key cache was out of
// date built and kept a sorted list of 30,000 keys here.
func (e *Engine) copyNominations(from Scheduler) {
	for _, key := range from.Nominator().Keys() {
		if n := from.Nominator().NominatedNodeOf(key); n != "" {
			if ps := e.pods.Get(key); ps != nil && ps.info != nil {
				e.sched.Nominator().AddNominatedPod(ps.info, n)
			}
		}
	}
}

// Scheduler returns the scheduler in force: the one Config.NewScheduler
// built for this engine (Clone and Reseed build a new one). The lab reads
// explanations and the snapshot's counters through it.
func (e *Engine) Scheduler() Scheduler { return e.sched }
