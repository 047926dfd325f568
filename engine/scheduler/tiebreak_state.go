package scheduler

// CopyTieBreakState makes s draw the same tie-breaks from now on as from
// would (the engine's undo clones a scheduler this way).
func (s *Scheduler) CopyTieBreakState(from *Scheduler) {
	*s.pcg = *from.pcg
}
