package ui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

type paletteMode int

const (
	modeCommand paletteMode = iota
	modeOpen
	modeSave
	modeFilter
)

var modePrompts = map[paletteMode]string{
	modeCommand: ": ",
	modeOpen:    "open file: ",
	modeSave:    "save session as: ",
	modeFilter:  "filter events: ",
}

// palette is the `:` command line with completion, history and inline errors.
type palette struct {
	open    bool
	mode    paletteMode
	in      textinput.Model
	history []string
	hpos    int
	err     string
	cands   []string
}

func newPalette() palette {
	in := textinput.New()
	in.Prompt = ": "
	in.CharLimit = 4096
	return palette{in: in}
}

func (p *palette) start(mode paletteMode, value string) tea.Cmd {
	p.open, p.mode, p.err, p.cands = true, mode, "", nil
	p.in.Prompt = modePrompts[mode]
	p.in.SetValue(value)
	p.in.CursorEnd()
	p.hpos = len(p.history)
	return p.in.Focus()
}

func (p *palette) close() {
	p.open = false
	p.in.Blur()
	p.err, p.cands = "", nil
}

// handlePaletteKey processes a key while the palette is open.
func (m *Model) handlePaletteKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	p := &m.pal
	switch msg.String() {
	case "esc", "ctrl+c":
		p.close()
		return m, nil
	case "enter":
		line := strings.TrimSpace(p.in.Value())
		switch p.mode {
		case modeCommand:
			if line == "" {
				p.close()
				return m, nil
			}
			if len(p.history) == 0 || p.history[len(p.history)-1] != line {
				p.history = append(p.history, line)
			}
			if err := m.apply(line); err != nil {
				// the palette stays open with the line and the error
				p.err = err.Error()
				return m, nil
			}
			p.close()
		case modeOpen:
			p.close()
			return m, m.openFileCmd(line)
		case modeSave:
			p.close()
			return m, m.saveCmd(line)
		case modeFilter:
			m.eventFilter = line
			m.scroll[viewEvents] = 0
			p.close()
			m.updateEvents()
		}
		return m, nil
	case "up":
		if p.mode == modeCommand && p.hpos > 0 {
			p.hpos--
			p.in.SetValue(p.history[p.hpos])
			p.in.CursorEnd()
		}
		return m, nil
	case "down":
		if p.mode == modeCommand && p.hpos < len(p.history) {
			p.hpos++
			if p.hpos == len(p.history) {
				p.in.SetValue("")
			} else {
				p.in.SetValue(p.history[p.hpos])
			}
			p.in.CursorEnd()
		}
		return m, nil
	case "tab":
		if p.mode == modeCommand {
			m.complete()
		}
		return m, nil
	}
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	p.err = ""
	p.cands = nil
	return m, cmd
}

// complete extends the word under the cursor with the common prefix of
// its candidates, and lists them.
func (m *Model) complete() {
	p := &m.pal
	line := p.in.Value()
	start, cands := m.sess.Complete(line)
	p.cands = cands
	if len(cands) == 0 {
		return
	}
	prefix := cands[0]
	for _, c := range cands[1:] {
		for !strings.HasPrefix(c, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if len(prefix) > len(line)-start {
		add := prefix
		if len(cands) == 1 && !strings.HasSuffix(add, "=") && !strings.HasSuffix(add, "/") {
			add += " "
		}
		p.in.SetValue(line[:start] + add)
		p.in.CursorEnd()
	}
}

// paletteLines renders the palette (input, then error or candidates).
func (m *Model) paletteLines(w int) []string {
	p := &m.pal
	p.in.SetWidth(max(w-cellWidth(p.in.Prompt)-2, 10))
	lines := []string{p.in.View()}
	switch {
	case p.err != "":
		for _, l := range strings.Split(safeText(p.err), "\n") {
			for _, l := range wrapText(l, w-2) {
				lines = append(lines, m.st.Bad.Render(l))
			}
		}
	case len(p.cands) > 1:
		lines = append(lines, m.st.Muted.Render(safe(strings.Join(p.cands, "  "))))
	case p.mode == modeCommand:
		lines = append(lines, m.st.Muted.Render(m.usageHint(p.in.Value())))
	}
	return lines
}
