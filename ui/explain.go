package ui

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/engine/scheduler/plugins/podtopologyspread"
	"podlab.dev/podlab/lab"
)

var shortPlugin = map[string]string{
	"TaintToleration": "Taint", "NodeAffinity": "NodeAff", "NodeResourcesFit": "Fit", "VolumeBinding": "Vol",
	"PodTopologySpread": "Spread", "InterPodAffinity": "PodAff", "DynamicResources": "DRA",
	"NodeResourcesBalancedAllocation": "Balanced", "ImageLocality": "Image",
}

// explainView answers "why did it go there / why is it pending" for the
// selected pod: every node's verdict, scores and spread arithmetic.
func (m *Model) explainView(w, h int) []string {
	d := &m.data
	if m.explainKey == "" {
		return box(m.st, "explain", []string{m.st.Muted.Render("select a pod in the cluster view (tab to pods or pending, then e)")}, w, h, true)
	}
	if d.explainErr != nil {
		return box(m.st, "explain "+m.explainKey, []string{m.st.Bad.Render(d.explainErr.Error())}, w, h, true)
	}
	ex := d.explain
	if ex == nil {
		return box(m.st, "explain", nil, w, h, true)
	}
	var lines []string
	status := "pending"
	if ex.BoundTo != "" {
		status = "running on " + ex.BoundTo + " — verdicts below are for placing it now, without itself"
	}
	lines = append(lines, m.st.Bold.Render(fmt.Sprintf("pod/%s", ex.Pod))+m.st.Muted.Render(fmt.Sprintf(" · %s · priority %d", status, ex.Priority)))
	if ex.Chosen != "" {
		lines = append(lines, m.st.OK.Render(fmt.Sprintf("the scheduler picks %s", ex.Chosen))+m.st.Muted.Render(fmt.Sprintf(" (%d of %d nodes feasible)", len(ex.Feasible), ex.NumNodes)))
	} else {
		for _, l := range wrapText(ex.Message, w-4) {
			lines = append(lines, m.st.Bad.Render(l))
		}
	}
	lines = append(lines, "")
	nameW := 6
	for _, v := range ex.Nodes {
		nameW = max(nameW, len(v.Node))
	}
	head := fmt.Sprintf("  %-*s  ", nameW, "NODE")
	for _, p := range ex.ScoreOrder {
		head += fmt.Sprintf("%*s ", max(len(shortPlugin[p]), 3), shortPlugin[p])
	}
	head += " TOTAL"
	lines = append(lines, m.st.Heading.Render(head))
	for _, v := range ex.Nodes {
		mark := " "
		name := fmt.Sprintf("%-*s", nameW, v.Node)
		if v.Node == ex.Chosen {
			mark = m.st.OK.Render("▸")
			name = m.st.Selected.Render(name)
		}
		if !v.Feasible {
			reason := strings.Join(v.Reasons, "; ")
			if v.Plugin != "" {
				reason = v.Plugin + ": " + reason
			}
			lines = append(lines, mark+" "+name+"  "+m.st.Bad.Render("✗ "+reason))
		} else {
			row := mark + " " + name + "  "
			for _, p := range ex.ScoreOrder {
				row += fmt.Sprintf("%*d ", max(len(shortPlugin[p]), 3), v.Scores[p])
			}
			row += fmt.Sprintf(" %5d", v.Total)
			lines = append(lines, row)
		}
		if sp, ok := v.Details[podtopologyspread.Name].(*podtopologyspread.Explanation); ok && sp != nil {
			for _, c := range sp.Hard {
				text := "    " + lab.SpreadArithmetic(c)
				if c.Pass {
					lines = append(lines, m.st.Muted.Render(text))
				} else {
					lines = append(lines, m.st.Warn.Render(text))
				}
			}
		}
	}
	var weights []string
	for _, p := range ex.ScoreOrder {
		weights = append(weights, fmt.Sprintf("%s×%d", shortPlugin[p], ex.Weights[p]))
	}
	lines = append(lines, "", m.st.Muted.Render("weights: "+strings.Join(weights, " ")+" · total = Σ weight × score (0–100)"))
	start := min(m.scroll[viewExplain], max(len(lines)-(h-2), 0))
	m.scroll[viewExplain] = start
	return box(m.st, "explain · "+ex.Pod, lines[start:], w, h, true)
}
