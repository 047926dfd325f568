package preemption

import (
	"math"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Candidate is a node where preemption makes room for the pod, with the
// numbers pickOneNodeForPreemption compares, so a UI can show why a node
// was chosen.
type Candidate struct {
	Node string
	// Victims, most important first (as upstream keeps them).
	Victims []*framework.PodInfo
	// PDBViolations counts victims whose eviction violates a budget.
	PDBViolations int
	// HighestPriority is the priority of the most important victim.
	HighestPriority int32
	// PrioritySum is Σ (priority + MaxInt32 + 1) over the victims: upstream
	// shifts every priority to be non-negative so that more victims never
	// sum to less.
	PrioritySum int64
	// NumVictims is len(Victims).
	NumVictims int
	// EarliestStart is the earliest start time among the victims with the
	// highest priority; Started is false when none of them has started
	// (upstream then uses the current time, later than any start).
	EarliestStart api.Time
	Started       bool
}

// NewCandidate computes a candidate's numbers from its victims (any order)
// and its budget violations.
func NewCandidate(node string, victims []*framework.PodInfo, pdbViolations int) Candidate {
	c := Candidate{Node: node, Victims: victims, PDBViolations: pdbViolations, NumVictims: len(victims)}
	if len(victims) == 0 {
		return c
	}
	c.HighestPriority = math.MinInt32
	earliest := notStarted
	for _, v := range victims {
		p := v.Priority
		c.PrioritySum += int64(p) + shift
		switch s := startTime(v.Pod); {
		case p > c.HighestPriority:
			c.HighestPriority, earliest = p, s
		case p == c.HighestPriority && s < earliest:
			earliest = s
		}
	}
	c.EarliestStart = earliest
	c.Started = earliest != notStarted
	return c
}

// shift is what upstream adds to every victim priority in the sum.
const shift = int64(math.MaxInt32) + 1

// Criterion names the rule of pickOneNodeForPreemption that chose the node.
type Criterion string

// The criteria, in the order they are applied.
const (
	ByOnlyCandidate   Criterion = "only candidate"
	ByPDBViolations   Criterion = "fewest PDB violations"
	ByHighestPriority Criterion = "lowest highest-victim priority"
	ByPrioritySum     Criterion = "smallest sum of victim priorities"
	ByVictimCount     Criterion = "fewest victims"
	ByStartTime       Criterion = "latest start of the highest-priority victims"
	ByTieBreak        Criterion = "tie-break"
)

type criterion struct {
	by    Criterion
	score func(*Candidate) int64 // higher is better
}

var criteria = []criterion{
	{ByPDBViolations, func(c *Candidate) int64 { return -int64(c.PDBViolations) }},
	{ByHighestPriority, func(c *Candidate) int64 { return -int64(c.HighestPriority) }},
	{ByPrioritySum, func(c *Candidate) int64 { return -c.PrioritySum }},
	{ByVictimCount, func(c *Candidate) int64 { return -int64(c.NumVictims) }},
	{ByStartTime, func(c *Candidate) int64 { return int64(c.EarliestStart) }},
}

// Pick chooses among candidates as pickOneNodeForPreemption: each
// criterion keeps the candidates with its best score, and the first that
// leaves one decides. Remaining ties go to tieBreak (given the tied names
// in the candidates' order), or to the smallest node name when tieBreak is
// nil or returns a name that is not tied. It returns the index of the
// chosen candidate (-1 for none) and the deciding criterion.
func Pick(cands []Candidate, tieBreak func(nodes []string) string) (int, Criterion) {
	switch len(cands) {
	case 0:
		return -1, ""
	case 1:
		return 0, ByOnlyCandidate
	}
	left := make([]int, len(cands))
	for i := range left {
		left[i] = i
	}
	for _, cr := range criteria {
		if left = keepBest(cands, left, cr); len(left) == 1 {
			return left[0], cr.by
		}
	}
	names := make([]string, len(left))
	for k, i := range left {
		names[k] = cands[i].Node
	}
	if tieBreak != nil {
		if chosen := tieBreak(names); chosen != "" {
			for _, i := range left {
				if cands[i].Node == chosen {
					return i, ByTieBreak
				}
			}
		}
	}
	min := left[0]
	for _, i := range left[1:] {
		if cands[i].Node < cands[min].Node {
			min = i
		}
	}
	return min, ByTieBreak
}
