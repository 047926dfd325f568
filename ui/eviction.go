package ui

import (
	"fmt"

	"podlab.dev/podlab/lab"
)

// render shows, per node under memory pressure (or the selected
// node), the memory signal and the kubelet's eviction ranking.
func (v *evictionView) render(w, h, from int) []string {
	m := v.m
	threshold := m.sess.EvictionThreshold()
	// lines are produced lazily: only those on screen are rendered
	var lines []func() string
	add := func(l string) { lines = append(lines, func() string { return l }) }
	for _, en := range m.data.evictNodes {
		nv := en.nv
		mem := nv.Memory
		state := m.st.OK.Render("no pressure")
		if nv.MemoryPressure {
			state = m.st.Bad.Render("⚠ MemoryPressure")
		}
		add(m.st.Bold.Render("node/"+safe(nv.Node.Name)) + fmt.Sprintf(" · memory.available %s of %s · hard threshold %s · ",
			lab.HumanBytes(mem.Available), lab.HumanBytes(mem.Capacity), threshold) + state)
		add("  " + hbar(m.st, allocFrac(mem.Capacity-mem.Available, mem.Capacity), min(40, w-10)) + m.st.Muted.Render(fmt.Sprintf(" used: pods %s + other %s",
			lab.HumanBytes(mem.PodUsage), lab.HumanBytes(mem.System))))
		ranking := en.ranking
		podW := 20
		for _, e := range en.ranking {
			podW = max(podW, cellWidth(safe(e.Pod)))
		}
		podW = min(podW, 48)
		add(m.st.Heading.Render(fmt.Sprintf("  %-4s %-*s %-11s %9s %17s %-8s %s", "RANK", podW, "POD", "QOS", "PRIORITY", "USAGE / REQUEST", "EXCEEDS", "WHY THIS ORDER")))
		for _, e := range ranking {
			lines = append(lines, func() string {
				exceeds := m.st.OK.Render("no      ")
				if e.Exceeds {
					exceeds = m.st.Bad.Render("yes     ")
				}
				row := fmt.Sprintf("  %-4d %-*s %-11s %9d %17s ", e.Rank, podW, safe(e.Pod), e.QOS, e.Priority,
					lab.HumanBytes(e.Usage)+" / "+lab.HumanBytes(e.Request))
				return row + exceeds + " " + m.st.Muted.Render(safe(e.Key))
			})
		}
		add("")
	}
	add(m.st.Muted.Render("The kubelet checks every 10 s and evicts one pod per pass: pods using more than their request first,"))
	add(m.st.Muted.Render("then lower priority, then more usage above request. p sets pressure on the selected node."))
	// keep evictionView.maxScroll in step with the lines added here
	start := min(from, max(len(lines)-(h-2), 0))
	out := make([]string, 0, h-2)
	for _, l := range lines[start:min(start+h-2, len(lines))] {
		out = append(out, l())
	}
	return box(m.st, "eviction · kubelet memory ranking", out, w, h, true)
}
