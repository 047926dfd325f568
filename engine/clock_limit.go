package engine

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine/api"
)

// MaxClock is how far the virtual clock may run: 100 years. Virtual time
// is nanoseconds in an int64 and would wrap round near 292 years (repeated
// `advance 8760h` once ended at "run until -9206696073s"); stopping well
// before leaves room for the timers the cluster sets beyond now (a grace
// period, a backoff), which saturate at api.MaxTime instead.
const MaxClock = api.Time(100 * 365 * 24 * time.Hour)

// CheckClock reports whether the clock may run from now for d: nil, or an
// error that says where it stops.
func CheckClock(now api.Time, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("duration %s: must be greater than or equal to 0", d)
	}
	if t := now.Add(d); t > MaxClock {
		return clockLimitError(t)
	}
	return nil
}

func clockLimitError(t api.Time) error {
	return fmt.Errorf("the virtual clock stops at 100 years (%s); %s is beyond it", time.Duration(MaxClock), time.Duration(t))
}
