package lab

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine"
)

// checkRunTime refuses a virtual time a headless command was asked to run
// to (--for, --at) that is negative (`--for -5s` once ran nothing and
// said nothing) or past the end of the clock (engine.MaxClock).
func checkRunTime(flag string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%s %s: must be greater than or equal to 0", flag, d)
	}
	if err := engine.CheckClock(0, d); err != nil {
		return fmt.Errorf("%s %s: %w", flag, d, err)
	}
	return nil
}
