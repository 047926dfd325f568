package ui

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/lab"
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

// lookGlyphs are the glyphs of the pod looks, in lab.PodLook order.
var lookGlyphs = [...]string{
	lab.LookPending: glyphPending, lab.LookStarting: glyphStarting, lab.LookRunning: glyphRunning,
	lab.LookTerminating: glyphTerminating, lab.LookEvicting: glyphEvicting, lab.LookFailed: glyphFailed,
	lab.LookNotReady: glyphNotReady, lab.LookCrashLoop: glyphCrashLoop,
}

func podGlyph(pv lab.PodView) string { return lookGlyphs[lab.LookOf(pv)] }

// nodeBadges are the marks after a node's name.
func (v *clusterView) nodeBadges(nv lab.NodeView) string {
	m := v.m
	f := lab.FlagsOf(nv)
	var b []string
	if f.Cordoned {
		b = append(b, m.st.Warn.Render("⊘"))
	}
	if f.Taints > 0 {
		b = append(b, m.st.Warn.Render(fmt.Sprintf("⚑%d", f.Taints)))
	}
	if f.MemoryPressure {
		b = append(b, m.st.Bad.Render("⚠"))
	}
	if f.NotReady != "" {
		b = append(b, m.st.Bad.Render("✗"+f.NotReady))
	}
	return strings.Join(b, " ")
}

func allocFrac(used, total int64) float64 {
	if total <= 0 {
		return 0
	}
	return float64(used) / float64(total)
}

// nodeCard renders one node in w cells: name and badges, allocation
// bars, its pods as glyphs (two lines at most). Cards are cached by what
// they show.
func (v *clusterView) nodeCard(i int, w int, selected bool, names int) []string {
	m := v.m
	nv := m.data.nodes[i]
	shown, _ := glyphsShown(len(nv.Pods)+len(m.data.nominated[nv.Node.Name]), w-1, 2)
	if names > 0 {
		shown = len(nv.Pods) + len(m.data.nominated[nv.Node.Name])
	}
	key := m.cardKeyOf(i, w, shown, selected, false)
	key.names = names
	if c, ok := m.cards.get(m, i, key); ok {
		return c
	}
	name := safe(nv.Node.Name)
	marker := " "
	if selected {
		marker = "▸"
		name = m.st.Selected.Render(name)
	} else {
		name = m.st.Bold.Render(name)
	}
	head := marker + name + " " + v.nodeBadges(nv)
	u := m.data.usage[i]
	cpu, mem := u.CPU, u.Memory
	bw := max((w-23)/2, 3)
	bars := fmt.Sprintf(" cpu %s %3.0f%% mem %s %3.0f%%", hbar(m.st, cpu, bw), cpu*100, hbar(m.st, mem, bw), mem*100)
	if w < 32 {
		bars = fmt.Sprintf(" cpu %3.0f%% mem %3.0f%%", cpu*100, mem*100)
	}
	lines := []string{fit(head, w), fit(bars, w)}
	if names > 0 {
		lines = append(lines, v.podNameLines(i, selected, w, names)...)
	} else {
		lines = append(lines, v.glyphLines(i, selected, w-1, 2)...)
	}
	m.cards.put(m, i, key, lines)
	return lines
}

// glyphItem is one glyph of a node: a pod, or a pod nominated to it.
type glyphItem struct {
	glyph string
	// style is a workload index (Styles.Workload), or styleSelected.
	style int
}

// styleSelected marks the glyph under the cursor.
const styleSelected = -2

