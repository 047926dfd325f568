package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// View implements tea.Model. It only assembles what refresh() prepared.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "podlab"
	return v
}

// render draws the whole screen as text.
func (m *Model) render() string {
	w, h := m.w, m.h
	if w == 0 || h == 0 {
		return "starting podlab…"
	}
	if w < minWidth || h < minHeight {
		msg := fmt.Sprintf("terminal too small: %d×%d — podlab needs at least %d×%d", w, h, minWidth, minHeight)
		return strings.Join(block(wrapText(msg, max(w, 1)), max(w, 1), max(h, 1)), "\n")
	}
	body := h - 3
	m.wlRows = rowSpan{} // the cluster view records it
	var lines []string
	lines = append(lines, m.header(w))
	lines = append(lines, m.body(w, body)...)
	lines = append(lines, m.statusLine(w), m.memos.footer.get(m.panelKey(w, 0, 0, 0, 0), func() []string { return []string{m.footer(w)} })[0])
	if m.pal.open {
		body := m.paletteLines(w - 4)
		pl := box(m.st, paletteTitle(m.pal.mode), body, w-2, min(len(body)+2, h-2), true)
		lines = overlay(lines, pl, 1, h-2-len(pl))
	}
	if m.picker != nil {
		pk := m.pickerBox(w, h)
		lines = overlay(lines, pk, (w-ansi.StringWidth(pk[0]))/2, 2)
	}
	if m.legend {
		lb := m.legendBox(w, h)
		lines = overlay(lines, lb, max((w-cellWidth(lb[0]))/2, 0), 1)
	}
	if m.help {
		hb := m.helpBox(w, h)
		lines = overlay(lines, hb, max((w-ansi.StringWidth(hb[0]))/2, 0), 1)
	}
	// every line is w cells by construction (fit, box, block): only the
	// count needs making exact
	return strings.Join(pad(lines, w, h), "\n")
}

func paletteTitle(mode paletteMode) string {
	switch mode {
	case modeOpen:
		return "open a scenario file (enter to load, esc to cancel)"
	case modeSave:
		return "save the session as a scenario file"
	case modeFilter:
		return "filter events by object, reason or type"
	}
	return "command (tab completes · ↑↓ history · esc closes)"
}

func (m *Model) header(w int) string {
	title := "podlab"
	if sc := m.sess.File().Scenario; sc != nil && sc.Title != "" {
		title += " ▸ " + sc.Title
	} else {
		title += " ▸ " + m.sess.File().Name
	}
	step := ""
	if l := m.sess.Lesson(); l != nil {
		step = fmt.Sprintf(" · step %d/%d", m.sess.Step()+1, len(l.Steps))
	}
	right := m.st.Bold.Render(m.clockText()) + m.st.Muted.Render(fmt.Sprintf("  seed %d", m.sess.Seed()))
	if p := m.sess.PolicyLabel(); p != "" { // a KubeSchedulerConfiguration is in force
		right = m.st.Muted.Render(p+"  ") + right
	}
	left := m.st.Title.Render(title + step)
	rw := cellWidth(right)
	// tabs: every view named when there is room, else only the current one
	// named and the others by their number; the title gives way first
	for _, full := range []bool{true, false} {
		var tabs []string
		for i, n := range viewNames {
			t := fmt.Sprintf("%d %s", i+1, n)
			if !full && viewID(i) != m.view {
				t = fmt.Sprint(i + 1)
			}
			if viewID(i) == m.view {
				tabs = append(tabs, m.st.Selected.Render(t))
			} else {
				tabs = append(tabs, m.st.Muted.Render(t))
			}
		}
		mid := strings.Join(tabs, " ")
		mw := cellWidth(mid)
		lw := cellWidth(left)
		if !full {
			lw = min(lw, max(w-rw-mw-4, 8))
		}
		if space := w - lw - rw - 2; space >= mw+2 {
			pad := space - mw
			l := left
			if lw < cellWidth(left) {
				// the title gives way, the lesson step stays
				l = m.st.Title.Render(fit(title, max(lw-cellWidth(step), 1)) + step)
			}
			return fit(fit(l, lw)+strings.Repeat(" ", pad/2)+mid+strings.Repeat(" ", pad-pad/2)+"  "+right, w)
		}
	}
	avail := w - rw - 1
	return fit(fit(left, max(avail, 0))+" "+right, w)
}

