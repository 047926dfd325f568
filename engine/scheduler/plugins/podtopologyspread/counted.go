package podtopologyspread

import (
	"slices"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// countedSet is matchIndex.counted: which PodInfos were counted and on
// which node position. It is split by node position into chunks of
// countedChunkNodes nodes, each a small map with the token of the index
// that may write it, so that a clone (CloneFor: every checkpoint) copies
// the chunk pointers instead of every counted pod — at 30,000 pods one
// map per index cost 1.3 MB per clone — and a write to a shared chunk
// copies that chunk only. A pod is found under the node it was added on:
// the snapshot removes a pod from the NodeInfo it added it to, and a
// change of node positions makes the index stale (NodesChanged).
type countedSet struct {
	chunks []*countedChunk
	own    *countedOwner
}

// countedChunkNodes is how many node positions share a chunk.
const countedChunkNodes = 32

type countedChunk struct {
	owner *countedOwner
	m     map[*framework.PodInfo]int32
}

// countedOwner is a write token; it has a size so that each new one is a
// distinct pointer.
type countedOwner struct{ _ byte }

func newCountedSet(nodes int) countedSet {
	return countedSet{
		chunks: make([]*countedChunk, (nodes+countedChunkNodes-1)/countedChunkNodes),
		own:    &countedOwner{},
	}
}

// lookup returns the node position pi was counted on, looking on node.
func (c *countedSet) lookup(node int, pi *framework.PodInfo) (int32, bool) {
	if k := node / countedChunkNodes; node >= 0 && k < len(c.chunks) && c.chunks[k] != nil {
		i, ok := c.chunks[k].m[pi]
		return i, ok
	}
	return 0, false
}

// w returns node's chunk ready to be written (copied if shared).
func (c *countedSet) w(node int) *countedChunk {
	k := node / countedChunkNodes
	ch := c.chunks[k]
	switch {
	case ch == nil:
		ch = &countedChunk{owner: c.own, m: map[*framework.PodInfo]int32{}}
	case ch.owner != c.own:
		m := make(map[*framework.PodInfo]int32, len(ch.m))
		for p, i := range ch.m {
			m[p] = i
		}
		ch = &countedChunk{owner: c.own, m: m}
	default:
		return ch
	}
	c.chunks[k] = ch
	return ch
}

func (c *countedSet) add(node int, pi *framework.PodInfo) {
	c.w(node).m[pi] = int32(node)
}

func (c *countedSet) remove(node int, pi *framework.PodInfo) {
	delete(c.w(node).m, pi)
}

// clone returns a copy sharing every chunk; both sides write through new
// tokens from now on.
func (c *countedSet) clone() countedSet {
	c.own = &countedOwner{}
	return countedSet{chunks: slices.Clone(c.chunks), own: &countedOwner{}}
}
