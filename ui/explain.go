package ui

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/lab"
)

var shortPlugin = map[string]string{
	"TaintToleration": "Taint", "NodeAffinity": "NodeAff", "NodeResourcesFit": "Fit", "VolumeBinding": "Vol",
	"PodTopologySpread": "Spread", "InterPodAffinity": "PodAff", "DynamicResources": "DRA",
	"NodeResourcesBalancedAllocation": "Balanced", "ImageLocality": "Image",
}

// render answers "why did it go there / why is it pending" for the
// selected pod: every node's verdict, scores and spread arithmetic.
func (v *explainView) render(w, h int, podKey string, from int) []string {
	m := v.m
	d := &m.data
	if podKey == "" {
		return box(m.st, "explain", []string{m.st.Muted.Render("select a pod in the cluster view (tab to pods or pending, then e)")}, w, h, true)
	}
	if d.explainErr != nil {
		return box(m.st, "explain "+safe(podKey), []string{m.st.Bad.Render(safe(d.explainErr.Error()))}, w, h, true)
	}
	ex := d.explain
	if ex == nil {
		return box(m.st, "explain", nil, w, h, true)
	}
	parts := v.parts(ex, w)
	lines, rows, tail, cols, nameW := parts.lines, parts.rows, parts.tail, parts.cols, parts.nameW
	innerH := h - 2
	total := len(lines) + rows + len(tail)
	start := min(from, max(total-innerH, 0))
	// rows [from, to) of the node table are on screen
	from, to := max(start-len(lines), 0), start+innerH-len(lines)
	out := append([]string(nil), lines[min(start, len(lines)):]...)
	row := 0
	for _, v := range ex.Nodes {
		if row >= to {
			break
		}
		n := 1 + lab.HardSpreadCount(v)
		if row+n <= from {
			row += n
			continue
		}
		var block []string
		mark := " "
		name := fmt.Sprintf("%-*s", nameW, safe(v.Node))
		if v.Node == ex.Chosen {
			mark = m.st.OK.Render("▸")
			name = m.st.Selected.Render(name)
		}
		if !v.Feasible {
			reason := safe(strings.Join(v.Reasons, "; "))
			if v.Plugin != "" {
				reason = v.Plugin + ": " + reason
			}
			block = append(block, mark+" "+name+"  "+m.st.Bad.Render("✗ "+reason))
		} else {
			r := mark + " " + name + "  "
			for _, c := range cols {
				r += fmt.Sprintf("%*d ", c.width, v.Scores[c.plugin])
			}
			r += fmt.Sprintf(" %5d", v.Total)
			block = append(block, r)
		}
		for _, c := range lab.HardSpread(v) {
			text := "    " + safe(c.Text)
			if c.Pass {
				block = append(block, m.st.Muted.Render(text))
			} else {
				block = append(block, m.st.Warn.Render(text))
			}
		}
		for k, l := range block {
			if row+k >= from && row+k < to {
				out = append(out, l)
			}
		}
		row += n
	}
	if len(out) < innerH {
		out = append(out, tail[max(start+len(out)-len(lines)-rows, 0):]...)
	}
	return box(m.st, "explain · "+safe(ex.Pod), out, w, h, true)
}

// explainParts is the explain view's content for a width: the lines above
// the node table, the table's row count (rows render only on screen) and
// the lines below it.
type explainParts struct {
	lines []string
	rows  int
	tail  []string
	cols  []scoreColumn
	nameW int
}

// parts computes explainParts for a width (again only when the
// explanation, the width or the theme changed, or on Refresh).
func (v *explainView) parts(ex *lab.LiveExplanation, w int) explainParts {
	if d := &v.drawn; !d.ok || d.ex != ex || d.w != w || d.st != v.m.st {
		d.ok, d.ex, d.w, d.st, d.p = true, ex, w, v.m.st, v.drawParts(ex, w)
	}
	return v.drawn.p
}

