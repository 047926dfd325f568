package ui

import (
	"fmt"

	"podlab.dev/podlab/lab"
)

// The cluster view's layout: how the screen is shared between the node
// boxes, the workloads and spread, the pending pods, the latest events
// and the lesson, by what each needs and the room there is.

// render draws the cluster view: the nodes, then workloads with the spread of the selected
// one, then pending pods; the lesson on the right when there is room.
func (v *clusterView) render(w, h int) []string {
	m := v.m
	mainW := w
	var side []string
	if m.lessonOpen && w >= 110 {
		// the lesson widens with the screen (46 cells at 160, 66 at 200)
		sideW := min(46+max(w-160, 0)/2, w/3)
		mainW = w - sideW - 1
		side = m.memos.lessonSide.get(m.panelKey(sideW, h, 0, 0, 0), func() []string {
			return box(m.st, "lesson  < > steps · a apply · L hide", v.lessonLines(sideW-2), sideW, h, false)
		})
	}
	lessonH := 0
	var lessonBottom []string
	if m.lessonOpen && side == nil && h < 26 && m.sess.Lesson() != nil {
		// short terminals (80×24): the step and its checks on one line
		lessonH = 1
		lessonBottom = []string{m.memos.lesson.get(m.panelKey(mainW, 1, 0, 0, 0), func() []string { return []string{v.lessonBar(mainW)} })[0]}
	}
	if m.lessonOpen && side == nil && h >= 26 {
		ll := m.memos.lesson.get(m.panelKey(mainW, 0, 0, 0, 0), func() []string { return v.lessonLines(mainW - 2) })
		lessonH = min(len(ll)+2, 8)
		lessonBottom = box(m.st, "lesson  < > steps · a apply · L hide", ll, mainW, lessonH, false)
	}
	nPend := len(m.data.snap.Pending)
	pendH, eventsH := 0, 0
	if nPend > 0 {
		pendH = min(nPend, 3) + 2
	}
	nWl := max(len(m.data.workloads), 1)
	spread := m.memos.spread.get(m.panelKey(mainW, 0, 0, 0, 0), func() []string { return v.spreadLines(mainW-34, false) })
	lowerH := min(max(nWl, len(spread))+2, 6)
	if h-lowerH-pendH-lessonH < 8 {
		lowerH = min(lowerH, 4)
		pendH = min(pendH, 3)
	}
	clusterH := h - lowerH - pendH - lessonH
	if need := v.clusterHeight(mainW, clusterH); need < clusterH {
		// give the room the nodes do not need to the panels below
		spare := clusterH - need
		clusterH = need
		grow := min(spare, max(nWl, len(spread))+2-lowerH)
		if grow > 0 {
			lowerH += grow
			spare -= grow
		}
		if nPend > 0 {
			want := max(nPend, v.pendingWrapped(mainW-2))
			g := min(spare, want+2-pendH)
			if g > 0 {
				pendH += g
				spare -= g
			}
		}
		// room left: the spread as one bar per domain, as long as fits
		if spare > 0 && lowerH > 0 {
			tall := m.memos.spreadTall.get(m.panelKey(mainW, 0, 0, 0, 0), func() []string { return v.spreadLines(mainW-34, true) })
			if g := len(tall) + 2 - lowerH; g > 0 && g <= spare {
				lowerH += g
				spare -= g
				spread = tall
			}
		}
		// room still left: the latest events under the panels
		if spare >= 6 {
			eventsH = min(spare, 12)
			spare -= eventsH
		}
		clusterH += spare
	}
	if clusterH < 5 {
		clusterH, lowerH, pendH, lessonH, eventsH = h, 0, 0, 0, 0
	}
	out := make([]string, 0, h)
	m.hits.add(hit{x0: 0, y0: 0, x1: mainW, y1: clusterH, kind: hitPanel, focus: focusNodes})
	out = append(out, v.clusterLines(mainW, clusterH)...)
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
			wlBox := box(m.st, wlTitle, v.workloadLines(wlW-4, from, from+lowerH-2), wlW, lowerH, m.focus == focusWorkloads)
			spBox := box(m.st, spTitle, spread, mainW-wlW-1, lowerH, false)
			return joinColumns([][]string{wlBox, spBox}, 1)
		})...)
	}
	if pendH > 0 {
		y := len(out)
		m.hits.add(hit{x0: 0, y0: y, x1: mainW, y1: y + pendH, kind: hitPanel, focus: focusPending})
		out = append(out, m.memos.pending.get(m.panelKey(mainW, pendH, 0, 0, 0), func() []string {
			title := fmt.Sprintf("pending (%d)  e explains the selected one", nPend)
			from := windowStart(clamp(m.pendIdx, nPend), nPend, pendH-2)
			lines, owners := v.pendingLines(mainW-2, from, pendH-2)
			v.pendingOwners = owners // drawn with the memo: they agree
			return box(m.st, title, lines, mainW, pendH, m.focus == focusPending)
		})...)
		for k, i := range v.pendingOwners[:min(len(v.pendingOwners), pendH-2)] {
			m.hits.add(hit{x0: 1, y0: y + 1 + k, x1: mainW - 1, y1: y + 2 + k, kind: hitPending, index: i})
		}
	}
	if eventsH > 0 {
		out = append(out, m.memos.recent.get(m.panelKey(mainW, eventsH, 0, 0, 0), func() []string {
			return box(m.st, "latest events  5 lists them all", v.recentEvents(mainW-2, eventsH-2), mainW, eventsH, false)
		})...)
	}
	out = append(out, lessonBottom...)
	out = pad(out, mainW, h)
	if side != nil {
		return joinColumns([][]string{out, side}, 1)
	}
	return out
}

// recentEvents is the last n events, newest last, one line each.
func (v *clusterView) recentEvents(w, n int) []string {
	m := v.m
	all := m.data.snap.Events
	var out []string
	for _, e := range all[max(len(all)-n, 0):] {
		reason := safe(e.Reason)
		if e.Type == lab.EventWarning {
			reason = m.st.Warn.Render(reason)
		}
		out = append(out, fit(fmt.Sprintf("%-7s %s %s %s", e.Time.String(), reason, safe(e.Object), m.st.Muted.Render(safe(e.Message))), w))
	}
	if len(out) == 0 {
		out = append(out, m.st.Muted.Render("no events yet"))
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

// lessonBar is the lesson on one line: step, title, a mark per check.
func (v *clusterView) lessonBar(w int) string {
	m := v.m
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
