package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// Glyphs: the shape carries the state, the colour the workload.
const (
	glyphRunning     = "●"
	glyphStarting    = "◐"
	glyphPending     = "○"
	glyphTerminating = "◌"
	glyphEvicting    = "▲"
	glyphFailed      = "✕"
	glyphNominated   = "◇"
)

func podGlyph(pv engine.PodView) string {
	switch pv.State {
	case engine.StateStarting:
		return glyphStarting
	case engine.StateRunning:
		return glyphRunning
	case engine.StateTerminating:
		if d := pv.Pod.Condition(api.DisruptionTarget); d != nil {
			return glyphEvicting
		}
		return glyphTerminating
	case engine.StateTerminated:
		return glyphFailed
	}
	return glyphPending
}

// nodeBadges are the marks after a node's name.
func (m *Model) nodeBadges(nv engine.NodeView) string {
	var b []string
	n := nv.Node
	if n.Spec.Unschedulable {
		b = append(b, m.st.Warn.Render("⊘"))
	}
	tainted := 0
	for _, t := range n.Spec.Taints {
		if t.Key != api.TaintNodeUnschedulable {
			tainted++
		}
	}
	if tainted > 0 {
		b = append(b, m.st.Warn.Render(fmt.Sprintf("⚑%d", tainted)))
	}
	if nv.MemoryPressure {
		b = append(b, m.st.Bad.Render("⚠"))
	}
	if c := n.Condition(api.NodeReady); c != nil && c.Status != api.ConditionTrue {
		b = append(b, m.st.Bad.Render("✗"+map[string]string{api.ConditionFalse: "NotReady", api.ConditionUnknown: "Unreachable"}[c.Status]))
	}
	return strings.Join(b, " ")
}

func allocFrac(used, total int64) float64 {
	if total <= 0 {
		return 0
	}
	return float64(used) / float64(total)
}

func nodeUsage(nv engine.NodeView) (cpu, mem, pods float64) {
	var req api.Resources
	n := 0
	for _, pv := range nv.Pods {
		if pv.State == engine.StateTerminated {
			continue
		}
		req.Add(api.ResourcesOf(api.PodRequests(pv.Pod, api.PodRequestsOptions{})))
		n++
	}
	alloc := api.ResourcesOf(nv.Node.Status.Allocatable)
	return allocFrac(req.MilliCPU, alloc.MilliCPU), allocFrac(req.Memory, alloc.Memory), allocFrac(int64(n), alloc.AllowedPods)
}

// nodeCard renders one node in w cells.
func (m *Model) nodeCard(i int, nv engine.NodeView, w int, selected bool) []string {
	name := nv.Node.Name
	marker := " "
	if selected {
		marker = "▸"
		name = m.st.Selected.Render(name)
	} else {
		name = m.st.Bold.Render(name)
	}
	head := marker + name + " " + m.nodeBadges(nv)
	u := m.data.usage[i]
	cpu, mem := u.cpu, u.mem
	bw := max((w-23)/2, 3)
	bars := fmt.Sprintf(" cpu %s %3.0f%% mem %s %3.0f%%", hbar(m.st, cpu, bw), cpu*100, hbar(m.st, mem, bw), mem*100)
	if w < 32 {
		bars = fmt.Sprintf(" cpu %3.0f%% mem %3.0f%%", cpu*100, mem*100)
	}
	lines := []string{fit(head, w), fit(bars, w)}
	glyphs := m.podGlyphs(nv, selected)
	lines = append(lines, wrapGlyphs(glyphs, w-1, 2)...)
	return lines
}

// podGlyphs renders a node's pods, coloured by workload.
func (m *Model) podGlyphs(nv engine.NodeView, selectedNode bool) []string {
	out := make([]string, 0, len(nv.Pods))
	for j, pv := range nv.Pods {
		g := podGlyph(pv)
		st := m.st.Workload(m.data.podWorkload[pv.Pod.Key()])
		if selectedNode && m.focus == focusPods && j == clamp(m.podIdx, len(nv.Pods)) {
			st = m.st.Selected
		}
		out = append(out, st.Render(g))
	}
	return out
}

// wrapGlyphs lays glyphs out "● ● ●" in at most maxLines lines of w cells.
func wrapGlyphs(glyphs []string, w, maxLines int) []string {
	if len(glyphs) == 0 {
		return []string{" "}
	}
	per := max(w/2, 1)
	var lines []string
	for i := 0; i < len(glyphs); i += per {
		end := min(i+per, len(glyphs))
		if len(lines) == maxLines-1 && end < len(glyphs) {
			rest := len(glyphs) - i
			shown := max(per-3, 1)
			lines = append(lines, " "+strings.Join(glyphs[i:i+min(shown, rest)], " ")+fmt.Sprintf(" +%d", rest-min(shown, rest)))
			return lines
		}
		lines = append(lines, " "+strings.Join(glyphs[i:end], " "))
	}
	return lines
}

