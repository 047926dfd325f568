package autoscaler

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time (GC workers included):
// on a shared machine it measures a benchmark where wall time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