// glyphItems lists the first n glyphs of node i, coloured by workload.
func (v *clusterView) glyphItems(i int, selectedNode bool, n int) []glyphItem {
	m := v.m
	nv := m.data.nodes[i]
	nom := m.data.nominated[nv.Node.Name]
	total := min(len(nv.Pods)+len(nom), n)
	out := make([]glyphItem, 0, total)
	for j := 0; j < len(nv.Pods) && len(out) < total; j++ {
		pv := nv.Pods[j]
		st := m.podWorkload(pv.Pod)
		if selectedNode && m.focus == focusPods && j == clamp(m.podIdx, len(nv.Pods)) {
			st = styleSelected
		}
		out = append(out, glyphItem{podGlyph(pv), st})
	}
	for j := 0; j < len(nom) && len(out) < total; j++ {
		out = append(out, glyphItem{glyphNominated, m.podWorkloadByKey(nom[j])})
	}
	return out
}

// glyphLineCount is how many lines n glyphs take in w cells, at most maxLines.
func glyphLineCount(n, w, maxLines int) int {
	if n == 0 {
		return 1
	}
	per := max(w/2, 1)
	return min((n+per-1)/per, maxLines)
}

// glyphLines lays a node's glyphs out "● ● ●" in at most maxLines lines of
// w cells; when they do not fit the last line ends with "+N". Only the
// glyphs shown are rendered, runs of one colour in one style call.
func (v *clusterView) glyphLines(i int, selectedNode bool, w, maxLines int) []string {
	m := v.m
	nv := m.data.nodes[i]
	total := len(nv.Pods) + len(m.data.nominated[nv.Node.Name])
	if total == 0 {
		return []string{" "}
	}
	per := max(w/2, 1)
	shown, more := glyphsShown(total, w, maxLines)
	items := v.glyphItems(i, selectedNode, shown)
	var lines []string
	for a := 0; a < len(items); a += per {
		b := min(a+per, len(items))
		line := " " + v.renderRuns(items[a:b], " ")
		if b == len(items) && more > 0 {
			line += fmt.Sprintf(" +%d", more)
		}
		lines = append(lines, line)
	}
	return lines
}

// glyphsShown is how many of total glyphs fit in maxLines lines of w
// cells ("● ● ●"), and how many are left for the "+N".
func glyphsShown(total, w, maxLines int) (shown, more int) {
	per := max(w/2, 1)
	if total > per*maxLines {
		shown = per*(maxLines-1) + max(per-3, 1)
		return shown, total - shown
	}
	return total, 0
}

// renderRuns renders glyphs joined by sep, one style call per run of
// glyphs that share a style.
func (v *clusterView) renderRuns(items []glyphItem, sep string) string {
	m := v.m
	var b strings.Builder
	for a := 0; a < len(items); {
		e := a + 1
		for e < len(items) && items[e].style == items[a].style {
			e++
		}
		if a > 0 {
			b.WriteString(sep)
		}
		var run strings.Builder
		for k := a; k < e; k++ {
			if k > a {
				run.WriteString(sep)
			}
			run.WriteString(items[k].glyph)
		}
		st := m.st.Selected
		if items[a].style != styleSelected {
			st = m.st.Workload(items[a].style)
		}
		b.WriteString(st.Render(run.String()))
		a = e
	}
	return b.String()
}

// clusterLines renders the nodes grouped by domain in w×h cells: domains
// as columns when they fit, as stacked rows otherwise.
func (v *clusterView) clusterLines(w, h int) []string {
	m := v.m
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
		return v.clusterColumns(w, h, colW)
	}
	return v.clusterRows(w, h)
}

func (v *clusterView) domainTitle(dom string) string {
	m := v.m
	key := m.data.groupKey
	if dom == "" {
		return "(no " + m.sess.ShortKey(key) + ")"
	}
	return safe(dom)
}

// cardHeight is the number of lines node i's card takes in w cells,
// with its pods' names in `names` columns (0: as glyphs).
func (v *clusterView) cardHeight(i, w, names int) int {
	m := v.m
	nv := m.data.nodes[i]
	n := len(nv.Pods) + len(m.data.nominated[nv.Node.Name])
	if names > 0 {
		return 2 + max((n+names-1)/names, 1)
	}
	return 2 + glyphLineCount(n, w-1, 2)
}

// podNameW is the width of a pod's name column in a node card.
const podNameW = 26

