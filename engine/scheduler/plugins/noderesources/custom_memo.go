package noderesources

import "podlab.dev/podlab/engine/scheduler/framework"

// customSlot memoises a configured scorer's per-node scores, as scoreMemo
// does for the default ones: a node's score stays valid while the node is
// unchanged (refresh clears it) and the pod requests what the last one
// scored by the same scorer did. One slot serves Fit, one
// BalancedAllocation; profiles with different scorers take turns (a new
// epoch each time the owner changes), which is correct, only slower.
type customSlot struct {
	memos []customMemo
	owner *resourceScorer
	req   []int64
	epoch uint32
}

type customMemo struct {
	epoch uint32
	score int8 // scores are 0..100
}

// epochFor returns the slot's epoch for the scorer and requests, starting
// a new one when either changed (PreScore: single-threaded).
func (c *customSlot) epochFor(n int, r *resourceScorer, req []int64) uint32 {
	if len(c.memos) != n {
		c.memos, c.epoch = make([]customMemo, n), 0
	}
	if c.epoch != 0 && c.owner == r && equalInts(c.req, req) {
		return c.epoch
	}
	c.owner, c.req = r, append(c.req[:0], req...)
	c.epoch++
	if c.epoch == 0 { // wrapped: forget every memo
		clear(c.memos)
		c.epoch = 1
	}
	return c.epoch
}

// clearNode forgets node i's memo (the node changed).
func (c *customSlot) clearNode(i int) {
	if i < len(c.memos) {
		c.memos[i] = customMemo{}
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// scoreAll is ScoreBatch for a configured cpu/memory scorer: the memo when
// valid, else entryScore (remembered), else the vector path for nodes not
// in the index.
func (c *customSlot) scoreAll(idx *allocIndex, epoch uint32, r *resourceScorer, req []int64, nodes []*framework.NodeInfo, scores []framework.NodeScore) {
	for i, ni := range nodes {
		k := idx.positionOf(scores[i].Index, ni)
		if k < 0 || k >= len(c.memos) {
			scores[i].Score = r.nodeScore(req, ni)
			continue
		}
		m := &c.memos[k]
		if m.epoch == epoch {
			scores[i].Score = int64(m.score)
			continue
		}
		sc := r.entryScore(req, &idx.entries[k])
		m.epoch, m.score = epoch, int8(sc)
		scores[i].Score = sc
	}
}
