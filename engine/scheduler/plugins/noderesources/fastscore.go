package noderesources

import "podlab.dev/podlab/engine/scheduler/framework"

// Division-free versions of the two scorers for the batch paths. Both give
// exactly the reference's result (fastscore_test.go compares them on
// random and boundary inputs): the integer quotient is corrected to the
// exact floor, and the float balance is recomputed with divisions
// whenever the multiplied-by-reciprocal value lies too close to an
// integer for truncation to be certain.

// maxExactFloat bounds the integers a float64 holds exactly (2^52, with a
// bit to spare).
const maxExactFloat = int64(1) << 52

// floorDiv returns x / c for 0 ≤ x < 2^52 and 0 < c with x / c ≤ 2^20,
// inv being 1/float64(c): the float product is within 1 of the quotient
// (relative error ~2^-52 on a value ≤ 2^20), and one correction step
// makes it exact.
func floorDiv(x, c int64, inv float64) int64 {
	q := int64(float64(x) * inv)
	switch r := x - q*c; {
	case r < 0:
		q--
	case r >= c:
		q++
	}
	return q
}

// leastRequestedFast is leastRequestedScore with a reciprocal.
func leastRequestedFast(requested, capacity int64, inv float64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	x := (capacity - requested) * framework.MaxNodeScore
	if requested < 0 || capacity-requested >= maxExactFloat/framework.MaxNodeScore {
		return leastRequestedScore(requested, capacity)
	}
	return floorDiv(x, capacity, inv)
}

// fitScoreFast is fitPreScoreState.score for a node of the index.
func fitScoreFast(e *allocEntry, podCPU, podMem int64) int64 {
	var sum, n int64
	if e.allocCPU != 0 {
		sum += leastRequestedFast(e.nzCPU+podCPU, e.allocCPU, e.invCPU)
		n++
	}
	if e.allocMem != 0 {
		sum += leastRequestedFast(e.nzMem+podMem, e.allocMem, e.invMem)
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / n
}

// balanceMargin: a balance value (in [0, 100]) computed with reciprocals is
// within ~1e-13 of the one computed with divisions; farther than this from
// an integer, both truncate to the same score.
const balanceMargin = 1e-9

// balancedScoreFast is balancedPreScoreState.score for a node of the
// index.
func balancedScoreFast(e *allocEntry, podCPU, podMem int64) int64 {
	reqCPU, reqMem := e.reqCPU+podCPU, e.reqMem+podMem
	if e.allocCPU == 0 || e.allocMem == 0 || reqCPU < 0 || reqMem < 0 || reqCPU >= maxExactFloat || reqMem >= maxExactFloat {
		return balancedScoreExact(e, reqCPU, reqMem)
	}
	fc := float64(reqCPU) * e.invCPU
	if fc > 1 {
		fc = 1
	}
	fm := float64(reqMem) * e.invMem
	if fm > 1 {
		fm = 1
	}
	d := (fc - fm) / 2
	if d < 0 {
		d = -d
	}
	v := (1 - d) * float64(framework.MaxNodeScore)
	t := int64(v)
	if v-float64(t) < balanceMargin || float64(t+1)-v < balanceMargin {
		return balancedScoreExact(e, reqCPU, reqMem)
	}
	return improvementScore(t, e.balanceWithout)
}

// balancedScoreExact is the reference arithmetic (with divisions).
func balancedScoreExact(e *allocEntry, reqCPU, reqMem int64) int64 {
	var a allocation
	if e.allocCPU != 0 {
		a.allocatable[cpuIdx], a.requested[cpuIdx] = e.allocCPU, reqCPU
	}
	if e.allocMem != 0 {
		a.allocatable[memIdx], a.requested[memIdx] = e.allocMem, reqMem
	}
	return improvementScore(balancedResourceScore(&a.requested, &a.allocatable), e.balanceWithout)
}
