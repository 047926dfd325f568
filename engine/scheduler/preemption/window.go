package preemption

// Window says which of the potential nodes (those whose filter failure
// preemption might fix) a preemption dry-runs.
type Window int

const (
	// AllCandidates dry-runs every potential node, so the best node of the
	// whole cluster is found. The oracle and the timeless `podlab schedule`
	// do this; it is the zero value.
	AllCandidates Window = iota
	// UpstreamWindow is a running kube-scheduler's DryRunPreemption: start
	// at an offset into the potential nodes and stop once
	// NumCandidates(len(potential)) candidates are found, at least one of
	// them violating no PodDisruptionBudget. With at most
	// MinCandidateNodesAbsolute potential nodes it is AllCandidates.
	UpstreamWindow
)

// DefaultPreemptionArgs defaults (pkg/scheduler/apis/config/v1/defaults.go
// SetDefaults_DefaultPreemptionArgs).
const (
	MinCandidateNodesPercentage = 10
	MinCandidateNodesAbsolute   = 100
)

// NumCandidates is DefaultPreemption.calculateNumCandidates with the
// default args: 10% of the potential nodes, at least 100, at most all.
func NumCandidates(numPotential int) int {
	return NumCandidatesWith(numPotential, MinCandidateNodesPercentage, MinCandidateNodesAbsolute)
}

// NumCandidatesWith is calculateNumCandidates with DefaultPreemptionArgs
// (default_preemption.go): percentage of the potential nodes, at least
// absolute, at most all.
func NumCandidatesWith(numPotential int, percentage, absolute int32) int {
	n := numPotential * int(percentage) / 100
	if n < int(absolute) {
		n = int(absolute)
	}
	if n > numPotential {
		n = numPotential
	}
	return n
}

// window returns where the dry runs start in the potential nodes and how
// many candidates end them (GetOffsetAndNumCandidates). Upstream draws the
// offset with rand.Int31n on every preemption; here it comes from
// e.Offset (the scheduler's seeded generator) and is drawn only when the
// window is smaller than the potential nodes — otherwise every node is
// dry-run whatever the offset, so skipping the draw changes nothing but
// keeps the generator's sequence of small clusters unchanged.
func (e *Evaluator) window(numPotential int) (offset, num int) {
	if e.Window != UpstreamWindow {
		return 0, numPotential
	}
	num = NumCandidates(numPotential)
	if e.MinCandidateNodesPercentage != 0 || e.MinCandidateNodesAbsolute != 0 {
		num = NumCandidatesWith(numPotential, e.MinCandidateNodesPercentage, e.MinCandidateNodesAbsolute)
	}
	if num < numPotential && e.Offset != nil {
		offset = e.Offset(numPotential)
		if offset < 0 || offset >= numPotential {
			offset = 0
		}
	}
	return offset, num
}

// candidateWindow collects candidates as DryRunPreemption's two
// candidateLists: each keeps the first num candidates added (later ones
// are dropped), and the dry runs stop once there is a non-violating
// candidate and num in all.
type candidateWindow struct {
	num                     int
	nonViolating, violating []Candidate
}

// add records a candidate and reports whether the dry runs are done.
func (w *candidateWindow) add(c Candidate) (done bool) {
	// each list holds at most num: allocate that once
	if c.PDBViolations == 0 {
		if len(w.nonViolating) < w.num {
			if w.nonViolating == nil {
				w.nonViolating = make([]Candidate, 0, w.num)
			}
			w.nonViolating = append(w.nonViolating, c)
		}
	} else if len(w.violating) < w.num {
		if w.violating == nil {
			w.violating = make([]Candidate, 0, w.num)
		}
		w.violating = append(w.violating, c)
	}
	nv, v := len(w.nonViolating), len(w.violating)
	return nv > 0 && nv+v >= w.num
}

// candidates returns what was kept, non-violating first (as upstream).
func (w *candidateWindow) candidates() []Candidate {
	return append(w.nonViolating, w.violating...)
}
