package controllers

import "math/rand/v2"

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
	var b [5]byte
	for i := range b {
		b[i] = alphanums[n.rng.IntN(len(alphanums))]
	}
	return string(b[:])
}

// uid returns a random version-4 UUID string.
func (n *names) uid() string {
	a, b := n.rng.Uint64(), n.rng.Uint64()
	a = a&^(0xf<<12) | 0x4<<12
	b = b&^(0x3<<62) | 0x2<<62
	return uuidString(a, b)
}

// uuidString is fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a>>32,
// (a>>16)&0xffff, a&0xffff, b>>48, b&0xffffffffffff) without fmt (a
// created pod's UID; Sprintf boxed five values per pod).
func uuidString(a, b uint64) string {
	const hex = "0123456789abcdef"
	var buf [36]byte
	put := func(at int, v uint64, digits int) {
		for i := digits - 1; i >= 0; i-- {
			buf[at+i] = hex[v&0xf]
			v >>= 4
		}
	}
	put(0, a>>32, 8)
	buf[8] = '-'
	put(9, (a>>16)&0xffff, 4)
	buf[13] = '-'
	put(14, a&0xffff, 4)
	buf[18] = '-'
	put(19, b>>48, 4)
	buf[23] = '-'
	put(24, b&0xffffffffffff, 12)
	return string(buf[:])
}
