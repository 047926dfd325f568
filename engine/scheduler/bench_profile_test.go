package scheduler

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// benchScheduler runs the default profile with the oracle's tie-break.
func benchScheduler(b *testing.B, snap *framework.Snapshot) *Scheduler {
	s, err := Build(Config{TieBreak: TieBreakByName}, snap)
	if err != nil {
		b.Fatal(err)
	}
	return s
}
