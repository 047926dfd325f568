package controllers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// uuidString is the Sprintf it replaced, on random and extreme values.
func TestUUIDStringIsTheSprintf(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pairs := [][2]uint64{{0, 0}, {math.MaxUint64, math.MaxUint64}, {1, 1 << 63}}
	for range 10000 {
		pairs = append(pairs, [2]uint64{r.Uint64(), r.Uint64()})
	}
	for _, p := range pairs {
		a, b := p[0], p[1]
		want := fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xffff, b>>48, b&0xffffffffffff)
		if got := uuidString(a, b); got != want {
			t.Fatalf("uuidString(%#x, %#x) = %s, want %s", a, b, got, want)
		}
	}
}