func (v *explainView) drawParts(ex *lab.LiveExplanation, w int) explainParts {
	m := v.m
	var lines []string
	status := "pending"
	if ex.Gate != nil {
		status = "pending · SchedulingGated"
	}
	if ex.BoundTo != "" {
		status = "running on " + ex.BoundTo + " — verdicts below are for placing it now, without itself"
	}
	for k, l := range wrapText(safe(fmt.Sprintf("pod/%s · %s · priority %d", ex.Pod, status, ex.Priority)), w-4) {
		if k == 0 {
			lines = append(lines, m.st.Bold.Render(l))
		} else {
			lines = append(lines, m.st.Muted.Render(l))
		}
	}
	for _, l := range lab.ExplainProfileLines(ex.Explanation) { // the scheduler profile, when not the default
		lines = append(lines, m.st.Muted.Render(l))
	}
	if ex.Gate != nil { // gated: no scheduling cycle, no node table
		for _, g := range lab.GateLines(ex.Explanation) {
			for _, l := range wrapText(safe(g), w-4) {
				lines = append(lines, m.st.Muted.Render(l))
			}
		}
		return explainParts{lines: lines, tail: v.describeTail([]string{""}, w)}
	}
	if ex.Chosen != "" {
		lines = append(lines, m.st.OK.Render(fmt.Sprintf("the scheduler picks %s", safe(ex.Chosen)))+m.st.Muted.Render(fmt.Sprintf(" (%d of %d nodes feasible)", len(ex.Feasible), ex.NumNodes)))
		if ex.BindingRefused != "" { // a gated pod, SchedulingGates disabled
			for _, l := range wrapText(safe("the API server refuses the binding: "+ex.BindingRefused), w-4) {
				lines = append(lines, m.st.Bad.Render(l))
			}
		}
	} else {
		for _, l := range wrapText(safe(ex.Message), w-4) {
			lines = append(lines, m.st.Bad.Render(l))
		}
	}
	lines = append(lines, "")
	nameW := 6
	for _, v := range ex.Nodes {
		nameW = max(nameW, cellWidth(safe(v.Node)))
	}
	cols, hidden := explainColumns(ex, w-2-nameW-4-7)
	head := fmt.Sprintf("  %-*s  ", nameW, "NODE")
	for _, c := range cols {
		head += fmt.Sprintf("%*s ", c.width, c.label)
	}
	head += " TOTAL"
	if len(hidden) > 0 {
		// said before the table, so it is read before the numbers
		for _, l := range wrapText("same on every node, not shown: "+strings.Join(hidden, " "), w-4) {
			lines = append(lines, m.st.Muted.Render(l))
		}
	}
	lines = append(lines, m.st.Heading.Render(head))
	// the node rows are counted, not rendered
	rows := 0
	for _, v := range ex.Nodes {
		rows += 1 + lab.HardSpreadCount(v)
	}
	var weights []string
	for _, c := range cols {
		weights = append(weights, fmt.Sprintf("%s×%d", c.label, ex.Weights[c.plugin]))
	}
	tail := []string{""}
	for _, l := range wrapText("weights: "+strings.Join(weights, " ")+" · total = Σ weight × score (0–100)", w-4) {
		tail = append(tail, m.st.Muted.Render(l))
	}
	return explainParts{lines: lines, rows: rows, tail: v.describeTail(tail, w), cols: cols, nameW: nameW}
}

// describeTail appends the pod's describe lines, fitted to w, to tail.
func (v *explainView) describeTail(tail []string, w int) []string {
	for _, l := range v.describe {
		tail = append(tail, fit(l, w-2))
	}
	return tail
}

// scoreColumn is one plugin column of the explain table.
type scoreColumn struct {
	plugin, label string
	width         int
}

// explainColumns picks the score columns that fit in w cells: all of
// them with short names when they fit; else the plugins that score every
// feasible node the same (they cannot change the choice) are left out and
// listed, and if that is still too wide the labels shrink to three letters.
func explainColumns(ex *lab.LiveExplanation, w int) (cols []scoreColumn, hidden []string) {
	build := func(skip func(string) bool, short bool) ([]scoreColumn, int) {
		var out []scoreColumn
		width := 0
		for _, p := range ex.ScoreOrder {
			if skip(p) {
				continue
			}
			label := shortPlugin[p]
			if label == "" {
				label = p
			}
			if short && len(label) > 3 {
				label = label[:3]
			}
			c := scoreColumn{plugin: p, label: label, width: max(len(label), 3)}
			out = append(out, c)
			width += c.width + 1
		}
		return out, width
	}
	if cols, width := build(func(string) bool { return false }, false); width <= w {
		return cols, nil
	}
	constant := map[string]bool{}
	for _, p := range ex.ScoreOrder {
		first, same, seen := int64(0), true, false
		for _, v := range ex.Nodes {
			if !v.Feasible {
				continue
			}
			if !seen {
				first, seen = v.Scores[p], true
			} else if v.Scores[p] != first {
				same = false
				break
			}
		}
		if same {
			constant[p] = true
			label := shortPlugin[p]
			if label == "" {
				label = p
			}
			hidden = append(hidden, fmt.Sprintf("%s %d", label, first))
		}
	}
	skip := func(p string) bool { return constant[p] }
	cols, width := build(skip, false)
	if width > w {
		cols, _ = build(skip, true)
	}
	return cols, hidden
}
