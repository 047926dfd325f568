package ui

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"podlab.dev/podlab/lab"
)

// zooms are the timeline's seconds per cell.
var zooms = []float64{0.25, 0.5, 1, 2, 5, 10, 30, 60}

func (v *timelineView) phaseStyle(phase string) (lipgloss.Style, string) {
	m := v.m
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

// timelineSpan is the stretch of virtual time the timeline shows: from a
// little before the earliest termination to the latest end.
func timelineSpan(tls []lab.PodTimeline) (start, end lab.Time, ok bool) {
	for _, t := range tls {
		for _, sp := range t.Timeline.Pod {
			if sp.Phase == lab.PhaseRunning || sp.Phase == lab.PhasePending || sp.Phase == lab.PhaseContainerCreating {
				continue
			}
			if !ok || sp.Start < start {
				start = sp.Start
			}
			if !ok || sp.End > end {
				end = sp.End
			}
			ok = true
		}
	}
	start = max(start.Add(-3e9), 0)
	return start, end, ok
}

// timelineLabelWidth and timelineBarWidth split a w-cell box: the pod
// names, then the bars, then room for "gone 1m30.5s".
func timelineLabelWidth(w int) int { return min(30, w/3) }

func timelineBarWidth(w int) int { return max(w-timelineLabelWidth(w)-4-13, 10) }

// fitZoom is the finest zoom (index into zooms) that shows secs seconds
// in width cells.
func fitZoom(secs float64, width int) int {
	for i, z := range zooms {
		if secs/z <= float64(width) {
			return i
		}
	}
	return len(zooms) - 1
}

// tickSteps are the axis's label spacings, in seconds: round times.
var tickSteps = []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600}

// axisTicks places round-time labels on a bar of width cells from start
// at per seconds a cell: the smallest round step whose labels do not
// touch, labels at its multiples.
func axisTicks(start lab.Time, per float64, width int) string {
	const minGap = 10 // cells between label starts
	step := tickSteps[len(tickSteps)-1]
	for _, s := range tickSteps {
		if s/per >= minGap {
			step = s
			break
		}
	}
	row := []rune(strings.Repeat(" ", width))
	first := math.Ceil(start.Seconds()/step) * step
	for t := first; ; t += step {
		c := int(math.Round((t - start.Seconds()) / per))
		if c >= width {
			break
		}
		label := []rune("┆" + roundTime(t))
		if c+len(label) > width {
			break // a cut label reads as a wrong time
		}
		copy(row[c:], label)
	}
	return string(row)
}

// roundTime prints whole seconds as 0s, 45s, 1m, 1m30s, 1h, 1h2m.
func roundTime(secs float64) string {
	t := int64(math.Round(secs))
	h, m, sec := t/3600, t/60%60, t%60
	switch {
	case h > 0 && m > 0:
		return fmt.Sprintf("%dh%dm", h, m)
	case h > 0:
		return fmt.Sprintf("%dh", h)
	case m > 0 && sec > 0:
		return fmt.Sprintf("%dm%ds", m, sec)
	case m > 0:
		return fmt.Sprintf("%dm", m)
	}
	return fmt.Sprintf("%ds", sec)
}

// render draws Gantt bars of every pod that was killed, at zoom
// (an index into zooms) from line `from`.
func (v *timelineView) render(w, h, zoom, from int) []string {
	lines := v.lines(w, zoom)
	start0 := min(from, max(len(lines)-(h-2), 0))
	return box(v.m.st, v.boxTitle(), lines[start0:], w, h, true)
}

// boxTitle names what the timeline shows.
func (v *timelineView) boxTitle() string {
	switch {
	case len(v.m.data.timelines) == 0 && len(v.ctrPods) == 0:
		return "timeline"
	case len(v.ctrPods) == 0:
		return "timeline · termination of pods"
	}
	return "timeline · termination of pods · container restarts"
}

// noTerminations is the hint shown when no pod was killed.
func (v *timelineView) noTerminations() []string {
	m := v.m
	return []string{
		m.st.Muted.Render("No pod has been terminated yet. Delete one (x in the cluster view, or"),
		m.st.Muted.Render(": delete pod NAME --grace-period=10), drain a node, or put one under memory pressure."),
	}
}

// lines is the timeline's content in a w-cell box at zoom: the
// axis, per pod its bar, its containers' bars and the cause, then a
// blank line and the legend (timelineView.maxScroll counts them).
func (v *timelineView) lines(w, zoom int) []string {
	m := v.m
	tls := m.data.timelines
	if len(tls) == 0 {
		return append(v.noTerminations(), v.containerSection(w)...)
	}
	start, _, _ := timelineSpan(tls)
	per := zooms[zoom]
	// the axis starts on a round time
	start = lab.Time(math.Floor(start.Seconds()/per) * per * 1e9)
	labelW := timelineLabelWidth(w)
	barW := timelineBarWidth(w)
	cell := func(t lab.Time) int { return int((t - start).Seconds() / per) }
	var lines []string
	lines = append(lines, m.st.Muted.Render(fmt.Sprintf("%-*s %s", labelW, fmt.Sprintf("virtual time · %gs/cell", per), axisTicks(start, per, barW))))
	for _, t := range tls {
		lines = append(lines, fit(m.st.Bold.Render(safe(t.Pod)), labelW)+" "+v.gantt(t.Timeline.Pod, cell, barW)+" "+v.goneLabel(t.Timeline.Pod))
		for _, c := range t.Timeline.Containers {
			name := "  " + safe(c.Name)
			if c.Sidecar {
				name += " (sidecar)"
			}
			lines = append(lines, fit(m.st.Muted.Render(name), labelW)+" "+v.gantt(c.Spans, cell, barW))
		}
		cause := fmt.Sprintf("  ↑ %s %s: %s", t.Cause.Time, safe(t.Cause.Reason), safe(t.Cause.Message))
		lines = append(lines, m.st.Muted.Render(fit(cause, w-4)))
	}
	lines = append(lines, "", v.legendLine())
	return append(lines, v.containerSection(w)...)
}

func (v *timelineView) gantt(spans []lab.Span, cell func(lab.Time) int, width int) string {
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
			st, ch := v.phaseStyle(spans[row[a]].Phase)
			out.WriteString(st.Render(strings.Repeat(ch, e-a)))
		}
		a = e
	}
	return out.String()
}

func (v *timelineView) goneLabel(spans []lab.Span) string {
	m := v.m
	for _, sp := range spans {
		if sp.Phase == lab.PhaseGone {
			return m.st.Muted.Render("gone " + sp.Start.String())
		}
	}
	return m.st.Warn.Render("terminating")
}

func (v *timelineView) legendLine() string {
	var parts []string
	for _, p := range []string{lab.PhaseRunning, lab.PhasePreStop, lab.PhaseSIGTERM, lab.PhaseSIGKILL, lab.PhaseGone} {
		st, ch := v.phaseStyle(p)
		parts = append(parts, st.Render(strings.Repeat(ch, 2))+" "+p)
	}
	return " " + strings.Join(parts, "   ")
}
