package noderesources

import (
	"math/rand"
	"testing"
)

// randomAmount draws allocatable/requested values the way clusters have
// them: round milli-cpu and byte counts, powers of two, exact fractions
// of another value, tiny and huge numbers.
func randomAmount(rng *rand.Rand, of int64) int64 {
	switch rng.Intn(8) {
	case 0:
		return int64(rng.Intn(64)+1) * 1000
	case 1:
		return int64(1) << uint(rng.Intn(50))
	case 2:
		return int64(rng.Intn(128)+1) << 30
	case 3:
		if of > 0 {
			m := int64(rng.Intn(12) + 1)
			return of * int64(rng.Intn(int(m)+1)) / m
		}
		return int64(rng.Intn(1000))
	case 4:
		return int64(rng.Intn(10))
	case 5:
		return rng.Int63n(1 << 62)
	case 6:
		return int64(rng.Intn(32)+1) * 100 * (1 << 20)
	default:
		return rng.Int63n(1 << 40)
	}
}

// TestFastScoresAreBitExact compares the division-free scorers with the
// reference arithmetic on 400,000 random nodes and pods.
func TestFastScoresAreBitExact(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for i := 0; i < 400_000; i++ {
		e := allocEntry{allocCPU: randomAmount(rng, 0), allocMem: randomAmount(rng, 0)}
		if rng.Intn(20) == 0 {
			e.allocCPU = 0
		}
		if rng.Intn(20) == 0 {
			e.allocMem = 0
		}
		e.reqCPU, e.reqMem = randomAmount(rng, e.allocCPU), randomAmount(rng, e.allocMem)
		e.nzCPU, e.nzMem = randomAmount(rng, e.allocCPU), randomAmount(rng, e.allocMem)
		if e.allocCPU != 0 {
			e.invCPU = 1 / float64(e.allocCPU)
		}
		if e.allocMem != 0 {
			e.invMem = 1 / float64(e.allocMem)
		}
		var without allocation
		without.allocatable = [numResources]int64{e.allocCPU, e.allocMem}
		without.allocated = [numResources]int64{e.reqCPU, e.reqMem}
		if e.allocCPU == 0 {
			without.allocated[cpuIdx] = 0
		}
		if e.allocMem == 0 {
			without.allocated[memIdx] = 0
		}
		e.balanceWithout = balancedResourceScore(&without.allocated, &without.allocatable)
		podCPU, podMem := randomAmount(rng, e.allocCPU), randomAmount(rng, e.allocMem)
		if rng.Intn(2) == 0 {
			podCPU = randomAmount(rng, e.allocCPU-e.reqCPU)
		}

		var a allocation
		if e.allocCPU != 0 {
			a.allocatable[cpuIdx], a.requested[cpuIdx] = e.allocCPU, e.nzCPU+podCPU
		}
		if e.allocMem != 0 {
			a.allocatable[memIdx], a.requested[memIdx] = e.allocMem, e.nzMem+podMem
		}
		if got, want := fitScoreFast(&e, podCPU, podMem), leastAllocatedScore(&a); got != want {
			t.Fatalf("fit %+v pod %d/%d: fast %d, reference %d", e, podCPU, podMem, got, want)
		}
		a = allocation{}
		if e.allocCPU != 0 {
			a.allocatable[cpuIdx], a.requested[cpuIdx] = e.allocCPU, e.reqCPU+podCPU
		}
		if e.allocMem != 0 {
			a.allocatable[memIdx], a.requested[memIdx] = e.allocMem, e.reqMem+podMem
		}
		want := improvementScore(balancedResourceScore(&a.requested, &a.allocatable), e.balanceWithout)
		if got := balancedScoreFast(&e, podCPU, podMem); got != want {
			t.Fatalf("balanced %+v pod %d/%d: fast %d, reference %d", e, podCPU, podMem, got, want)
		}
	}
}

func TestFloorDivIsExact(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 1_000_000; i++ {
		c := randomAmount(rng, 0) + 1
		if c >= maxExactFloat/100 {
			continue
		}
		x := rng.Int63n(c*100 + 1)
		if got, want := floorDiv(x, c, 1/float64(c)), x/c; got != want {
			t.Fatalf("%d / %d: %d, want %d", x, c, got, want)
		}
	}
}