// podNameCols is how many columns of pod names node cards w cells wide
// show when every zone's cards fit in inner lines with them; 0 when they
// do not (the cards show glyphs, "● ● ●").
func (v *clusterView) podNameCols(w, inner int) int {
	m := v.m
	if w < podNameW+1 {
		return 0
	}
	cols := max((w-1)/podNameW, 1)
	d := &m.data
	for di := range d.domains {
		need := 0
		for i := d.domStart[di]; i < d.domStart[di+1]; i++ {
			need += v.cardHeight(i, w, cols)
			if need > inner {
				return 0
			}
		}
	}
	return cols
}

// podNameLines lists node i's pods as glyph and name, coloured by
// workload, in cols columns of w cells (nominated pods last, ◇).
func (v *clusterView) podNameLines(i int, selectedNode bool, w, cols int) []string {
	m := v.m
	nv := m.data.nodes[i]
	nom := m.data.nominated[nv.Node.Name]
	total := len(nv.Pods) + len(nom)
	if total == 0 {
		return []string{" "}
	}
	colW := (w - 1) / cols
	items := v.glyphItems(i, selectedNode, total)
	var lines []string
	for a := 0; a < total; a += cols {
		var b strings.Builder
		b.WriteString(" ")
		for j := a; j < min(a+cols, total); j++ {
			name := ""
			if j < len(nv.Pods) {
				name = nv.Pods[j].Pod.Name
			} else {
				name = nom[j-len(nv.Pods)]
				if _, n, ok := strings.Cut(name, "/"); ok {
					name = n
				}
			}
			st := m.st.Selected
			if items[j].style != styleSelected {
				st = m.st.Workload(items[j].style)
			}
			b.WriteString(fit(st.Render(items[j].glyph+" "+safe(name)), colW))
		}
		lines = append(lines, fit(b.String(), w))
	}
	return lines
}

// clusterColumns draws one box per domain; only the cards on screen are
// rendered, and the selected domain scrolls to keep the selection visible.
func (v *clusterView) clusterColumns(w, h, colW int) []string {
	m := v.m
	d := &m.data
	sel := clamp(m.nodeIdx, len(d.nodes))
	inner := h - 2
	cardW := colW - 2
	names := v.podNameCols(cardW, inner)
	type colLines struct {
		lines             []string
		skip, hiddenBelow int
	}
	misses := m.cards.misses
	cl := make([]colLines, len(d.domains))
	for di := range d.domains {
		first, last := d.domStart[di], d.domStart[di+1]
		// scroll: the selected card ends inside the box
		skip := first
		if d.nodeDom[sel] == di {
			used := 0
			for i := sel; i >= first; i-- {
				hgt := v.cardHeight(i, cardW, names)
				if used+hgt > inner && i != sel {
					break
				}
				used += hgt
				skip = i
			}
		}
		lines := make([]string, 0, inner+4)
		i := skip
		x0 := di*(colW+1) + 1 // inside the box's border
		for ; i < last && len(lines) < inner; i++ {
			y0 := len(lines) + 1
			lines = append(lines, v.nodeCard(i, cardW, i == sel, names)...)
			v.cardHits(i, x0, y0, cardW, len(lines)+1-y0, names)
		}
		hiddenBelow := last - i
		if len(lines) > inner {
			hiddenBelow++
		}
		if hiddenBelow > 0 || skip > first {
			m.hits.clip(x0, x0+cardW, inner) // the last line says "more nodes"
		} else {
			m.hits.clip(x0, x0+cardW, inner+1)
		}
		cl[di] = colLines{lines, skip, hiddenBelow}
	}
	// every card came from the cache: the boxes are the same as last frame
	type colsKey struct {
		panel       panelKey
		colW        int
		fingerprint string
	}
	var fp strings.Builder
	for _, c := range cl {
		fmt.Fprintf(&fp, "%d,%d;", c.skip, c.hiddenBelow)
	}
	key := colsKey{m.panelKey(w, h, 0, 0, 0), colW, fp.String()}
	key.panel.node, key.panel.pod = sel, m.podIdx
	key.panel.stamp = stamp{} // the cards carry the cluster's state
	if c := m.memos.columns; m.cards.misses == misses && c.lines != nil && c.key == key {
		return c.lines
	}
	cols := make([][]string, 0, len(d.domains))
	for di, dom := range d.domains {
		first, last := d.domStart[di], d.domStart[di+1]
		lines, skip, hiddenBelow := cl[di].lines, cl[di].skip, cl[di].hiddenBelow
		if hiddenBelow > 0 || skip > first {
			lines = lines[:min(len(lines), inner-1)]
			lines = append(lines, m.st.Muted.Render(fmt.Sprintf("  ↑%d ↓%d more nodes · j/k scrolls", skip-first, hiddenBelow)))
		}
		count := last - first
		title := fmt.Sprintf("%s · %d node", v.domainTitle(dom), count)
		if count != 1 {
			title += "s"
		}
		cols = append(cols, box(m.st, title, lines, colW, h, d.nodeDom[sel] == di && m.focus <= focusPods))
	}
	out := joinColumns(cols, 1)
	if used := len(cols)*colW + len(cols) - 1; used < w {
		fill := strings.Repeat(" ", w-used)
		for i := range out {
			out[i] += fill
		}
	}
	out = pad(out, w, h)
	m.memos.columns = memo{key: key, lines: out}
	return out
}

