package ui

import "strings"

// draw is the legend overlay (i in the cluster view): what the glyph
// shapes, badges and colours mean. Shapes carry the state so the legend
// holds without colour (NO_COLOR, projectors, colour-blind viewers).
func (o *legendOverlay) draw(w, h int) []string {
	m := o.m
	bw := overlayWidth(100, w)
	inner := bw - 4
	var lines []string
	section := func(title string, items ...string) {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, m.st.Heading.Render(title))
		lines = append(lines, packItems(items, inner)...)
	}
	section("pods — the shape is the state",
		glyphRunning+" running", glyphStarting+" starting (bound, containers coming up)", glyphPending+" pending",
		glyphTerminating+" terminating (grace period)", glyphEvicting+" being evicted or preempted",
		glyphFailed+" failed or killed", glyphNominated+" nominated: a preemptor waiting for its victims",
		legendPodHealth1, legendPodHealth2)
	section("nodes",
		"⊘ cordoned", "⚑N N taints", "⚠ MemoryPressure", "✗NotReady / ✗Unreachable",
		"cpu ▰▰▱▱ requests ÷ allocatable (what the scheduler counts)")
	section("spread", "zone-a ███ 3 matching pods per domain", "zone-c⁻ not an eligible domain (node affinity, taints policy)")
	var wls []string
	for i, wl := range m.data.workloads {
		name := safe(wl.Ref())
		if wl.Bare() {
			name = "bare pods in " + safe(wl.Namespace)
		}
		wls = append(wls, m.st.Workload(i).Render(glyphRunning)+" "+name)
	}
	if len(wls) == 0 {
		wls = []string{m.st.Muted.Render("no workloads yet")}
	}
	section("workloads — the colour is the workload", wls...)
	lines = append(lines, "", m.st.Muted.Render("esc or i closes the legend"))
	return box(m.st, "legend", lines, bw, min(len(lines)+2, h-2), true)
}

// packItems lays items out left to right, as many per line as fit in w.
func packItems(items []string, w int) []string {
	var lines []string
	var cur strings.Builder
	curW := 0
	for _, it := range items {
		iw := cellWidth(it)
		if curW > 0 && curW+3+iw > w {
			lines = append(lines, cur.String())
			cur.Reset()
			curW = 0
		}
		if curW == 0 {
			cur.WriteString("  ")
			curW = 2
		} else {
			cur.WriteString("   ")
			curW += 3
		}
		cur.WriteString(it)
		curW += iw
	}
	if curW > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}
