package scheduler

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// benchScheduler runs the default profile with the oracle's tie-break and
// the given percentageOfNodesToScore (nil: all nodes).
func benchScheduler(b *testing.B, snap *framework.Snapshot, percentage *int32) *Scheduler {
	s, err := Build(Config{TieBreak: TieBreakByName, PercentageOfNodesToScore: percentage}, snap)
	if err != nil {
		b.Fatal(err)
	}
	return s
}
