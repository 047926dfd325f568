package engine

import (
	"hash/maphash"
	"iter"
	"maps"
)

// cowMap is a map from pod key to V that an engine shares with its
// clones (cow.go) in cowBuckets buckets, each a small map with the owner
// token of the engine that may write it. Clone copies the bucket
// pointers (a few kilobytes) instead of the map, and a write to a shared
// bucket copies that bucket only (a hundred-odd entries at 30,000 pods).
// A checkpoint thus holds only the buckets its live session changed
// since, and needs no packing (freeze.go) or unpacking on restore. The
// engine keeps every pod's state and timeline in one.
//
// Iteration order is a map's (unspecified), as before.
type cowMap[V any] struct {
	b [cowBuckets]*cowBucket[V]
	n int
}

type cowBucket[V any] struct {
	owner *owner
	m     map[string]V
}

const cowBuckets = 256

// cowSeed is the process's: bucket positions are not part of any
// outcome (lookups and unordered ranges only).
var cowSeed = maphash.MakeSeed()

func cowIndex(k string) int { return int(maphash.String(cowSeed, k) % cowBuckets) }

// get returns the value of k (zero if absent).
func (c *cowMap[V]) get(k string) V {
	v, _ := c.lookup(k)
	return v
}

// lookup returns the value of k and whether it is present.
func (c *cowMap[V]) lookup(k string) (V, bool) {
	if b := c.b[cowIndex(k)]; b != nil {
		v, ok := b.m[k]
		return v, ok
	}
	var zero V
	return zero, false
}

// w returns k's bucket ready to be written by owner o (copied if shared).
func (c *cowMap[V]) w(o *owner, k string) *cowBucket[V] {
	i := cowIndex(k)
	b := c.b[i]
	switch {
	case b == nil:
		b = &cowBucket[V]{owner: o, m: map[string]V{}}
	case b.owner != o:
		b = &cowBucket[V]{owner: o, m: maps.Clone(b.m)}
	default:
		return b
	}
	c.b[i] = b
	return b
}

// set sets k to v, o being the writing engine's token.
func (c *cowMap[V]) set(o *owner, k string, v V) {
	b := c.w(o, k)
	if _, ok := b.m[k]; !ok {
		c.n++
	}
	b.m[k] = v
}

// del removes k.
func (c *cowMap[V]) del(o *owner, k string) {
	if _, ok := c.lookup(k); !ok {
		return
	}
	delete(c.w(o, k).m, k)
	c.n--
}

// len returns the number of keys.
func (c *cowMap[V]) len() int { return c.n }

// all ranges over the entries.
func (c *cowMap[V]) all() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for _, b := range c.b {
			if b == nil {
				continue
			}
			for k, v := range b.m {
				if !yield(k, v) {
					return
				}
			}
		}
	}
}
