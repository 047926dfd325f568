// Package cowmap is a map from string keys that is shared between copies
// (an engine and its clones: the lab's checkpoints and fork lanes) in
// Buckets buckets, each a small map with the Owner token of the copy
// that may write it. Copying the Map value copies the bucket pointers (a
// few kilobytes) instead of the entries; after the copy both sides use
// new tokens, and a write to a shared bucket copies that bucket only (a
// hundred-odd entries at 30,000 keys). A copy kept aside thus holds only
// the buckets its original changed since.
//
// Iteration order is a map's (unspecified).
package cowmap

import (
	"iter"
	"maps"
)

// Map is the shared map; its zero value is empty and ready.
type Map[V any] struct {
	b [Buckets]*bucket[V]
	n int
}

type bucket[V any] struct {
	owner *Owner
	m     map[string]V
}

// Buckets is how many buckets a Map has.
const Buckets = 256

// cowIndex picks a key's bucket from its length and last eight bytes
// (where pod names differ: a ReplicaSet's random suffix, a StatefulSet's
// ordinal), FNV-style: a lookup hashes the key again inside its bucket's
// map, so this one must be cheap (maphash here cost 2.5% of BenchmarkDay).
// A skewed spread costs only bigger bucket copies, never a wrong answer.
func cowIndex(k string) int {
	h := uint64(len(k)) * 0x9e3779b97f4a7c15
	for i := max(0, len(k)-8); i < len(k); i++ {
		h = (h ^ uint64(k[i])) * 0x100000001b3
	}
	return int((h ^ h>>32) % Buckets)
}

// Get returns the value of k (zero if absent).
func (c *Map[V]) Get(k string) V {
	v, _ := c.Lookup(k)
	return v
}

// Lookup returns the value of k and whether it is present.
func (c *Map[V]) Lookup(k string) (V, bool) {
	if b := c.b[cowIndex(k)]; b != nil {
		v, ok := b.m[k]
		return v, ok
	}
	var zero V
	return zero, false
}

// w returns k's bucket ready to be written by owner o (copied if shared).
func (c *Map[V]) w(o *Owner, k string) *bucket[V] {
	i := cowIndex(k)
	b := c.b[i]
	switch {
	case b == nil:
		b = &bucket[V]{owner: o, m: map[string]V{}}
	case b.owner != o:
		b = &bucket[V]{owner: o, m: maps.Clone(b.m)}
	default:
		return b
	}
	c.b[i] = b
	return b
}

// Set sets k to v, o being the writing copy's token.
func (c *Map[V]) Set(o *Owner, k string, v V) {
	b := c.w(o, k)
	if _, ok := b.m[k]; !ok {
		c.n++
	}
	b.m[k] = v
}

// Delete removes k.
func (c *Map[V]) Delete(o *Owner, k string) {
	if _, ok := c.Lookup(k); !ok {
		return
	}
	delete(c.w(o, k).m, k)
	c.n--
}

// Len returns the number of keys.
func (c *Map[V]) Len() int { return c.n }

// All ranges over the entries.
func (c *Map[V]) All() iter.Seq2[string, V] {
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

// Owner is a copy's token: a bucket it may write carries it. Each must
// have its own address (hence not zero-sized).
type Owner struct{ _ byte }
