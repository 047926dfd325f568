package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// View implements tea.Model. It only assembles what refresh() prepared.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "podlab"
	return v
}

// render draws the whole screen as text, recording the regions a click
// can hit (m.hits).
func (m *Model) render() string {
	w, h := m.w, m.h
	m.hits.reset(w, h)
	if w == 0 || h == 0 {
		return "starting podlab…"
	}
	if w < minWidth || h < minHeight {
		msg := fmt.Sprintf("terminal too small: %d×%d — podlab needs at least %d×%d", w, h, minWidth, minHeight)
		return strings.Join(block(wrapText(msg, max(w, 1)), max(w, 1), max(h, 1)), "\n")
	}
	lines := make([]string, 0, h)
	lines = append(lines, m.header(w))
	m.hits.ox, m.hits.oy = 0, 1
	lines = append(lines, pad(m.views[m.view].View(w, m.bodyHeight()), w, m.bodyHeight())...)
	m.hits.ox, m.hits.oy = 0, 0
	lines = append(lines, m.statusLine(w), m.footer(w))
	if m.top != nil {
		ol, x, y := m.top.View(w, h)
		lines = drawOver(lines, ol, x, y)
	}
	if m.pal.open {
		ol, x, y := paletteOverlay{m}.View(w, h)
		lines = drawOver(lines, ol, x, y)
	}
	// every line is w cells by construction (fit, box, block): only the
	// count needs making exact
	return strings.Join(pad(lines, w, h), "\n")
}

func (m *Model) header(w int) string {
	title := "podlab"
	if sc := m.sess.File().Scenario; sc != nil && sc.Title != "" {
		title += " ▸ " + safe(sc.Title)
	} else {
		title += " ▸ " + safe(m.sess.File().Name)
	}
	step := ""
	if l := m.sess.Lesson(); l != nil {
		step = fmt.Sprintf(" · step %d/%d", m.sess.Step()+1, len(l.Steps))
	}
	right := m.st.Bold.Render(m.clockText()) + m.st.Muted.Render(fmt.Sprintf("  seed %d", m.sess.Seed()))
	if tag := m.laneTag(); tag != "" {
		right = m.st.Accent.Render(tag) + "  " + right
	}
	left := m.st.Title.Render(title + step)
	rw := cellWidth(right)
	// tabs: every view named when there is room, else only the current one
	// named and the others by their number; the title gives way first
	for _, full := range []bool{true, false} {
		var tabs []string
		var widths []int
		for i, v := range m.views {
			t := fmt.Sprintf("%d %s", i+1, v.Title())
			if !full && i != m.view {
				t = fmt.Sprint(i + 1)
			}
			widths = append(widths, cellWidth(t))
			if i == m.view {
				tabs = append(tabs, m.st.Selected.Render(t))
			} else {
				tabs = append(tabs, m.st.Muted.Render(t))
			}
		}
		mid := strings.Join(tabs, " ")
		mw := cellWidth(mid)
		lw := cellWidth(left)
		// the title shrinks to make room: named tabs only while it keeps
		// 40 cells (the scenario's name reads), numbered ones down to 8
		minTitle := 8
		if full {
			minTitle = min(lw, 40)
		}
		lw = min(lw, max(w-rw-mw-4, minTitle))
		if space := w - lw - rw - 2; space >= mw+2 {
			pad := space - mw
			l := left
			if lw < cellWidth(left) {
				// the title gives way, the lesson step stays
				l = m.st.Title.Render(fit(title, max(lw-cellWidth(step), 1)) + step)
			}
			x := lw + pad/2
			for i, tw := range widths {
				m.hits.add(hit{x0: x, x1: x + tw, y0: 0, y1: 1, kind: hitTab, index: i})
				x += tw + 1
			}
			return fit(fit(l, lw)+strings.Repeat(" ", pad/2)+mid+strings.Repeat(" ", pad-pad/2)+"  "+right, w)
		}
	}
	avail := w - rw - 1
	return fit(fit(left, max(avail, 0))+" "+right, w)
}

func (m *Model) statusLine(w int) string {
	if m.status == "" {
		c := m.data.snap.Counts
		return fit(m.st.Muted.Render(fmt.Sprintf(" %d nodes · %d running · %d pending · %d starting · %d terminating",
			c.Nodes, c.Running, c.Pending, c.Starting, c.Terminating)), w)
	}
	if m.statusErr {
		return fit(m.st.Bad.Render(" ✗ "+safe(m.status)), w)
	}
	return fit(m.st.OK.Render(" "+safe(m.status)), w)
}

// footer is the short help of the focused component (the open overlay,
// else the current view, then the global keys), drawn by bubbles/help
// from the same bindings the component matches.
func (m *Model) footer(w int) string {
	type footerKey struct {
		gen, w int
		st     *Styles
		ov     overlay
		pal    bool
	}
	k := footerKey{m.keysGen, w, m.st, m.top, m.pal.open}
	return m.memos.footer.get(k, func() []string {
		var keys []key.Binding
		if ov := m.overlay(); ov != nil {
			keys = ov.ShortHelp()
		} else {
			keys = append(m.views[m.view].ShortHelp(), m.global.ShortHelp()...)
		}
		m.help.SetWidth(w - 1)
		return []string{fit(" "+m.help.ShortHelpView(keys), w)}
	})[0]
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
	m.hits.add(hit{x0: 0, y0: 0, x1: mainW, y1: clusterH, kind: hitPanel, focus: focusNodes})
	out = append(out, m.clusterLines(mainW, clusterH)...)
	if lowerH > 0 {
		wlW := min(34, mainW/2)
		from := windowStart(clamp(m.wlIdx, nWl), nWl, lowerH-2)
		y := len(out)
		m.hits.add(hit{x0: 0, y0: y, x1: wlW, y1: y + lowerH, kind: hitPanel, focus: focusWorkloads})
		// the rows are inside the box's border
		for i := 0; i < min(lowerH-2, len(m.data.workloads)-from); i++ {
			m.hits.add(hit{x0: 1, y0: y + 1 + i, x1: wlW - 1, y1: y + 2 + i, kind: hitWorkload, index: from + i})
		}
		out = append(out, m.memos.lower.get(m.panelKey(mainW, lowerH, 0, 0, 0), func() []string {
			wlTitle := "workloads"
			spTitle := "spread"
			if wl, ok := m.selectedWorkload(); ok {
				spTitle = "spread · " + safe(wl.Ref())
			}
			wlBox := box(m.st, wlTitle, m.workloadLines(wlW-4, from, from+lowerH-2), wlW, lowerH, m.focus == focusWorkloads)
			spBox := box(m.st, spTitle, spread, mainW-wlW-1, lowerH, false)
			return joinColumns([][]string{wlBox, spBox}, 1)
		})...)
	}
	if pendH > 0 {
		m.hits.add(hit{x0: 0, y0: len(out), x1: mainW, y1: len(out) + pendH, kind: hitPanel, focus: focusPending})
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
	return fit(m.st.Title.Render(fmt.Sprintf(" step %d/%d · %s ", i+1, len(l.Steps), safe(l.Steps[i].Title)))+marks+tail, w)
}
