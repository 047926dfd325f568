package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/podtopologyspread"
	"podlab.dev/podlab/lab/textsafe"
)

// ExplainOptions are the flags of `podlab explain`.
type ExplainOptions struct {
	Pod      string // name or namespace/name; "" ⇒ first pending pod in file order
	Output   string // "json" or "text"
	Seed     int64
	TieBreak string
	// The running lab's explain (explain_run.go): SeedSet says --seed was
	// given (else the scenario's seed), At and Do are describe's --at and
	// --do. Pod may also be a workload, KIND/NAME.
	SeedSet bool
	At      time.Duration
	Do      []string
}

// explainJSON is the contract other tools compare against (the oracle's
// explain output): nodes sorted by name; scores are normalised per plugin
// for feasible nodes only; total is the weighted sum.
type explainJSON struct {
	Pod      string            `json:"pod"`
	Feasible []string          `json:"feasible"`
	Weights  map[string]int64  `json:"weights"`
	Nodes    []explainNodeJSON `json:"nodes"`
	Chosen   string            `json:"chosen,omitempty"`
	Message  string            `json:"message,omitempty"`
	// Profile and Policy are set only for a profile other than the
	// default one (explain_profile.go).
	Profile string   `json:"profile,omitempty"`
	Policy  []string `json:"policy,omitempty"`
	// SchedulingGates are a gated pod's gates: it is never attempted,
	// so there are no node verdicts (Message is the gate's).
	SchedulingGates []string `json:"schedulingGates,omitempty"`
	// At and Workload are set only by the running lab's explain
	// (explain_run.go): the virtual time, and the workload --pod named.
	At       string `json:"at,omitempty"`
	Workload string `json:"workload,omitempty"`
}

type explainNodeJSON struct {
	Node     string           `json:"node"`
	Feasible bool             `json:"feasible"`
	Reasons  []string         `json:"reasons"`
	Scores   map[string]int64 `json:"scores"`
	Total    int64            `json:"total"`
	Plugin   string           `json:"rejectedBy,omitempty"`
}

// Explain evaluates one pending pod of a scenario against every node and
// writes every node's verdict.
func Explain(w io.Writer, f *File, opts ExplainOptions) error {
	c, err := newStaticCluster(f)
	if err != nil {
		return err
	}
	if explainLive(c, opts) {
		err := explainRunning(w, f, opts)
		var unknown unknownPodError
		if errors.As(err, &unknown) && opts.At == 0 && len(opts.Do) == 0 && len(c.pending) > 0 {
			_, err = c.findPending(opts.Pod)
		}
		return err
	}
	pod, err := c.findPending(opts.Pod)
	if err != nil {
		return err
	}
	cfg, err := c.schedulerConfig(opts.Seed, opts.TieBreak)
	if err != nil {
		return err
	}
	cfg.PDBs = func() []*api.PodDisruptionBudget { return c.pdbStatuses(c.bound) }
	s := scheduler.New(cfg, c.snapshot())
	ex := s.Explain(framework.NewPodInfo(pod))
	refused := bindingRefused(ex, pod) // explain_gates.go
	switch opts.Output {
	case "", "text":
		return writeExplainText(textsafe.NewWriter(w), ex, pod.PriorityValue(), refused)
	case "json":
		return writeExplainJSON(textsafe.NewJSONWriter(w), ex, refused)
	}
	return fmt.Errorf("-o must be json or text, not %q", opts.Output)
}

func writeExplainJSON(w io.Writer, ex *scheduler.Explanation, refused string) error {
	return encodeExplainJSON(w, explainOutput(ex, refused))
}

// writeExplainJSONAt is the running lab's JSON: the same object with the
// virtual time and the workload --pod named.
func writeExplainJSONAt(w io.Writer, ex *LiveExplanation, at, workload string) error {
	out := explainOutput(ex.Explanation, ex.BindingRefused)
	out.At, out.Workload = at, workload
	return encodeExplainJSON(w, out)
}

func explainOutput(ex *scheduler.Explanation, refused string) explainJSON {
	out := explainJSON{Pod: ex.Pod, Feasible: ex.Feasible, Weights: ex.Weights, Chosen: ex.Chosen, Message: ex.Message, SchedulingGates: ex.Gates}
	if refused != "" {
		out.Message = refused
	}
	if !isDefaultProfile(ex) {
		out.Profile, out.Policy = ex.Profile, ex.Policy
	}
	if out.Feasible == nil {
		out.Feasible = []string{}
	}
	out.Nodes = []explainNodeJSON{}
	for _, v := range ex.Nodes {
		n := explainNodeJSON{Node: v.Node, Feasible: v.Feasible, Reasons: v.Reasons, Scores: v.Scores, Total: v.Total, Plugin: v.Plugin}
		if n.Reasons == nil {
			n.Reasons = []string{}
		}
		if n.Scores == nil || !v.Feasible {
			n.Scores = map[string]int64{}
		}
		out.Nodes = append(out.Nodes, n)
	}
	return out
}

