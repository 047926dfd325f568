package ui

import (
	"fmt"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// evictionView shows, per node under memory pressure (or the selected
// node), the memory signal and the kubelet's eviction ranking.
func (m *Model) evictionView(w, h int) []string {
	var nodes []engine.NodeView
	for _, nv := range m.data.snap.Nodes {
		if nv.MemoryPressure || nv.Memory.System > 0 {
			nodes = append(nodes, nv)
		}
	}
	if sel, ok := m.selectedNode(); ok && len(nodes) == 0 {
		nodes = append(nodes, sel)
	}
	threshold := "100Mi"
	if sc := m.sess.File().Scenario; sc != nil {
		if v, ok := sc.Kubelet.EvictionHard["memory.available"]; ok {
			threshold = v
		}
	}
	var lines []string
	for _, nv := range nodes {
		mem := nv.Memory
		state := m.st.OK.Render("no pressure")
		if nv.MemoryPressure {
			state = m.st.Bad.Render("⚠ MemoryPressure")
		}
		lines = append(lines, m.st.Bold.Render("node/"+nv.Node.Name)+fmt.Sprintf(" · memory.available %s of %s · hard threshold %s · ",
			api.HumanBytes(api.Units(mem.Available)), api.HumanBytes(api.Units(mem.Capacity)), threshold)+state)
		lines = append(lines, "  "+hbar(m.st, allocFrac(mem.Capacity-mem.Available, mem.Capacity), min(40, w-10))+m.st.Muted.Render(fmt.Sprintf(" used: pods %s + other %s",
			api.HumanBytes(api.Units(mem.PodUsage)), api.HumanBytes(api.Units(mem.System)))))
		ranking := nv.Ranking
		if len(ranking) == 0 {
			ranking = m.sess.Engine().EvictionRanking(nv.Node.Name)
		}
		lines = append(lines, m.st.Heading.Render(fmt.Sprintf("  %-4s %-32s %-11s %9s %17s %-8s %s", "RANK", "POD", "QOS", "PRIORITY", "USAGE / REQUEST", "EXCEEDS", "WHY THIS ORDER")))
		for _, e := range ranking {
			exceeds := m.st.OK.Render("no      ")
			if e.Exceeds {
				exceeds = m.st.Bad.Render("yes     ")
			}
			row := fmt.Sprintf("  %-4d %-32s %-11s %9d %17s ", e.Rank, e.Pod, e.QOS, e.Priority,
				api.HumanBytes(api.Units(e.Usage))+" / "+api.HumanBytes(api.Units(e.Request)))
			lines = append(lines, row+exceeds+" "+m.st.Muted.Render(e.Key))
		}
		lines = append(lines, "")
	}
	lines = append(lines, m.st.Muted.Render("The kubelet checks every 10 s and evicts one pod per pass: pods using more than their request first,"),
		m.st.Muted.Render("then lower priority, then more usage above request. p sets pressure on the selected node."))
	start := min(m.scroll[viewEviction], max(len(lines)-(h-2), 0))
	return box(m.st, "eviction · kubelet memory ranking", lines[start:], w, h, true)
}
