package noderesources

import "podlab.dev/podlab/engine/scheduler/framework"

// Fit rejects most nodes of a full cluster for the same few reasons, so
// the batch filter hands out one shared, never-modified status per
// combination instead of allocating one per node (a preemptor's failed
// cycle rejects every node of the cluster). Statuses are immutable once
// returned: the scheduler copies one before changing its plugin.
const (
	lacksPods = 1 << iota
	lacksCPU
	lacksMemory
	lacksEphemeral
	unresolvable
)

// fitStatuses[mask] is the status fitsRequest's reasons give for a mask of
// the bits above (reasons in fitsRequest's order), Plugin set.
var fitStatuses = func() (out [32]*framework.Status) {
	for m := 1; m < len(out); m++ {
		var reasons []string
		for _, r := range []struct {
			bit    int
			reason string
		}{{lacksPods, ErrReasonTooManyPods}, {lacksCPU, ErrReasonInsufficientCPU}, {lacksMemory, ErrReasonInsufficientMemory}, {lacksEphemeral, ErrReasonInsufficientEphemeralDisk}} {
			if m&r.bit != 0 {
				reasons = append(reasons, r.reason)
			}
		}
		code := framework.Unschedulable
		if m&unresolvable != 0 {
			code = framework.UnschedulableAndUnresolvable
		}
		out[m] = &framework.Status{Code: code, Reasons: reasons, Plugin: Name}
	}
	return out
}()

// rejection is fitsRequest turned into a status without allocating, for a
// pod without extended resources; nil when the node fits.
func rejection(s *preFilterState, node *framework.NodeInfo) *framework.Status {
	e := freeOf(node)
	return rejectionOf(s, &e)
}

// rejectionOf is rejection from a node's free-room entry (the allocation
// index keeps them densely, so a failed cycle over thousands of nodes
// reads one array instead of every NodeInfo).
func rejectionOf(s *preFilterState, e *freeEntry) *framework.Status {
	m := 0
	if e.pods < 1 {
		m |= lacksPods
	}
	if s.MilliCPU > 0 && s.MilliCPU > e.cpu {
		m |= lacksCPU
		if s.MilliCPU > e.allocCPU {
			m |= unresolvable
		}
	}
	if s.Memory > 0 && s.Memory > e.mem {
		m |= lacksMemory
		if s.Memory > e.allocMem {
			m |= unresolvable
		}
	}
	if s.EphemeralStorage > 0 && s.EphemeralStorage > e.ephemeral {
		m |= lacksEphemeral
		if s.EphemeralStorage > e.allocEphemeral {
			m |= unresolvable
		}
	}
	return fitStatuses[m]
}
