package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"podlab.dev/podlab/assets"
	"podlab.dev/podlab/lab"
)

// helpBox is the full help overlay (?), with the concept cards when there
// is room.
func (m *Model) helpBox(w, h int) []string {
	if c := m.helpCache; c.w == w && c.h == h && c.st == m.st && c.scroll == m.helpScroll {
		return c.lines
	}
	raw := strings.Split(strings.TrimRight(assets.Help(), "\n"), "\n")
	bw := 0
	for _, l := range raw {
		bw = max(bw, ansi.StringWidth(l))
	}
	bw = min(bw+4, w-2)
	// narrow terminals: wrap long lines under their text column (the
	// help's labels are 15 cells wide)
	var lines []string
	for _, l := range raw {
		if ansi.StringWidth(l) <= bw-2 {
			lines = append(lines, l)
			continue
		}
		indent := 0
		if len(l) > 15 && strings.TrimSpace(l[:15]) != "" || strings.HasPrefix(l, strings.Repeat(" ", 15)) {
			indent = 15
		}
		for i, part := range wrapText(strings.TrimSpace(l[indent:]), max(bw-2-indent, 10)) {
			part = strings.TrimRight(part, " ")
			if i == 0 {
				lines = append(lines, l[:indent]+part)
			} else {
				lines = append(lines, strings.Repeat(" ", indent)+part)
			}
		}
	}
	if h-2 > len(lines)+8 {
		lines = append(lines, "", "Concepts")
		for _, c := range assets.Cards() {
			if len(lines) > h-6 {
				break
			}
			lines = append(lines, "  "+c.Title+": "+firstSentence(c.Body))
		}
	}
	lines = append(lines, "", "any key closes this help")
	bh := min(len(lines)+2, h-2)
	title := "help"
	if over := len(lines) - (bh - 2); over > 0 {
		m.helpScroll = min(m.helpScroll, over)
		lines = lines[m.helpScroll:]
		title = fmt.Sprintf("help · j/k scroll · %d more lines", over-m.helpScroll)
	}
	out := box(m.st, title, lines, bw, bh, true)
	m.helpCache = helpCache{w: w, h: h, st: m.st, scroll: m.helpScroll, lines: out}
	return out
}

// helpCache is the rendered help box for one size and theme.
type helpCache struct {
	w, h   int
	scroll int
	st     *Styles
	lines  []string
}

func firstSentence(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i+1]
	}
	return s
}

// picker chooses a preset.
type picker struct {
	items []lab.PresetInfo
	sel   int
}

func (m *Model) openPicker() {
	m.picker = &picker{items: lab.Presets()}
	for i, p := range m.picker.items {
		if sc := m.sess.File().Scenario; sc != nil && p.Name == sc.Name {
			m.picker.sel = i
		}
	}
}

func (m *Model) pickerBox(w, h int) []string {
	p := m.picker
	bw := min(w-4, 100)
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
	return box(m.st, "presets", lines, bw, min(len(lines)+2, h-4), true)
}

func (m *Model) handlePickerKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	p := m.picker
	switch msg.String() {
	case "esc", "q":
		m.picker = nil
	case "up", "k":
		p.sel = max(p.sel-1, 0)
	case "down", "j":
		p.sel = min(p.sel+1, len(p.items)-1)
	case "enter":
		if len(p.items) > 0 {
			name := p.items[p.sel].Name
			m.picker = nil
			f, err := lab.LoadPreset(name)
			return m, m.finishOpen(fileLoadedMsg{path: name, file: f, err: err})
		}
	case "ctrl+c":
		return m, tea.Quit
	}
	return m, nil
}

type fileLoadedMsg struct {
	path string
	file *lab.File
	err  error
}

type fileSavedMsg struct {
	path string
	err  error
}

// openFileCmd reads and parses a file off the UI loop.
func (m *Model) openFileCmd(path string) tea.Cmd {
	return func() tea.Msg {
		f, err := lab.OpenOrPreset(path, nil)
		return fileLoadedMsg{path: path, file: f, err: err}
	}
}

// finishOpen replaces the session. On error the lab keeps its state and
// the open palette comes back with the path and every diagnostic (the
// status line has room for the first one only), as the command palette
// keeps a failed command.
func (m *Model) finishOpen(msg fileLoadedMsg) tea.Cmd {
	fail := func(verb string, err error) tea.Cmd {
		m.setStatus(fmt.Sprintf("could not %s %s — the lab keeps its current state: %v", verb, msg.path, firstLine(err.Error())), true)
		cmd := m.pal.start(modeOpen, msg.path)
		m.pal.err = err.Error() + "\nThe lab keeps its current state: fix the file and press enter again, or esc."
		return cmd
	}
	if msg.err != nil {
		return fail("open", msg.err)
	}
	sess, err := lab.NewSession(msg.file, lab.SessionOptions{})
	if err != nil {
		return fail("load", err)
	}
	if sc := msg.file.Scenario; sc != nil && sc.Clock.ResumeAt > 0 {
		if err := sess.Advance(sc.Clock.ResumeAt); err != nil {
			return fail("load", err)
		}
	}
	m.adopt(sess)
	m.setStatus("opened "+msg.path, false)
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

func (m *Model) defaultSaveName() string {
	name := strings.TrimSuffix(m.sess.File().Name, ".yaml")
	if name == "" || name == "<stdin>" {
		name = "podlab"
	}
	return name + "-session.yaml"
}

// saveCmd writes the session; only an explicit save writes a file.
func (m *Model) saveCmd(path string) tea.Cmd {
	var buf strings.Builder
	err := m.sess.Save(&buf)
	data := buf.String()
	return func() tea.Msg {
		if err != nil {
			return fileSavedMsg{path: path, err: err}
		}
		if path == "" {
			return fileSavedMsg{err: fmt.Errorf("give a file name")}
		}
		if dir := filepath.Dir(path); dir != "." {
			if _, statErr := os.Stat(dir); statErr != nil {
				return fileSavedMsg{path: path, err: fmt.Errorf("save: %w", statErr)}
			}
		}
		return fileSavedMsg{path: path, err: os.WriteFile(path, []byte(data), 0o644)}
	}
}