// tabAt is the view whose tab is at column x of the header line.
func tabAt(header []rune, x int) (viewID, bool) {
	for i, n := range viewNames {
		for _, label := range []string{fmt.Sprintf("%d %s", i+1, n), fmt.Sprint(i + 1)} {
			l := []rune(label)
			for at := 0; at+len(l) <= len(header); at++ {
				if string(header[at:at+len(l)]) != label {
					continue
				}
				// a tab stands alone: spaces (or the line's ends) around it
				if (at > 0 && header[at-1] != ' ') || (at+len(l) < len(header) && header[at+len(l)] != ' ') {
					continue
				}
				if x >= at && x < at+len(l) {
					return viewID(i), true
				}
			}
		}
	}
	return 0, false
}

func (m *Model) statusLine(w int) string {
	if m.status == "" {
		c := m.data.snap.Counts
		return fit(m.st.Muted.Render(fmt.Sprintf(" %d nodes · %d running · %d pending · %d starting · %d terminating",
			c.Nodes, c.Running, c.Pending, c.Starting, c.Terminating)), w)
	}
	if m.statusErr {
		return fit(m.st.Bad.Render(" ✗ "+m.status), w)
	}
	return fit(m.st.OK.Render(" "+m.status), w)
}

// footer shows the keys that matter in the current view.
func (m *Model) footer(w int) string {
	type hint struct{ k, what string }
	var hints []hint
	switch m.view {
	case viewCluster:
		hints = []hint{{"z", "zone"}, {"n", "node"}, {"t", "taint"}, {"c", "cordon"}, {"d", "drain"}, {"+/-", "scale"}, {"p", "pressure"}, {"x", "delete"}, {"e", "explain"}, {"u", "undo"}, {"tab", "panel"}, {"g", "group"}, {"i", "legend"}}
	case viewExplain:
		hints = []hint{{"j/k", "scroll"}, {"esc", "back"}, {"x", "delete pod"}}
	case viewTimeline:
		hints = []hint{{"j/k", "scroll"}, {"+/-", "zoom"}, {"esc", "back"}}
	case viewEvents:
		hints = []hint{{"/", "filter"}, {"j/k", "scroll"}, {"esc", "back"}}
	case viewEviction:
		hints = []hint{{"j/k", "node"}, {"p", "pressure"}, {"esc", "back"}}
	}
	hints = append(hints, hint{"␣", "play"}, hint{"[ ]", "speed"}, hint{":", "command"}, hint{"?", "help"}, hint{"q", "quit"})
	var parts []string
	for _, h := range hints {
		parts = append(parts, m.st.Key.Render(h.k)+" "+m.st.Muted.Render(h.what))
	}
	return fit(" "+strings.Join(parts, "  "), w)
}

// body draws the current view in w×h cells.
func (m *Model) body(w, h int) []string {
	switch m.view {
	case viewExplain:
		return m.explainView(w, h)
	case viewTimeline:
		return m.timelineView(w, h)
	case viewEviction:
		return m.evictionView(w, h)
	case viewEvents:
		return m.eventsView(w, h)
	}
	return m.clusterView(w, h)
}

