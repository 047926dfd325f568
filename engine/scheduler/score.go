package scheduler

import (
	"fmt"
	"slices"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// runPreScore runs the PreScore plugins as frameworkImpl.RunPreScorePlugins:
// Skip marks the plugin's Score to be skipped; anything else but success
// fails the cycle.
func (s *Scheduler) runPreScore(state *framework.CycleState, pi *framework.PodInfo, feasible []*framework.NodeInfo) *framework.Status {
	var (
		skip     map[string]bool
		skipMask uint64
	)
	plugins := s.prof.preScore
	maskable := skipMaskable(plugins)
	defer func() {
		if maskable {
			skip = s.skipSetOf(true, skipMask, func(i int) string { return plugins[i].Name() })
		}
		state.SkipScorePlugins = skip
	}()
	for i, pl := range plugins {
		st := pl.PreScore(state, pi, s.snap, feasible)
		if st.IsSkip() {
			if maskable {
				skipMask |= 1 << i
				continue
			}
			if skip == nil {
				skip = map[string]bool{}
			}
			skip[pl.Name()] = true
			continue
		}
		if !st.IsSuccess() {
			return errorStatus(fmt.Errorf("running PreScore plugin %q: %w", pl.Name(), statusError(st)), pl.Name())
		}
	}
	return nil
}

// scoreTable holds one cycle's scores: per score plugin of the profile
// (in profile order), the normalised score of every feasible node (nil
// for plugins PreScore skipped), the raw scores when asked for, and each
// node's weighted total.
type scoreTable struct {
	normalized [][]framework.NodeScore
	raw        [][]framework.NodeScore
	totals     []int64
}

// prioritize runs PreScore, Score, NormalizeScore and the weights over the
// feasible nodes as prioritizeNodes / frameworkImpl.RunScorePlugins. Score
// runs plugin-major over a fixed partition of the nodes; each node's score
// lands in its own slot, so the result does not depend on parallelism.
// keepRaw keeps the scores before normalisation (explain). The table's
// slices are reused by the next cycle.
func (s *Scheduler) prioritize(state *framework.CycleState, pi *framework.PodInfo, feasible []*framework.NodeInfo, keepRaw bool) (scoreTable, *framework.Status) {
	if st := s.runPreScore(state, pi, feasible); st != nil {
		return scoreTable{}, st
	}
	b := &s.buf
	n := len(feasible)
	plugins := s.prof.score
	table := scoreTable{normalized: make([][]framework.NodeScore, len(plugins))}
	if keepRaw {
		table.raw = make([][]framework.NodeScore, len(plugins))
	}

	// feasible normally is the filter's output, whose indexes and names
	// are known without reading the nodes; when it is the same node set
	// as in the previous cycle, lists already labelled for that set need
	// no relabelling (NormalizeScore changes only scores).
	fromCycle := len(b.feasibleIdx) == n && n > 0 && &b.feasible[0] == &feasible[0] && len(b.cachedNames) == len(s.snap.Nodes())
	slot, setID := b.labelSlotFor(fromCycle)
	for len(slot.scores) < len(plugins) {
		slot.scores = append(slot.scores, nil)
		slot.labelled = append(slot.labelled, 0)
	}
	var labelFrom []framework.NodeScore // a list already labelled for this set
	for p, pl := range plugins {
		if state.SkipScorePlugins[pl.Name()] {
			continue
		}
		if cap(slot.scores[p]) < n {
			slot.scores[p] = make([]framework.NodeScore, n, max(n, 2*cap(slot.scores[p])))
			slot.labelled[p] = 0
		}
		table.normalized[p] = slot.scores[p][:n]
		if setID != 0 && slot.labelled[p] == setID && labelFrom == nil {
			labelFrom = table.normalized[p]
		}
	}
	clear(b.workerErr)
	parallelize(s.cfg.Parallelism, n, func(w, lo, hi int) {
		// Name and Index are read from each node at most once (a cache
		// miss per node), then copied into the lists that need them.
		names := labelFrom
		for p := range plugins {
			scores := table.normalized[p]
			if scores == nil || (setID != 0 && slot.labelled[p] == setID) {
				continue
			}
			if names == nil {
				for i := lo; i < hi; i++ {
					if idx := b.feasibleIdx[i]; fromCycle {
						scores[i] = framework.NodeScore{Name: b.cachedNames[idx], Index: int(idx)}
					} else {
						ni := feasible[i]
						scores[i] = framework.NodeScore{Name: ni.Node.Name, Index: ni.Index}
					}
				}
				names = scores
				continue
			}
			copy(scores[lo:hi], names[lo:hi])
		}
		for p, pl := range plugins {
			scores := table.normalized[p]
			if scores == nil {
				continue
			}
			if bs, ok := pl.ScorePlugin.(framework.BatchScorePlugin); ok && !s.referencePaths {
				if st := bs.ScoreBatch(state, pi, feasible[lo:hi], scores[lo:hi]); !st.IsSuccess() {
					b.workerErr[w] = errorStatus(fmt.Errorf("running Score plugins: plugin %q failed with: %w", pl.Name(), statusError(st)), pl.Name())
					return
				}
				continue
			}
			for i := lo; i < hi; i++ {
				sc, st := pl.Score(state, pi, feasible[i])
				if !st.IsSuccess() {
					b.workerErr[w] = errorStatus(fmt.Errorf("running Score plugins: plugin %q failed with: %w", pl.Name(), statusError(st)), pl.Name())
					return
				}
				scores[i].Score = sc
			}
		}
	})

	for _, st := range b.workerErr {
		if st != nil {
			b.forgetLabels()
			return scoreTable{}, st
		}
	}
	for p := range plugins {
		if table.normalized[p] != nil {
			slot.labelled[p] = setID
		}
	}
	if keepRaw {
		for p := range plugins {
			if scores := table.normalized[p]; scores != nil {
				table.raw[p] = append([]framework.NodeScore(nil), scores...)
			}
		}
	}
	// NormalizeScore of different plugins may run in parallel (upstream
	// does); each plugin's list is normalised by one goroutine. Worker w
	// takes plugins w, w+W, … (fixed, so errors are reported the same way
	// every time) and, while the list is still in cache, range-checks it
	// and adds its weighted scores into its own partial totals; the
	// partials are summed at the end. Normalisation errors take
	// precedence over range errors, as upstream runs the checks after
	// every plugin normalised.
	normWorkers := 1
	if n >= 1024 {
		normWorkers = min(s.cfg.Parallelism, len(plugins))
	}
	for len(b.partial) < normWorkers {
		b.partial = append(b.partial, nil)
		b.rangeErr = append(b.rangeErr, nil)
	}
	clear(b.rangeErr)
	runWorkers(normWorkers, func(w int) {
		if cap(b.partial[w]) < n {
			b.partial[w] = make([]int64, n, max(n, 2*cap(b.partial[w])))
		}
		part := b.partial[w][:n]
		clear(part)
		for p := w; p < len(plugins); p += normWorkers {
			pl, scores := plugins[p], table.normalized[p]
			if scores == nil {
				continue
			}
			if ext := pl.ScoreExtensions(); ext != nil {
				if st := ext.NormalizeScore(state, pi, scores); !st.IsSuccess() {
					b.workerErr[w] = errorStatus(fmt.Errorf("running Normalize on Score plugins: plugin %q failed with: %w", pl.Name(), statusError(st)), pl.Name())
					return
				}
			}
			if b.rangeErr[w] != nil {
				continue
			}
			weight := pl.weight
			for i := range scores {
				sc := scores[i].Score
				if sc > framework.MaxNodeScore || sc < framework.MinNodeScore {
					b.rangeErr[w] = errorStatus(fmt.Errorf("applying score defaultWeights on Score plugins: plugin %q returns an invalid score %v, it should in the range of [%v, %v] after normalizing",
						pl.Name(), sc, framework.MinNodeScore, framework.MaxNodeScore), pl.Name())
					break
				}
				part[i] += sc * weight
			}
		}
	})
	for _, errs := range [][]*framework.Status{b.workerErr, b.rangeErr} {
		for _, st := range errs {
			if st != nil {
				return scoreTable{}, st
			}
		}
	}
	totals := b.partial[0][:n]
	for w := 1; w < normWorkers; w++ {
		for i, v := range b.partial[w][:n] {
			totals[i] += v
		}
	}
	table.totals = totals
	return table, nil
}

// labelSlot holds score lists labelled (Name/Index) for one feasible
// node set. Two slots are kept, so pods that alternate between two sets
// (say, tolerating a taint or not) find their lists already labelled.
type labelSlot struct {
	id       uint64
	set      []int32
	used     uint64
	scores   [][]framework.NodeScore
	labelled []uint64
}

// labelSlotFor returns the slot for the cycle's feasible set and the set's
// id: the slot already labelled for this very set (and node list) if
// there is one, else the least recently used slot under a new id. The id
// is 0 when the set is not the filter's output: lists are then always
// relabelled.
func (b *cycleBuffers) labelSlotFor(fromCycle bool) (*labelSlot, uint64) {
	b.stamp++
	if b.namesChanged {
		for i := range b.slots {
			b.slots[i].set, b.slots[i].id = b.slots[i].set[:0], 0
		}
		b.namesChanged = false
	}
	lru := &b.slots[0]
	for i := range b.slots {
		sl := &b.slots[i]
		if fromCycle && sl.id != 0 && slices.Equal(sl.set, b.feasibleIdx) {
			sl.used = b.stamp
			return sl, sl.id
		}
		if sl.used < lru.used {
			lru = sl
		}
	}
	lru.used = b.stamp
	if !fromCycle {
		lru.set, lru.id = lru.set[:0], 0
		return lru, 0
	}
	b.setID++
	lru.set, lru.id = append(lru.set[:0], b.feasibleIdx...), b.setID
	return lru, lru.id
}

// forgetLabels marks every list as needing relabelling (after a failed
// cycle left them half written).
func (b *cycleBuffers) forgetLabels() {
	for i := range b.slots {
		clear(b.slots[i].labelled)
	}
}
