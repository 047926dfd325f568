package engine

// Reseed makes every later random choice follow a new seed (the lab's
// `seed N` command): the scheduler is rebuilt through Config.NewScheduler
// with it over the same snapshot, and the pods nominated so far stay
// nominated. Replaying the same commands replays the same reseed, so runs
// stay reproducible.
func (e *Engine) Reseed(seed int64) {
	factory := e.cfg.NewScheduler
	if factory == nil {
		factory = defaultScheduler
	}
	old := e.sched
	e.cfg.Seed = seed
	e.sched = factory(seed, e.snap, e.PDBs)
	for _, key := range e.sortedPodKeys() {
		if n := old.Nominator().NominatedNodeOf(key); n != "" {
			if ps := e.pods[key]; ps != nil && ps.info != nil {
				e.sched.Nominator().AddNominatedPod(ps.info, n)
			}
		}
	}
}
