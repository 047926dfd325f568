package api

import (
	"math"
	"strconv"
	"time"
)

// Time is a point on the engine's virtual clock: the time since the
// scenario started. It is an integer (nanoseconds, like time.Duration), so
// equal instants compare equal and runs are reproducible. Objects that
// existed before the scenario started (an imported cluster) have negative
// times.
type Time time.Duration

// MaxTime and MinTime are the ends of the virtual clock's range (about
// ±292 years): sums saturate there instead of wrapping round, so a grace
// period of 9223372036854775807 s ends "never", not 4 s before it began.
const (
	MaxTime = Time(math.MaxInt64)
	MinTime = Time(math.MinInt64)
)

// Add returns t+d, saturating at MaxTime and MinTime.
func (t Time) Add(d time.Duration) Time {
	s := t + Time(d)
	if d > 0 && s < t {
		return MaxTime
	}
	if d < 0 && s > t {
		return MinTime
	}
	return s
}

// SecondsDuration is n seconds as a duration, saturating at the largest
// and smallest durations (an API field in whole seconds is an int32 or
// int64, and int64 seconds overflow nanoseconds).
func SecondsDuration(n int64) time.Duration {
	const most = math.MaxInt64 / int64(time.Second)
	switch {
	case n > most:
		return time.Duration(math.MaxInt64)
	case n < -most:
		return time.Duration(math.MinInt64)
	}
	return time.Duration(n) * time.Second
}

// Sub returns t-u.
func (t Time) Sub(u Time) time.Duration { return time.Duration(t - u) }

// Seconds returns t in seconds.
func (t Time) Seconds() float64 { return time.Duration(t).Seconds() }

// String prints t as decimal seconds followed by "s" ("12.5s", "0s"), the
// format of `podlab run` event lines.
func (t Time) String() string {
	return strconv.FormatFloat(time.Duration(t).Seconds(), 'f', -1, 64) + "s"
}

// Clock formats t as h:mm:ss for a status bar.
func (t Time) Clock() string {
	d := time.Duration(t)
	neg := d < 0
	if neg {
		d = -d
	}
	s := int64(d / time.Second)
	out := strconv.FormatInt(s/3600, 10) + ":" + pad2(s/60%60) + ":" + pad2(s%60)
	if neg {
		return "-" + out
	}
	return out
}

func pad2(v int64) string {
	if v < 10 {
		return "0" + strconv.FormatInt(v, 10)
	}
	return strconv.FormatInt(v, 10)
}