// cardHits records node i's card drawn at (x, y), w×h cells: the card
// selects the node, each glyph of a pod (" ● ● ●" from the card's third
// line, as glyphLines lays them out) the pod.
func (v *clusterView) cardHits(i, x, y, w, h, names int) {
	m := v.m
	m.hits.add(hit{x0: x, y0: y, x1: x + w, y1: y + h, kind: hitNode, node: i})
	if names > 0 {
		// " ● name" in names columns of (w-1)/names cells
		colW := (w - 1) / names
		for j := range m.data.nodes[i].Pods {
			gx, gy := x+1+colW*(j%names), y+2+j/names
			m.hits.add(hit{x0: gx, y0: gy, x1: gx + colW, y1: gy + 1, kind: hitPod, node: i, index: j})
		}
		return
	}
	per := max((w-1)/2, 1)
	shown, _ := glyphsShown(len(m.data.nodes[i].Pods)+len(m.data.nominated[m.data.nodes[i].Node.Name]), w-1, 2)
	for j := 0; j < min(shown, len(m.data.nodes[i].Pods)); j++ {
		gx, gy := x+1+2*(j%per), y+2+j/per
		if gy >= y+h {
			break
		}
		m.hits.add(hit{x0: gx, y0: gy, x1: gx + 1, y1: gy + 1, kind: hitPod, node: i, index: j})
	}
}

// clusterRows lists nodes one per line under domain headings (narrow
// terminals and many domains). Only the lines on screen are rendered; the
// list scrolls to keep the selection visible.
func (v *clusterView) clusterRows(w, h int) []string {
	m := v.m
	d := &m.data
	inner := w - 2
	innerH := max(h-2, 1)
	sel := clamp(m.nodeIdx, len(d.nodes))
	total := len(d.nodes) + len(d.domains)
	selLine := sel + d.nodeDom[sel] + 1
	start := 0
	if selLine >= innerH-1 {
		start = selLine - innerH + 2 // one line of context below
	}
	start = max(min(start, total-innerH), 0)
	end := min(start+innerH, total)
	lines := make([]string, 0, innerH)
	for di := range d.domains {
		hl := d.domStart[di] + di
		if hl >= end {
			break
		}
		if hl >= start {
			lines = append(lines, m.st.Heading.Render(m.sess.ShortKey(d.groupKey)+" "+v.domainTitle(d.domains[di]))+
				m.st.Muted.Render(fmt.Sprintf(" · %d nodes", d.domStart[di+1]-d.domStart[di])))
		}
		for i := max(d.domStart[di], start-di-1); i < d.domStart[di+1]; i++ {
			if i+di+1 >= end {
				break
			}
			lines = append(lines, v.nodeRow(i, inner, i == sel))
			v.rowHits(i, 1, len(lines), inner)
		}
	}
	title := fmt.Sprintf("cluster · by %s · %d nodes", m.sess.ShortKey(d.groupKey), len(d.nodes))
	if total > innerH {
		title += fmt.Sprintf(" · lines %d–%d of %d", start+1, end, total)
	}
	return box(m.st, title, lines, w, h, m.focus <= focusPods)
}

