package ui

import (
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab/command"
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
	keys    paletteKeys
	// hint is the usage line last drawn and the verb words and styles it
	// was drawn for: typing a command's arguments does not redraw it.
	hint struct {
		verb, line string
		st         *Styles
	}
}

func newPalette() palette {
	in := textinput.New()
	in.Prompt = ": "
	in.CharLimit = 4096
	return palette{in: in, keys: newPaletteKeys()}
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

// paletteKeys are the palette's own keys; any other key edits the line.
type paletteKeys struct {
	Run, Close, Complete, Prev, Next key.Binding
}

func newPaletteKeys() paletteKeys {
	return paletteKeys{
		Run:      bind("enter", "run", "enter"),
		Close:    bind("esc", "close", "esc", "ctrl+c"),
		Complete: bind("tab", "complete", "tab"),
		Prev:     bind("↑", "history", "up"),
		Next:     bind("↓", "history", "down"),
	}
}

// paletteOverlay is the palette as an overlay (the palette's state lives
// in Model.pal: its history outlives its openings).
type paletteOverlay struct{ m *Model }

// ShortHelp implements help.KeyMap.
func (o paletteOverlay) ShortHelp() []key.Binding {
	k := &o.m.pal.keys
	return []key.Binding{k.Run, k.Complete, k.Prev, k.Next, k.Close}
}

// FullHelp implements help.KeyMap.
func (o paletteOverlay) FullHelp() [][]key.Binding { return [][]key.Binding{o.ShortHelp()} }

// SetKeys implements overlay: completion and history in command mode.
func (o paletteOverlay) SetKeys() {
	p := &o.m.pal
	cmd := p.mode == modeCommand
	p.keys.Complete.SetEnabled(cmd)
	p.keys.Prev.SetEnabled(cmd && p.hpos > 0)
	p.keys.Next.SetEnabled(cmd && p.hpos < len(p.history))
}

// View implements overlay: the palette sits above the status line.
func (o paletteOverlay) View(w, h int) ([]string, int, int) {
	body := o.m.paletteLines(w - 4)
	pl := box(o.m.st, paletteTitle(o.m.pal.mode), body, w-2, min(len(body)+2, h-2), true)
	return pl, 1, h - 2 - len(pl)
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

// Update implements overlay: a key while the palette is open. The
// palette closes itself (it is not m.top).
func (o paletteOverlay) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	m := o.m
	p := &m.pal
	k := &p.keys
	switch {
	case key.Matches(msg, k.Close):
		p.close()
		m.quitAfterSave = false // the quit question's save, given up
		return nil, true
	case key.Matches(msg, k.Run):
		line := strings.TrimSpace(p.in.Value())
		switch p.mode {
		case modeCommand:
			if line == "" {
				p.close()
				return nil, true
			}
			if len(p.history) == 0 || p.history[len(p.history)-1] != line {
				p.history = append(p.history, line)
			}
			if f := strings.Fields(line); len(f) == 1 && (f[0] == "undo" || f[0] == "redo") {
				// replays: off the UI goroutine, the result in the status line
				p.close()
				return m.applyLong(line), true
			}
			if isLongAdvance(line) {
				p.close()
				return m.advanceLong(line), true
			}
			if err := m.apply(line); err != nil {
				// the palette stays open with the line and the error
				p.err = err.Error()
				return nil, false
			}
			p.close()
		case modeOpen:
			p.close()
			return m.confirmReplace(line, func() tea.Cmd { return m.openFileCmd(line) }), true
		case modeSave:
			p.close()
			return m.saveCmd(line, false), true
		case modeFilter:
			p.close()
			if ev, i := viewIndex[*eventsView](m); i >= 0 {
				ev.setFilter(line)
			}
		}
		return nil, true
	case key.Matches(msg, k.Prev):
		p.hpos--
		p.in.SetValue(p.history[p.hpos])
		p.in.CursorEnd()
		return nil, false
	case key.Matches(msg, k.Next):
		p.hpos++
		if p.hpos == len(p.history) {
			p.in.SetValue("")
		} else {
			p.in.SetValue(p.history[p.hpos])
		}
		p.in.CursorEnd()
		return nil, false
	case key.Matches(msg, k.Complete):
		m.complete()
		return nil, false
	}
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	p.err = ""
	p.cands = nil
	return cmd, false
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
		h := &p.hint
		if v := hintWords(p.in.Value()); h.st != m.st || h.verb != v || h.line == "" {
			h.verb, h.st, h.line = v, m.st, m.st.Muted.Render(m.usageHint(v))
		}
		lines = append(lines, h.line)
	}
	return lines
}

// maxVerbWords is the most words a verb's name has ("rollout undo": 2).
var maxVerbWords = sync.OnceValue(func() int {
	n := 1
	for _, v := range command.Verbs() {
		n = max(n, len(strings.Fields(v.Name)))
	}
	return n
})

// hintWords is the part of a command line its usage hint depends on: the
// words that can name a verb (usageHint reads no further).
func hintWords(line string) string {
	f := strings.Fields(line)
	return strings.Join(f[:min(len(f), maxVerbWords())], " ")
}
