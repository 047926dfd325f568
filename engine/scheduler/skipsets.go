package scheduler

// A cycle's CycleState carries the set of plugins whose PreFilter (or
// PreScore) returned Skip. Most pods skip the same plugins, and the set is
// only read (CycleState.Clone and WithFilterSkipped copy it), so the
// scheduler interns each set by the positions of the skipped plugins in
// the profile's list: a cycle no longer builds a map (two allocations per
// pod and per autoscaler simulation check).

// skipKey names one interned set: the profile, its list (PreFilter or
// PreScore) and the bit mask of skipped positions.
type skipKey struct {
	prof  *profile
	score bool
	mask  uint64
}

// maxSkipSets bounds the interned sets; past it sets are built per cycle.
const maxSkipSets = 256

// skipSetOf returns the set of names of the plugins at the mask's
// positions (nil for an empty mask), interned per scheduler.
func (s *Scheduler) skipSetOf(score bool, mask uint64, name func(int) string) map[string]bool {
	if mask == 0 {
		return nil
	}
	key := skipKey{prof: s.prof, score: score, mask: mask}
	if set, ok := s.skipSets[key]; ok {
		return set
	}
	set := map[string]bool{}
	for i := 0; i < 64; i++ {
		if mask&(1<<i) != 0 {
			set[name(i)] = true
		}
	}
	if s.skipSets == nil {
		s.skipSets = map[skipKey]map[string]bool{}
	}
	if len(s.skipSets) < maxSkipSets {
		s.skipSets[key] = set
	}
	return set
}

// skipMaskable reports whether a plugin list's positions fit a mask.
func skipMaskable[T any](list []T) bool { return len(list) <= 64 }