// nodeRow is one node on one line: name, badges, usage, pod glyphs.
func (v *clusterView) nodeRow(i, w int, selected bool) string {
	m := v.m
	nv := m.data.nodes[i]
	marker := " "
	name := fmt.Sprintf("%-12s", safe(nv.Node.Name))
	badges := v.nodeBadges(nv)
	bw := cellWidth(badges)
	// the glyphs start after the name, the badges and the usage
	avail := max(w-rowGlyphsAt(nv, bw), 4)
	total := len(nv.Pods) + len(m.data.nominated[nv.Node.Name])
	shown := total
	suffix := ""
	if total > avail {
		shown = max(avail-5, 1)
		suffix = fmt.Sprintf(" +%d", total-shown)
	}
	key := m.cardKeyOf(i, w, shown, selected, true)
	if c, ok := m.cards.get(m, i, key); ok {
		return c[0]
	}
	if selected {
		marker = "▸"
		name = m.st.Selected.Render(name)
	}
	u := m.data.usage[i]
	head := fmt.Sprintf("%s%s %s cpu %3.0f%% mem %3.0f%% ", marker, name, badges, u.CPU*100, u.Memory*100)
	line := fit(head+v.renderRuns(v.glyphItems(i, selected, shown), "")+suffix, w)
	m.cards.put(m, i, key, []string{line})
	return line
}

// rowGlyphsAt is where a node row's glyphs start: after the marker, the
// name (12 cells at least), the badges (bw cells) and the usage.
func rowGlyphsAt(nv lab.NodeView, bw int) int {
	return 1 + max(12, cellWidth(safe(nv.Node.Name))) + 1 + bw + 1 + 18
}

// rowHits records node i's row drawn at (x, y) in w cells: the row
// selects the node, each glyph (one cell, no gap) a pod.
func (v *clusterView) rowHits(i, x, y, w int) {
	m := v.m
	nv := m.data.nodes[i]
	m.hits.add(hit{x0: x, y0: y, x1: x + w, y1: y + 1, kind: hitNode, node: i})
	at := x + rowGlyphsAt(nv, cellWidth(v.nodeBadges(nv)))
	n := len(nv.Pods) + len(m.data.nominated[nv.Node.Name])
	avail := max(w-(at-x), 4)
	if n > avail {
		n = max(avail-5, 1)
	}
	for j := 0; j < min(n, len(nv.Pods)) && at+j < x+w; j++ {
		m.hits.add(hit{x0: at + j, y0: y, x1: at + j + 1, y1: y + 1, kind: hitPod, node: i, index: j})
	}
}

// clusterHeight is how many lines the cluster view needs at width w
// when it may take up to avail lines (pod names when they fit).
func (v *clusterView) clusterHeight(w, avail int) int {
	m := v.m
	d := &m.data
	ncol := len(d.domains)
	if ncol == 0 {
		return 3
	}
	colW := (w - (ncol - 1)) / ncol
	if colW >= 26 && ncol <= 6 {
		need := 0
		names := v.podNameCols(colW-2, avail-2)
		for di := range d.domains {
			lines := 0
			for i := d.domStart[di]; i < d.domStart[di+1]; i++ {
				lines += v.cardHeight(i, colW-2, names)
			}
			need = max(need, lines)
		}
		return need + 2
	}
	return len(d.nodes) + len(d.domains) + 2
}
