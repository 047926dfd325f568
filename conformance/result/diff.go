package result

import (
	"fmt"
	"sort"
	"strings"
)

// DiffExplain lists every difference between the real framework's
// outcome (want) and podlab's (got): node set, per-node feasibility,
// failure-reason set, each plugin's normalised score and the total (the
// last two only on nodes feasible on both sides), and the weights. A
// plugin missing from one side's scores counts as 0.
func DiffExplain(want, got *Explain) []string {
	var d []string
	if want.Pod != got.Pod {
		d = append(d, fmt.Sprintf("pod: want %s, got %s", want.Pod, got.Pod))
	}
	for _, k := range unionKeys(want.Weights, got.Weights) {
		if want.Weights[k] != got.Weights[k] {
			d = append(d, fmt.Sprintf("weight %s: want %d, got %d", k, want.Weights[k], got.Weights[k]))
		}
	}
	gotBy := map[string]NodeVerdict{}
	for _, n := range got.Nodes {
		gotBy[n.Node] = n
	}
	for _, w := range want.Nodes {
		g, ok := gotBy[w.Node]
		if !ok {
			d = append(d, fmt.Sprintf("node %s: missing on podlab's side", w.Node))
			continue
		}
		delete(gotBy, w.Node)
		if w.Feasible != g.Feasible {
			d = append(d, fmt.Sprintf("node %s: feasible want %v (%s), got %v (%s)", w.Node, w.Feasible, reasons(w), g.Feasible, reasons(g)))
			continue
		}
		if !w.Feasible {
			if strings.Join(w.Reasons, "\n") != strings.Join(g.Reasons, "\n") {
				d = append(d, fmt.Sprintf("node %s: reasons want %s, got %s", w.Node, reasons(w), reasons(g)))
			}
			continue
		}
		for _, k := range unionKeys(w.Scores, g.Scores) {
			if w.Scores[k] != g.Scores[k] {
				d = append(d, fmt.Sprintf("node %s: %s score want %d, got %d", w.Node, k, w.Scores[k], g.Scores[k]))
			}
		}
		if w.Total != g.Total {
			d = append(d, fmt.Sprintf("node %s: total want %d, got %d", w.Node, w.Total, g.Total))
		}
	}
	extra := make([]string, 0, len(gotBy))
	for n := range gotBy {
		extra = append(extra, n)
	}
	sort.Strings(extra)
	for _, n := range extra {
		d = append(d, fmt.Sprintf("node %s: only on podlab's side", n))
	}
	return d
}

// DiffSchedule lists differences between two placement sequences: the
// pod order, each pod's node, nominated node, victims, and the FitError
// message of unschedulable pods.
func DiffSchedule(want, got *Schedule) []string {
	var d []string
	n := max(len(want.Placements), len(got.Placements))
	for i := 0; i < n; i++ {
		if i >= len(want.Placements) || i >= len(got.Placements) {
			d = append(d, fmt.Sprintf("placement %d: want %d placements, got %d", i, len(want.Placements), len(got.Placements)))
			break
		}
		w, g := want.Placements[i], got.Placements[i]
		if w.Pod != g.Pod {
			d = append(d, fmt.Sprintf("placement %d: queue order differs: want pod %s, got %s", i, w.Pod, g.Pod))
			break
		}
		if w.NominatedNode != g.NominatedNode || strings.Join(w.Victims, ",") != strings.Join(g.Victims, ",") {
			d = append(d, fmt.Sprintf("pod %s: preemption want nominated=%q victims=%v, got nominated=%q victims=%v",
				w.Pod, w.NominatedNode, w.Victims, g.NominatedNode, g.Victims))
		}
		if w.Node != g.Node {
			d = append(d, fmt.Sprintf("pod %s: node want %q, got %q", w.Pod, w.Node, g.Node))
		}
		if w.Node == "" && g.Node == "" && w.Message != g.Message {
			d = append(d, fmt.Sprintf("pod %s: message\n    want %q\n    got  %q", w.Pod, w.Message, g.Message))
		}
		if len(d) > 0 {
			// Later placements depend on this one; stop at the first divergence.
			break
		}
	}
	return d
}

func reasons(v NodeVerdict) string {
	if v.Feasible {
		return "feasible"
	}
	return "[" + strings.Join(v.Reasons, "; ") + "]"
}

func unionKeys(a, b map[string]int64) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]int64{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}
