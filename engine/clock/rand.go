package clock

import "math/rand/v2"

// Rand is a seeded random source whose state can be copied (for undo), so
// a cloned engine draws the same numbers as the original would have.
type Rand struct {
	src *rand.PCG
	r   *rand.Rand
}

// NewRand returns a source seeded with seed.
func NewRand(seed int64) *Rand {
	src := rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)
	return &Rand{src: src, r: rand.New(src)}
}

// IntN returns a number in [0, n).
func (r *Rand) IntN(n int) int { return r.r.IntN(n) }

// Int64 returns a non-negative number.
func (r *Rand) Int64() int64 { return r.r.Int64() }

// Float64 returns a number in [0, 1).
func (r *Rand) Float64() float64 { return r.r.Float64() }

// Clone returns a source in the same state.
func (r *Rand) Clone() *Rand {
	src := *r.src
	return &Rand{src: &src, r: rand.New(&src)}
}