func encodeExplainJSON(w io.Writer, out explainJSON) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeExplainText prints a table a learner can read: one line per node
// with its verdict or scores, then the topology-spread arithmetic.
func writeExplainText(w io.Writer, ex *scheduler.Explanation, priority int32, refused string) error {
	nodes := "nodes"
	if ex.NumNodes == 1 {
		nodes = "node"
	}
	fmt.Fprintf(w, "pod %s · priority %d · %d %s\n", ex.Pod, priority, ex.NumNodes, nodes)
	writeExplainProfile(w, ex)
	if ex.Gate != nil {
		for _, l := range GateLines(ex) {
			fmt.Fprintln(w, l)
		}
		return nil
	}
	if ex.Chosen != "" {
		fmt.Fprintf(w, "chosen: %s (feasible: %s)\n", ex.Chosen, strings.Join(ex.Feasible, ", "))
		if refused != "" {
			fmt.Fprintf(w, "the API server refuses the binding: %s\n", refused)
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "%s\n\n", ex.Message)
	}
	plugins := ex.ScoreOrder
	short := map[string]string{
		"TaintToleration": "Taint", "NodeAffinity": "NodeAff", "NodeResourcesFit": "Fit", "VolumeBinding": "Vol",
		"PodTopologySpread": "Spread", "InterPodAffinity": "PodAff", "DynamicResources": "DRA",
		"NodeResourcesBalancedAllocation": "Balanced", "ImageLocality": "Image",
	}
	width := 4
	for _, v := range ex.Nodes {
		if len(v.Node) > width {
			width = len(v.Node)
		}
	}
	fmt.Fprintf(w, "  %-*s  %-5s", width, "NODE", "FITS")
	for _, p := range plugins {
		name := short[p]
		if name == "" {
			name = p
		}
		fmt.Fprintf(w, " %*s", max(len(name), 3), name)
	}
	fmt.Fprintf(w, "  %6s\n", "TOTAL")
	for _, v := range ex.Nodes {
		mark := " "
		if v.Node == ex.Chosen {
			mark = "▸"
		}
		if !v.Feasible {
			reason := strings.Join(v.Reasons, "; ")
			if v.Plugin != "" {
				reason = v.Plugin + ": " + reason
			}
			fmt.Fprintf(w, "%s %-*s  %-5s %s\n", mark, width, v.Node, "no", reason)
			continue
		}
		fmt.Fprintf(w, "%s %-*s  %-5s", mark, width, v.Node, "yes")
		for _, p := range plugins {
			name := short[p]
			if name == "" {
				name = p
			}
			fmt.Fprintf(w, " %*d", max(len(name), 3), v.Scores[p])
		}
		fmt.Fprintf(w, "  %6d\n", v.Total)
	}
	fmt.Fprintf(w, "\nweights:")
	for _, p := range plugins {
		fmt.Fprintf(w, " %s×%d", p, ex.Weights[p])
	}
	fmt.Fprintln(w)
	writeSpreadArithmetic(w, ex)
	return nil
}

// writeSpreadArithmetic prints, per node and constraint, the skew check
// the PodTopologySpread filter made ("zoneA: 2 + 1 − min 1 = 2 > maxSkew 1 ✗").
func writeSpreadArithmetic(w io.Writer, ex *scheduler.Explanation) {
	header := false
	for _, v := range ex.Nodes {
		d, _ := v.Details[podtopologyspread.Name].(*podtopologyspread.Explanation)
		if d == nil || (len(d.Hard) == 0 && len(d.Soft) == 0) {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\ntopology spread:\n")
			header = true
			printDomainCounts(w, d)
		}
		for _, c := range d.Hard {
			fmt.Fprintf(w, "  %s  %s\n", v.Node, SpreadArithmetic(c))
		}
		for _, c := range d.Soft {
			fmt.Fprintf(w, "  %s  %s\n", v.Node, SpreadArithmetic(c))
		}
	}
}

func printDomainCounts(w io.Writer, d *podtopologyspread.Explanation) {
	all := append(append([]podtopologyspread.ConstraintExplanation(nil), d.Hard...), d.Soft...)
	for _, c := range all {
		var parts []string
		for _, dc := range c.Domains {
			s := fmt.Sprintf("%s=%d", dc.Domain, dc.Count)
			if !dc.Eligible {
				s += "(not eligible)"
			}
			parts = append(parts, s)
		}
		sort.Strings(parts)
		fmt.Fprintf(w, "  %s maxSkew %d %s, selector %s: %s\n", c.TopologyKey, c.MaxSkew, c.WhenUnsatisfiable, c.Selector, strings.Join(parts, " "))
	}
}

// SpreadArithmetic renders one constraint's check on one node the way the
// docs explain it.
func SpreadArithmetic(c podtopologyspread.ConstraintExplanation) string {
	if c.MissingLabel {
		return fmt.Sprintf("%s: node has no %q label ✗ (skipped)", c.TopologyKey, c.TopologyKey)
	}
	minNote := ""
	if c.MinDomainsForcedZero {
		minNote = fmt.Sprintf(" (minDomains %d > %d domains ⇒ min 0)", c.MinDomains, c.EligibleDomains)
	}
	if c.WhenUnsatisfiable == "ScheduleAnyway" {
		return fmt.Sprintf("%s=%s: %d matching pods × weight %.3f + (maxSkew %d − 1) = %.2f (soft)",
			c.TopologyKey, c.Domain, c.MatchNum, c.NormalizingWeight, c.MaxSkew, c.Score)
	}
	verdict := "≤"
	mark := "✓"
	if !c.Pass {
		verdict, mark = ">", "✗"
	}
	return fmt.Sprintf("%s=%s: %d + %d − min %d = %d %s maxSkew %d %s%s",
		c.TopologyKey, c.Domain, c.MatchNum, c.SelfMatch, c.GlobalMin, c.Skew, verdict, c.MaxSkew, mark, minNote)
}
