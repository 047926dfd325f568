package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// View implements tea.Model. It only assembles what refresh() prepared.
func (m *Model) View() tea.View {
	frame := ""
	if m.busy != nil {
		frame = m.busyFrame()
	} else if m.drawn && m.lastFrame != "" {
		frame = m.lastFrame // a tick changed nothing visible
	} else {
		frame = m.render()
		m.lastFrame = frame
		m.drawn, m.drawnClock = true, m.clockText()
	}
	v := tea.NewView(frame)
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

// headerKey is everything the header shows: it is drawn again only when
// one of them changes (a keystroke leaves it as it was).
type headerKey struct {
	w, view, steps, step int
	st                   *Styles
	name, title, clock   string
	policy, lane, tabs   string
	seed                 int64
	lesson               bool
}

// headerMemo is the last header drawn, its key and the tab regions it
// recorded (added again to the frame's hits when it is reused).
type headerMemo struct {
	key  headerKey
	line string
	hits []hit
	ok   bool
}

// header is the top line, reused from the last frame when nothing it
// shows changed: styling and measuring it was a third of a frame's cost
// for a served session (docs/benchmarks.md, "Workshop server").
func (m *Model) header(w int) string {
	k := headerKey{w: w, view: m.view, st: m.st, clock: m.clockText(), seed: m.sess.Seed(),
		policy: m.sess.PolicyLabel(), lane: m.laneTag(), name: m.sess.File().Name}
	if sc := m.sess.File().Scenario; sc != nil {
		k.title = sc.Title
	}
	if l := m.sess.Lesson(); l != nil {
		k.lesson, k.step, k.steps = true, m.sess.Step(), len(l.Steps)
	}
	var tabs strings.Builder
	for _, v := range m.views {
		tabs.WriteString(v.Title())
		tabs.WriteByte(0)
	}
	k.tabs = tabs.String()
	hm := &m.headerMemo
	if hm.ok && hm.key == k {
		for _, h := range hm.hits {
			m.hits.add(h)
		}
		return hm.line
	}
	from := len(m.hits.hits)
	line := m.drawHeader(w)
	hm.key, hm.line, hm.ok = k, line, true
	hm.hits = append(hm.hits[:0], m.hits.hits[from:]...)
	return line
}

func (m *Model) drawHeader(w int) string {
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
	if p := m.sess.PolicyLabel(); p != "" { // a KubeSchedulerConfiguration is in force
		right = m.st.Muted.Render(p+"  ") + right
	}
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
	if at, present, ok := m.rewound(); ok && !m.statusErr {
		return m.rewindLine(w, at, present)
	}
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
		keys string
		w    int
		st   *Styles
		ov   overlay
		pal  bool
	}
	var keys []key.Binding
	if ov := m.overlay(); ov != nil {
		keys = ov.ShortHelp()
	} else {
		keys = append(m.views[m.view].ShortHelp(), m.global.ShortHelp()...)
	}
	// keyed on what the help line shows of each binding, not on every
	// setKeys call: a keystroke that leaves the bindings as they were
	// does not draw the footer again
	var sig strings.Builder
	for _, b := range keys {
		if b.Enabled() {
			h := b.Help()
			sig.WriteString(h.Key)
			sig.WriteByte(0)
			sig.WriteString(h.Desc)
		}
		sig.WriteByte(1)
	}
	k := footerKey{sig.String(), w, m.st, m.top, m.pal.open}
	return m.memos.footer.get(k, func() []string {
		m.help.SetWidth(w - 1)
		return []string{fit(" "+m.help.ShortHelpView(keys), w)}
	})[0]
}

// panelKey is the memo key of a panel of the given sizes (the node and
// pod selection are not part of it: only the node boxes show them).
func (m *Model) panelKey(w, h, w2, h2, h3 int) panelKey {
	return panelKey{stamp: m.data.stamp, wl: m.wlIdx, pend: m.pendIdx, focus: m.focus, view: m.view,
		w: w, h: h, w2: w2, h2: h2, h3: h3, st: m.st, wlGen: m.data.wlGen, layoutGen: m.data.layoutGen, step: m.sess.Step()}
}