// clusterLines renders the nodes grouped by domain in w×h cells: domains
// as columns when they fit, as stacked rows otherwise.
func (m *Model) clusterLines(w, h int) []string {
	d := &m.data
	if len(d.nodes) == 0 {
		return box(m.st, "cluster", []string{m.st.Muted.Render("no nodes — press z to add a zone (add zone zone-a --nodes 2)")}, w, h, false)
	}
	ncol := len(d.domains)
	colW := 0
	if ncol > 0 {
		colW = (w - (ncol - 1)) / ncol
	}
	if colW >= 26 && ncol <= 6 {
		return m.clusterColumns(w, h, colW)
	}
	return m.clusterRows(w, h)
}

func (m *Model) domainTitle(dom string) string {
	key := m.data.groupKey
	if dom == "" {
		return "(no " + shortKey(key) + ")"
	}
	return dom
}

func shortKey(k string) string {
	switch k {
	case api.LabelTopologyZone:
		return "zone"
	case api.LabelHostname:
		return "hostname"
	}
	return k
}

func (m *Model) clusterColumns(w, h, colW int) []string {
	d := &m.data
	var cols [][]string
	sel := clamp(m.nodeIdx, len(d.nodes))
	for di, dom := range d.domains {
		var lines []string
		selLine := 0
		count := 0
		for i, nv := range d.nodes {
			if d.nodeDom[i] != di {
				continue
			}
			count++
			if i == sel {
				selLine = len(lines)
			}
			lines = append(lines, m.nodeCard(i, nv, colW-2, i == sel)...)
		}
		inner := h - 2
		start := 0
		if selLine+3 > inner {
			start = selLine + 3 - inner
		}
		if start > 0 {
			lines = lines[start:]
		}
		title := fmt.Sprintf("%s · %d node", m.domainTitle(dom), count)
		if count != 1 {
			title += "s"
		}
		cols = append(cols, box(m.st, title, lines, colW, h, d.nodeDom[sel] == di && m.focus <= focusPods))
	}
	out := joinColumns(cols, 1)
	return block(out, w, h)
}

// clusterRows lists nodes one per line under domain headings (narrow
// terminals and many domains); it scrolls to keep the selection visible.
func (m *Model) clusterRows(w, h int) []string {
	d := &m.data
	inner := w - 2
	var lines []string
	selLine := 0
	sel := clamp(m.nodeIdx, len(d.nodes))
	lastDom := -1
	for i, nv := range d.nodes {
		if d.nodeDom[i] != lastDom {
			lastDom = d.nodeDom[i]
			lines = append(lines, m.st.Heading.Render(shortKey(d.groupKey)+" "+m.domainTitle(d.domains[lastDom])))
		}
		if i == sel {
			selLine = len(lines)
		}
		marker := " "
		name := nv.Node.Name
		if i == sel {
			marker = "▸"
			name = m.st.Selected.Render(name)
		}
		cpu, mem := d.usage[i].cpu, d.usage[i].mem
		head := fmt.Sprintf("%s%-*s %s cpu %3.0f%% mem %3.0f%% ", marker, 12, name, m.nodeBadges(nv), cpu*100, mem*100)
		avail := max(inner-ansi.StringWidth(head), 4)
		g := m.podGlyphs(nv, i == sel)
		glyphLine := strings.Join(g, "")
		if len(g) > avail {
			glyphLine = strings.Join(g[:max(avail-4, 1)], "") + fmt.Sprintf(" +%d", len(g)-max(avail-4, 1))
		}
		lines = append(lines, head+glyphLine)
	}
	innerH := h - 2
	start := 0
	if selLine >= innerH {
		start = selLine - innerH + 1
	}
	return box(m.st, fmt.Sprintf("cluster · by %s · %d nodes", shortKey(d.groupKey), len(d.nodes)), lines[start:], w, h, m.focus <= focusPods)
}

// clusterHeight is how many lines the cluster view needs at width w.
func (m *Model) clusterHeight(w int) int {
	d := &m.data
	ncol := len(d.domains)
	if ncol == 0 {
		return 3
	}
	colW := (w - (ncol - 1)) / ncol
	if colW >= 26 && ncol <= 6 {
		need := 0
		for di := range d.domains {
			lines := 0
			for i, nv := range d.nodes {
				if d.nodeDom[i] == di {
					lines += 2 + len(wrapGlyphs(make([]string, len(nv.Pods)), colW-3, 2))
				}
			}
			need = max(need, lines)
		}
		return need + 2
	}
	return len(d.nodes) + len(d.domains) + 2
}
