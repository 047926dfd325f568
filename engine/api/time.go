package api

import (
	"strconv"
	"time"
)

// Time is a point on the engine's virtual clock: the time since the
// scenario started. It is an integer (nanoseconds, like time.Duration), so
// equal instants compare equal and runs are reproducible. Objects that
// existed before the scenario started (an imported cluster) have negative
// times.
type Time time.Duration

// Add returns t+d.
func (t Time) Add(d time.Duration) Time { return t + Time(d) }

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
