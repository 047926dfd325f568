package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"podlab.dev/podlab/lab"
)

// picker chooses a preset (ctrl+p).
type picker struct {
	m     *Model
	items []lab.PresetInfo
	sel   int
	keys  pickerKeys
}

type pickerKeys struct {
	Up, Down, Open, Close key.Binding
}

func newPicker(m *Model) *picker {
	p := &picker{m: m, items: lab.Presets(), keys: pickerKeys{
		Up:    bind("↑/k", "up", "up", "k"),
		Down:  bind("↓/j", "down", "down", "j"),
		Open:  bind("enter", "open", "enter"),
		Close: bind("esc", "cancel", "esc", "q"),
	}}
	for i, it := range p.items {
		if sc := m.sess.File().Scenario; sc != nil && it.Name == sc.Name {
			p.sel = i
		}
	}
	return p
}

// ShortHelp implements help.KeyMap.
func (p *picker) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Down, p.keys.Up, p.keys.Open, p.keys.Close, quitKey}
}

// FullHelp implements help.KeyMap.
func (p *picker) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

// SetKeys implements overlay.
func (p *picker) SetKeys() {
	p.keys.Up.SetEnabled(p.sel > 0)
	p.keys.Down.SetEnabled(p.sel < len(p.items)-1)
	p.keys.Open.SetEnabled(len(p.items) > 0)
}

// Update implements overlay.
func (p *picker) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &p.keys
	switch {
	case key.Matches(msg, quitKey):
		return p.m.requestQuit(), true
	case key.Matches(msg, k.Close):
		return nil, true
	case key.Matches(msg, k.Up):
		p.sel = max(p.sel-1, 0)
	case key.Matches(msg, k.Down):
		p.sel = min(p.sel+1, len(p.items)-1)
	case key.Matches(msg, k.Open):
		name := p.items[p.sel].Name
		p.m.top = nil
		return p.m.confirmReplace(name, func() tea.Cmd {
			f, err := lab.LoadPreset(name)
			return p.m.finishOpen(fileLoadedMsg{path: name, file: f, err: err})
		}), true
	}
	return nil, false
}

// View implements overlay.
func (p *picker) View(w, h int) ([]string, int, int) {
	m := p.m
	bw := overlayWidth(100, w)
	var lines []string
	for i, it := range p.items {
		mark := "  "
		name := fmt.Sprintf("%-28s", safe(it.Name))
		if i == p.sel {
			mark = "▸ "
			name = m.st.Selected.Render(name)
		}
		lines = append(lines, mark+name+" "+safe(it.Title))
	}
	lines = append(lines, "")
	if p.sel < len(p.items) {
		for _, l := range wrapText(safe(strings.TrimSpace(p.items[p.sel].Description)), bw-4) {
			lines = append(lines, m.st.Muted.Render(l))
		}
		lines = append(lines, m.st.Muted.Render(fmt.Sprintf("%d lesson steps", p.items[p.sel].Steps)))
	}
	lines = append(lines, "", m.st.Muted.Render("enter opens · esc cancels · the current session is replaced (ctrl+s saves it first)"))
	b := box(m.st, "presets", lines, bw, min(len(lines)+2, h-4), true)
	return b, (w - bw) / 2, 2
}

type fileLoadedMsg struct {
	path string
	file *lab.File
	err  error
}

// openFileCmd reads and parses a file off the UI loop, as a long
// operation (busy.go): a big import's progress shows in the status line
// until its fileLoadedMsg arrives. The progress callback runs on the
// loading goroutine and only sends a message (send is nil in tests).
func (m *Model) openFileCmd(path string) tea.Cmd {
	what := "opening " + filepath.Base(path) // the bar needs the room
	send := m.send
	b := &busy{what: what, since: time.Now()}
	b.op = func() tea.Msg {
		var progress func(done, total int)
		if send != nil {
			progress = func(done, total int) { send(progressMsg{what: what, done: done, total: total}) }
		}
		f, err := lab.OpenOrPresetWithProgress(path, nil, progress)
		return fileLoadedMsg{path: path, file: f, err: err}
	}
	m.busy = b
	return b.op
}

// finishOpen replaces the session. On error the lab keeps its state and
// the open palette comes back with the path and every diagnostic (the
// status line has room for the first one only), as the command palette
// keeps a failed command.
func (m *Model) finishOpen(msg fileLoadedMsg) tea.Cmd {
	fail := func(verb string, err error) tea.Cmd {
		m.finishRestore(false)
		m.setStatus(fmt.Sprintf("could not %s %s — the lab keeps its current state: %v", verb, msg.path, firstLine(err.Error())), true)
		cmd := m.pal.start(modeOpen, msg.path)
		m.pal.err = err.Error() + "\nThe lab keeps its current state: fix the file and press enter again, or esc."
		return cmd
	}
	if msg.err != nil {
		return fail("open", msg.err)
	}
	sess, fork, err := lab.OpenSession(msg.file, lab.SessionOptions{})
	if err != nil {
		return fail("load", err)
	}
	if err := resume(sess, fork); err != nil {
		return fail("load", err)
	}
	m.adopt(sess)
	m.adoptFork(fork)
	m.setStatus("opened "+msg.path, false)
	m.finishRestore(true)
	m.refresh()
	return nil
}

func firstLine(s string) string {
	first, rest, _ := strings.Cut(s, "\n")
	if rest != "" {
		return first + fmt.Sprintf(" (and %d more)", strings.Count(rest, "\n")+1)
	}
	return first
}
