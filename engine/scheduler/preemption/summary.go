package preemption

import (
	"fmt"
	"strings"
)

// Summary says in one line why Pick chose cands[chosen]: the deciding
// criterion with the value of every candidate still tied before it, e.g.
// "node-a: lowest highest-victim priority (node-a 100, node-b 1000)".
func Summary(cands []Candidate, chosen int, by Criterion) string {
	if chosen < 0 || chosen >= len(cands) {
		return ""
	}
	node := cands[chosen].Node
	if by == ByOnlyCandidate {
		return node + ": the only node where preemption helps"
	}
	tied := make([]int, len(cands))
	for i := range tied {
		tied[i] = i
	}
	for _, cr := range criteria {
		if cr.by == by {
			parts := make([]string, len(tied))
			for k, i := range tied {
				parts[k] = cands[i].Node + " " + criterionValue(&cands[i], by)
			}
			return fmt.Sprintf("%s: %s (%s)", node, by, strings.Join(parts, ", "))
		}
		tied = keepBest(cands, tied, cr)
	}
	names := make([]string, len(tied))
	for k, i := range tied {
		names[k] = cands[i].Node
	}
	return fmt.Sprintf("%s: %s among %s (equal on every criterion)", node, by, strings.Join(names, ", "))
}

// keepBest keeps, in place and in order, the candidates of left with the
// criterion's best score.
func keepBest(cands []Candidate, left []int, cr criterion) []int {
	var best int64
	for k, i := range left {
		if s := cr.score(&cands[i]); k == 0 || s > best {
			best = s
		}
	}
	kept := left[:0]
	for _, i := range left {
		if cr.score(&cands[i]) == best {
			kept = append(kept, i)
		}
	}
	return kept
}

func criterionValue(c *Candidate, by Criterion) string {
	switch by {
	case ByPDBViolations:
		return fmt.Sprint(c.PDBViolations)
	case ByHighestPriority:
		return fmt.Sprint(c.HighestPriority)
	case ByPrioritySum:
		// Show the plain sum; the shift is the same per victim.
		return fmt.Sprint(c.PrioritySum - int64(c.NumVictims)*shift)
	case ByVictimCount:
		return fmt.Sprint(c.NumVictims)
	case ByStartTime:
		if !c.Started {
			return "not started"
		}
		return "started " + c.EarliestStart.String()
	}
	return ""
}
