package controllers

import (
	"fmt"
	"math/rand/v2"
)

// names generates what the API server would make random: generateName
// suffixes (5 characters of alphanums, as util/rand.String) and UIDs. It is
// seeded, so a run is reproducible; the values differ from a real cluster's.
type names struct {
	src *rand.PCG
	rng *rand.Rand
}

func newNames(seed int64) *names {
	src := rand.NewPCG(uint64(seed), 0x706f646c6162)
	return &names{src: src, rng: rand.New(src)}
}

// clone returns a generator that continues from the same state.
func (n *names) clone() *names {
	src := &rand.PCG{}
	b, err := n.src.MarshalBinary()
	if err == nil {
		err = src.UnmarshalBinary(b)
	}
	if err != nil {
		// PCG state always round-trips; keep going with a fresh stream.
		src = rand.NewPCG(0, 0x706f646c6162)
	}
	return &names{src: src, rng: rand.New(src)}
}

// suffix returns 5 random characters of alphanums.
func (n *names) suffix() string {
	b := make([]byte, 5)
	for i := range b {
		b[i] = alphanums[n.rng.IntN(len(alphanums))]
	}
	return string(b)
}

// uid returns a random version-4 UUID string.
func (n *names) uid() string {
	a, b := n.rng.Uint64(), n.rng.Uint64()
	a = a&^(0xf<<12) | 0x4<<12
	b = b&^(0x3<<62) | 0x2<<62
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xffff, b>>48, b&0xffffffffffff)
}
