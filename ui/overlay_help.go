package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/assets"
)

// helpOverlay is the ? overlay: the current view's bindings and the
// global ones, each group drawn by bubbles/help from the very bindings
// the components match (disabled ones are left out), then what the mouse
// and the glyphs do. It scrolls (bubbles/viewport) when taller than the
// screen.
type helpOverlay struct {
	m    *Model
	keys helpKeys
	vp   viewport.Model
	// the state the viewport's content was built for
	built helpState
	bw    int
	// drawn is the last box drawn and what it was drawn for
	drawn memo
}

// helpState is what the help's content depends on.
type helpState struct {
	w, h, keysGen, view int
	st                  *Styles
}

type helpKeys struct {
	scrollKeys
	Close key.Binding
}

func newHelpOverlay(m *Model) *helpOverlay {
	k := helpKeys{scrollKeys: newScrollKeys(), Close: bind("esc", "close", "esc", "?", "q")}
	o := &helpOverlay{m: m, keys: k, vp: viewport.New()}
	o.layout(m.w, m.h)
	return o
}

// ShortHelp implements help.KeyMap.
func (o *helpOverlay) ShortHelp() []key.Binding {
	return []key.Binding{o.keys.Down, o.keys.Up, o.keys.Close, quitKey}
}

// FullHelp implements help.KeyMap.
func (o *helpOverlay) FullHelp() [][]key.Binding {
	quit := quitKey
	return fullHelp([]keyGroup{{"Help", append(o.keys.all(), &o.keys.Close, &quit)}})
}

// SetKeys implements overlay: the scroll keys only when it scrolls.
func (o *helpOverlay) SetKeys() {
	o.layout(o.m.w, o.m.h)
	o.keys.setEnabled(o.vp.YOffset(), max(o.vp.TotalLineCount()-o.vp.Height(), 0))
}

// Update implements overlay.
func (o *helpOverlay) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if key.Matches(msg, quitKey) {
		return o.m.requestQuit(), true
	}
	if d, ok := o.keys.delta(msg, o.vp.Height()); ok {
		o.vp.SetYOffset(o.vp.YOffset() + max(min(d, 1<<20), -1<<20))
		return nil, false
	}
	return nil, key.Matches(msg, o.keys.Close)
}

// View implements overlay: a box over the views, the full width of the
// screen when the help needs nearly all of it (so no border of the view
// below shows beside it), else centred.
func (o *helpOverlay) View(w, h int) ([]string, int, int) {
	o.layout(w, h)
	type drawnKey struct {
		st  helpState
		off int
	}
	b := o.drawn.get(drawnKey{o.built, o.vp.YOffset()}, func() []string {
		title := "help · " + o.m.views[o.m.view].Title()
		if over := o.vp.TotalLineCount() - o.vp.Height(); over > 0 {
			title += fmt.Sprintf(" · j/k scroll · %d more lines", over-o.vp.YOffset())
		}
		return box(o.m.st, title, strings.Split(o.vp.View(), "\n"), o.bw, o.vp.Height()+2, true)
	})
	return b, (w - o.bw) / 2, 1
}

// layout builds the content for a w×h screen, once per size and state
// (the keys' enabled set: Model.keysGen).
func (o *helpOverlay) layout(w, h int) {
	st := helpState{w: w, h: h, keysGen: o.m.keysGen, view: o.m.view, st: o.m.st}
	if st == o.built {
		return
	}
	o.built = st
	lines := o.content(min(w, 120) - 4)
	width := 0
	for _, l := range lines {
		width = max(width, cellWidth(l))
	}
	bw := overlayWidth(width+4, w)
	bh := min(len(lines)+2, h-2)
	o.bw = bw
	o.vp.SetWidth(bw - 2)
	o.vp.SetHeight(max(bh-2, 1))
	o.vp.SetContentLines(lines)
}

// content is the help's lines in w cells: the key groups side by side as
// they fit, then the mouse, the glyphs and the concept cards.
func (o *helpOverlay) content(w int) []string {
	m := o.m
	var blocks [][]string
	for _, g := range helpGroups(m) {
		var bs []key.Binding
		for _, b := range g.keys {
			if b.Enabled() {
				bs = append(bs, *b)
			}
		}
		if len(bs) == 0 {
			continue
		}
		body := strings.Split(m.help.FullHelpView([][]key.Binding{bs}), "\n")
		blocks = append(blocks, append([]string{m.st.Heading.Render(g.name)}, body...))
	}
	lines := packBlocks(blocks, w, 3)
	lines = append(lines, "")
	for _, l := range []string{
		"Mouse: click a tab to switch view, a node or a pod glyph to select it; the wheel scrolls what is under it.",
		"Pods: " + glyphRunning + " running  " + glyphStarting + " starting  " + glyphPending + " pending  " + glyphTerminating + " terminating  " +
			glyphEvicting + " being evicted  " + glyphFailed + " failed  " + glyphNominated + " nominated.  Nodes: ⊘ cordoned  ⚑ tainted  ⚠ memory pressure.",
		"Every quick key fills the command palette with the command it stands for, so you learn the language; `podlab help` lists the headless commands.",
	} {
		lines = append(lines, wrapText(l, w)...)
	}
	if len(lines)+8 < m.h-4 {
		lines = append(lines, "", m.st.Heading.Render("Concepts"))
		for _, c := range assets.Cards() {
			if len(lines) > m.h-8 {
				break
			}
			lines = append(lines, fit("  "+c.Title+": "+firstSentence(c.Body), w))
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// helpGroups are the key groups the ? overlay shows: the current view's,
// then the global ones.
func helpGroups(m *Model) []keyGroup {
	var out []keyGroup
	v := m.views[m.view]
	if g, ok := v.(interface{ groups() []keyGroup }); ok {
		out = append(out, g.groups()...)
	} else {
		// a view without named groups: its FullHelp under its title
		for _, col := range v.FullHelp() {
			g := keyGroup{name: v.Title()}
			for i := range col {
				g.keys = append(g.keys, &col[i])
			}
			out = append(out, g)
		}
	}
	return append(out, m.global.groups()...)
}

// packBlocks lays blocks of lines out left to right, as many per row as
// fit in w cells with gap cells between them, rows one under another.
func packBlocks(blocks [][]string, w, gap int) []string {
	var out []string
	var row [][]string
	rowW := 0
	flush := func() {
		if len(row) == 0 {
			return
		}
		h := 0
		widths := make([]int, len(row))
		for i, b := range row {
			h = max(h, len(b))
			for _, l := range b {
				widths[i] = max(widths[i], cellWidth(l))
			}
		}
		for y := 0; y < h; y++ {
			var sb strings.Builder
			for i, b := range row {
				if i > 0 {
					sb.WriteString(strings.Repeat(" ", gap))
				}
				l := ""
				if y < len(b) {
					l = b[y]
				}
				sb.WriteString(fit(l, widths[i]))
			}
			out = append(out, sb.String())
		}
		out = append(out, "")
		row, rowW = nil, 0
	}
	for _, b := range blocks {
		bw := 0
		for _, l := range b {
			bw = max(bw, cellWidth(l))
		}
		if len(row) > 0 && rowW+gap+bw > w {
			flush()
		}
		if len(row) > 0 {
			rowW += gap
		}
		row = append(row, b)
		rowW += bw
	}
	flush()
	if len(out) > 0 {
		out = out[:len(out)-1]
	}
	return out
}

func firstSentence(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i+1]
	}
	return s
}
