package ui

import "fmt"

// legendBox is the legend overlay (i in the cluster view): what the glyph
// shapes, badges and colours mean. Shapes carry the state so the legend
// holds without colour (NO_COLOR, projectors, colour-blind viewers).
func (m *Model) legendBox(w, h int) []string {
	lines := []string{
		m.st.Heading.Render("pods — the shape is the state"),
		"  " + glyphRunning + " running    " + glyphStarting + " starting (bound, containers coming up)    " + glyphPending + " pending",
		"  " + glyphTerminating + " terminating (grace period)    " + glyphEvicting + " being evicted / preempted (DisruptionTarget)",
		"  " + glyphFailed + " failed or killed (terminal)    " + glyphNominated + " nominated here: a preemptor waiting for its victims",
		"",
		m.st.Heading.Render("nodes"),
		"  ⊘ cordoned (unschedulable)   ⚑N N taints   ⚠ MemoryPressure   ✗NotReady / ✗Unreachable",
		"  cpu ▰▰▱▱ requested share of allocatable (what the scheduler counts, not usage)",
		"",
		m.st.Heading.Render("spread"),
		"  zone-a ███ 3   matching pods per domain   zone-c⁻ not eligible (nodeAffinity / taints policy)",
		"",
		m.st.Heading.Render("workloads — the colour is the workload"),
	}
	wls := m.data.workloads
	for i := 0; i < len(wls); i += 2 {
		row := "  " + m.st.Workload(i).Render(glyphRunning) + " " + fmt.Sprintf("%-36s", wls[i].Ref())
		if i+1 < len(wls) {
			row += m.st.Workload(i+1).Render(glyphRunning) + " " + wls[i+1].Ref()
		}
		lines = append(lines, row)
	}
	if len(wls) == 0 {
		lines = append(lines, m.st.Muted.Render("  no workloads yet"))
	}
	lines = append(lines, "", m.st.Muted.Render("any key closes the legend"))
	bw := min(w-2, 96)
	return box(m.st, "legend", lines, bw, min(len(lines)+2, h-2), true)
}