// clusterView: the nodes, then workloads with the spread of the selected
// one, then pending pods; the lesson on the right when there is room.
func (m *Model) clusterView(w, h int) []string {
	mainW := w
	var side []string
	if m.lessonOpen && w >= 110 {
		sideW := min(46, w/3)
		mainW = w - sideW - 1
		side = m.memos.lessonSide.get(m.panelKey(sideW, h, 0, 0, 0), func() []string {
			return box(m.st, "lesson  < > steps · a apply · L hide", m.lessonLines(sideW-2), sideW, h, false)
		})
	}
	lessonH := 0
	var lessonBottom []string
	if m.lessonOpen && side == nil && h < 26 && m.sess.Lesson() != nil {
		// short terminals (80×24): the step and its checks on one line
		lessonH = 1
		lessonBottom = []string{m.memos.lesson.get(m.panelKey(mainW, 1, 0, 0, 0), func() []string { return []string{m.lessonBar(mainW)} })[0]}
	}
	if m.lessonOpen && side == nil && h >= 26 {
		ll := m.memos.lesson.get(m.panelKey(mainW, 0, 0, 0, 0), func() []string { return m.lessonLines(mainW - 2) })
		lessonH = min(len(ll)+2, 8)
		lessonBottom = box(m.st, "lesson  < > steps · a apply · L hide", ll, mainW, lessonH, false)
	}
	nPend := len(m.data.snap.Pending)
	pendH := 0
	if nPend > 0 {
		pendH = min(nPend, 3) + 2
	}
	nWl := max(len(m.data.workloads), 1)
	spread := m.memos.spread.get(m.panelKey(mainW, 0, 0, 0, 0), func() []string { return m.spreadLines(mainW - 34) })
	lowerH := min(max(nWl, len(spread))+2, 6)
	if h-lowerH-pendH-lessonH < 8 {
		lowerH = min(lowerH, 4)
		pendH = min(pendH, 3)
	}
	clusterH := h - lowerH - pendH - lessonH
	if need := m.clusterHeight(mainW); need < clusterH {
		// give the room the nodes do not need to the panels below
		spare := clusterH - need
		clusterH = need
		grow := min(spare, max(nWl, len(spread))+2-lowerH)
		if grow > 0 {
			lowerH += grow
			spare -= grow
		}
		if nPend > 0 {
			want := max(nPend, m.pendingWrapped(mainW-2))
			g := min(spare, want+2-pendH)
			if g > 0 {
				pendH += g
				spare -= g
			}
		}
		clusterH += spare
	}
	if clusterH < 5 {
		clusterH, lowerH, pendH, lessonH = h, 0, 0, 0
	}
	out := make([]string, 0, h)
	out = append(out, m.clusterLines(mainW, clusterH)...)
	if lowerH > 0 {
		wlW := min(34, mainW/2)
		from := windowStart(clamp(m.wlIdx, nWl), nWl, lowerH-2)
		// the body starts on the screen's second line; the rows are inside
		// the box's border
		m.wlRows = rowSpan{y: 1 + len(out) + 1, x0: 1, x1: wlW - 1, first: from, n: max(min(lowerH-2, len(m.data.workloads)-from), 0)}
		out = append(out, m.memos.lower.get(m.panelKey(mainW, lowerH, 0, 0, 0), func() []string {
			wlTitle := "workloads"
			spTitle := "spread"
			if wl, ok := m.selectedWorkload(); ok {
				spTitle = "spread · " + wl.Ref()
			}
			wlBox := box(m.st, wlTitle, m.workloadLines(wlW-4, from, from+lowerH-2), wlW, lowerH, m.focus == focusWorkloads)
			spBox := box(m.st, spTitle, spread, mainW-wlW-1, lowerH, false)
			return joinColumns([][]string{wlBox, spBox}, 1)
		})...)
	}
	if pendH > 0 {
		out = append(out, m.memos.pending.get(m.panelKey(mainW, pendH, 0, 0, 0), func() []string {
			title := fmt.Sprintf("pending (%d)  e explains the selected one", nPend)
			from := windowStart(clamp(m.pendIdx, nPend), nPend, pendH-2)
			return box(m.st, title, m.pendingLines(mainW-2, from, pendH-2), mainW, pendH, m.focus == focusPending)
		})...)
	}
	out = append(out, lessonBottom...)
	out = pad(out, mainW, h)
	if side != nil {
		return joinColumns([][]string{out, side}, 1)
	}
	return out
}

// windowStart is the first of n visible rows of a list of total rows that
// keeps row sel visible.
func windowStart(sel, total, n int) int {
	if n <= 0 || total <= n {
		return 0
	}
	return max(min(sel-n+1, total-n), 0)
}

// panelKey is the memo key of a panel of the given sizes (the node and
// pod selection are not part of it: only the node boxes show them).
func (m *Model) panelKey(w, h, w2, h2, h3 int) panelKey {
	return panelKey{stamp: m.data.stamp, wl: m.wlIdx, pend: m.pendIdx, focus: m.focus, view: m.view,
		w: w, h: h, w2: w2, h2: h2, h3: h3, st: m.st, wlGen: m.data.wlGen, layoutGen: m.data.layoutGen, step: m.sess.Step()}
}

// lessonBar is the lesson on one line: step, title, a mark per check.
func (m *Model) lessonBar(w int) string {
	l := m.sess.Lesson()
	i := m.sess.Step()
	marks := ""
	done := len(m.data.lesson) > 0
	for _, r := range m.data.lesson {
		switch {
		case r.Err != nil:
			marks += m.st.Warn.Render("!")
			done = false
		case r.OK:
			marks += m.st.OK.Render("✓")
		default:
			marks += m.st.Bad.Render("✗")
			done = false
		}
	}
	tail := m.st.Muted.Render("  a apply · < > steps · L hide")
	if done {
		tail = " " + m.st.OK.Render("all checks pass ✓") + m.st.Muted.Render("  > next · L hide")
	}
	return fit(m.st.Title.Render(fmt.Sprintf(" step %d/%d · %s ", i+1, len(l.Steps), l.Steps[i].Title))+marks+tail, w)
}
