// Package result holds the side-neutral outcome of one scheduling run
// (explain: per-node verdicts and scores; schedule: the placement
// sequence), so the real kube-scheduler framework and podlab's engine can
// be compared field by field.
package result

// NodeVerdict is one node's outcome of a scheduling cycle.
type NodeVerdict struct {
	Node     string
	Feasible bool
	// Reasons is the sorted, de-duplicated set of failure reasons (the
	// strings FitError's histogram counts); empty when feasible.
	Reasons []string
	// Scores holds each score plugin's normalised score (0..100) before
	// weighting; only for feasible nodes.
	Scores map[string]int64
	// Total is Σ weight × normalised score.
	Total int64
}

// Explain is one scheduling cycle of one pod against every node.
type Explain struct {
	Pod   string
	Nodes []NodeVerdict // sorted by node name
	// Weights maps each score plugin to its weight.
	Weights map[string]int64
	// Scored is false when the cycle had fewer than two feasible nodes
	// (upstream skips scoring then); scores are then not compared.
	Scored bool
}

// Placement is the outcome of scheduling one pending pod.
type Placement struct {
	Pod  string // namespace/name
	Node string // "" when unschedulable
	// NominatedNode and Victims (sorted namespace/name) are set when the
	// pod preempted others (its first attempt failed).
	NominatedNode string
	Victims       []string
	// Message is the FitError message of the (last) failed attempt.
	Message string
}

// Schedule is the sequence of placements in queue order.
type Schedule struct {
	Placements []Placement
}
