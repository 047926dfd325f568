package manifest

import (
	"runtime/debug"
)

// importMemoryLimit is the soft limit on the Go heap while a large input
// is decoded. Without it the collector lets the heap grow to twice what
// is live — and what is live includes the input itself (kept for Save)
// and the parse trees of two batches — so a 295 MB, 60,000-pod dump
// peaked at 1.43 GB; with it, 1.24 GB for the same CPU time (a lower
// limit, 1,000 MiB, cost 16% more CPU there). Below the limit it changes
// nothing: the 150–350 MB dumps stay under it. Measured in
// docs/benchmarks.md ("Importing a real cluster at scale").
const importMemoryLimit = 1200 << 20

// limitMemory lowers the runtime's soft memory limit to importMemoryLimit
// for a load of size bytes (inputs at least minSize long) and returns
// what restores the previous one. A lower limit set by the user
// (GOMEMLIMIT) is kept.
func limitMemory(size, minSize int) (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	if size < minSize || prev <= importMemoryLimit {
		return func() {}
	}
	debug.SetMemoryLimit(importMemoryLimit)
	return func() {
		// a limit changed meanwhile (by another load) is left alone
		if debug.SetMemoryLimit(-1) == importMemoryLimit {
			debug.SetMemoryLimit(prev)
		}
	}
}
