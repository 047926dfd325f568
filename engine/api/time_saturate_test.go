package api

import (
	"math"
	"testing"
	"time"
)

// Issue 17 point 6: virtual time saturates instead of wrapping round.
func TestTimeAddSaturates(t *testing.T) {
	for _, tc := range []struct {
		t    Time
		d    time.Duration
		want Time
	}{
		{5, 3, 8},
		{Time(5 * time.Second), time.Duration(math.MaxInt64), MaxTime},
		{MaxTime, 1, MaxTime},
		{-5, time.Duration(math.MinInt64), MinTime},
		{MinTime, -1, MinTime},
		{MaxTime, -1, MaxTime - 1},
	} {
		if got := tc.t.Add(tc.d); got != tc.want {
			t.Errorf("%d.Add(%d) = %d, want %d", tc.t, tc.d, got, tc.want)
		}
	}
}

func TestSecondsDurationSaturates(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want time.Duration
	}{
		{0, 0},
		{30, 30 * time.Second},
		{-1, -time.Second},
		{math.MaxInt64 / int64(time.Second), time.Duration(math.MaxInt64/int64(time.Second)) * time.Second},
		{math.MaxInt64/int64(time.Second) + 1, math.MaxInt64},
		{math.MaxInt64, math.MaxInt64},
		{math.MinInt64, math.MinInt64},
	} {
		if got := SecondsDuration(tc.n); got != tc.want {
			t.Errorf("SecondsDuration(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}
