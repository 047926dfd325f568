package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"podlab.dev/podlab/lab"
)

// zooms are the timeline's seconds per cell.
var zooms = []float64{0.25, 0.5, 1, 2, 5, 10, 30, 60}

func (m *Model) phaseStyle(phase string) (lipgloss.Style, string) {
	switch phase {
	case lab.PhasePending:
		return m.st.Muted, "·"
	case lab.PhaseContainerCreating:
		return m.st.Muted, "░"
	case lab.PhaseRunning:
		return m.st.OK, "━"
	case lab.PhasePreStop:
		return m.st.Accent, "▓"
	case lab.PhaseSIGTERM:
		return m.st.Warn, "░"
	case lab.PhaseSIGKILL:
		return m.st.Bad, "✕"
	case lab.PhaseGone:
		return m.st.Muted, "│"
	}
	return m.st.Base, "?"
}

// timelineView draws Gantt bars of every pod that was killed.
func (m *Model) timelineView(w, h int) []string {
	tls := m.data.timelines
	if len(tls) == 0 {
		return box(m.st, "timeline", []string{
			m.st.Muted.Render("No pod has been terminated yet. Delete one (x in the cluster view, or"),
			m.st.Muted.Render(": delete pod NAME --grace-period=10), drain a node, or put one under memory pressure."),
		}, w, h, true)
	}
	// the axis starts a little before the earliest termination
	var start, end lab.Time
	first := true
	for _, t := range tls {
		for _, sp := range t.Timeline.Pod {
			if sp.Phase == lab.PhaseRunning || sp.Phase == lab.PhasePending || sp.Phase == lab.PhaseContainerCreating {
				continue
			}
			if first || sp.Start < start {
				start = sp.Start
			}
			if first || sp.End > end {
				end = sp.End
			}
			first = false
		}
	}
	start = start.Add(-3e9)
	if start < 0 {
		start = 0
	}
	per := zooms[m.tlZoom]
	labelW := min(30, w/3)
	barW := max(w-labelW-4-13, 10) // room for "gone 1m30.5s" after the bar
	cell := func(t lab.Time) int { return int((t - start).Seconds() / per) }
	var lines []string
	// axis
	axis := make([]rune, barW)
	for i := range axis {
		axis[i] = ' '
	}
	var ticks strings.Builder
	step := max(10, barW/6)
	for c := 0; c < barW; c += step {
		label := lab.Time(float64(start) + float64(c)*per*1e9).String()
		if c+len(label) > barW {
			break // a cut label reads as a wrong time
		}
		ticks.WriteString(fmt.Sprintf("%-*s", step, label))
	}
	lines = append(lines, m.st.Muted.Render(fmt.Sprintf("%-*s %s", labelW, fmt.Sprintf("virtual time · %gs/cell", per), fit(strings.TrimRight(ticks.String(), " "), barW))))
	for _, t := range tls {
		lines = append(lines, fit(m.st.Bold.Render(safe(t.Pod)), labelW)+" "+m.gantt(t.Timeline.Pod, cell, barW)+" "+m.goneLabel(t.Timeline.Pod))
		for _, c := range t.Timeline.Containers {
			name := "  " + safe(c.Name)
			if c.Sidecar {
				name += " (sidecar)"
			}
			lines = append(lines, fit(m.st.Muted.Render(name), labelW)+" "+m.gantt(c.Spans, cell, barW))
		}
		cause := fmt.Sprintf("  ↑ %s %s: %s", t.Cause.Time, safe(t.Cause.Reason), safe(t.Cause.Message))
		lines = append(lines, m.st.Muted.Render(fit(cause, w-4)))
	}
	lines = append(lines, "", m.legendLine())
	// keep timelineLen in step with the lines added here
	start0 := min(m.scroll[viewTimeline], max(len(lines)-(h-2), 0))
	return box(m.st, "timeline · termination of pods (+/- zoom)", lines[start0:], w, h, true)
}

func (m *Model) gantt(spans []lab.Span, cell func(lab.Time) int, width int) string {
	// phase index per cell (-1: empty), then one style call per run
	row := make([]int, width)
	for i := range row {
		row[i] = -1
	}
	for k, sp := range spans {
		a, b := cell(sp.Start), cell(sp.End)
		if b <= a {
			b = a + 1
		}
		for c := max(a, 0); c < min(b, width); c++ {
			row[c] = k
		}
	}
	var out strings.Builder
	for a := 0; a < width; {
		e := a + 1
		for e < width && (row[e] == row[a] || (row[e] >= 0 && row[a] >= 0 && spans[row[e]].Phase == spans[row[a]].Phase)) {
			e++
		}
		if row[a] < 0 {
			out.WriteString(strings.Repeat(" ", e-a))
		} else {
			st, ch := m.phaseStyle(spans[row[a]].Phase)
			out.WriteString(st.Render(strings.Repeat(ch, e-a)))
		}
		a = e
	}
	return out.String()
}

func (m *Model) goneLabel(spans []lab.Span) string {
	for _, sp := range spans {
		if sp.Phase == lab.PhaseGone {
			return m.st.Muted.Render("gone " + sp.Start.String())
		}
	}
	return m.st.Warn.Render("terminating")
}

func (m *Model) legendLine() string {
	var parts []string
	for _, p := range []string{lab.PhaseRunning, lab.PhasePreStop, lab.PhaseSIGTERM, lab.PhaseSIGKILL, lab.PhaseGone} {
		st, ch := m.phaseStyle(p)
		parts = append(parts, st.Render(strings.Repeat(ch, 2))+" "+p)
	}
	return " " + strings.Join(parts, "   ")
}
