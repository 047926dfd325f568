package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// confirmOverlay asks a yes/no question (quit without saving, replace a
// file, restore the recovery file) before something that cannot be
// undone. Its answers are key bindings like any component's: the box and
// the footer show them, and only they act — every other key is ignored,
// so a stray key never answers.
type confirmOverlay struct {
	m        *Model
	title    string
	question string
	keys     confirmKeys
	// yes, no and other run on their key (other: nil for no third answer).
	yes, no, other func() tea.Cmd
}

type confirmKeys struct {
	Yes, No, Other key.Binding
}

// ShortHelp implements help.KeyMap.
func (o *confirmOverlay) ShortHelp() []key.Binding {
	return []key.Binding{o.keys.Yes, o.keys.Other, o.keys.No}
}

// FullHelp implements help.KeyMap.
func (o *confirmOverlay) FullHelp() [][]key.Binding { return [][]key.Binding{o.ShortHelp()} }

// SetKeys implements overlay.
func (o *confirmOverlay) SetKeys() { o.keys.Other.SetEnabled(o.other != nil) }

// Update implements overlay: an answer closes the question and acts.
func (o *confirmOverlay) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	var act func() tea.Cmd
	switch {
	case key.Matches(msg, o.keys.Yes):
		act = o.yes
	case key.Matches(msg, o.keys.No):
		act = o.no
	case key.Matches(msg, o.keys.Other):
		act = o.other
	default:
		return nil, false
	}
	// closed before it acts: the answer may open another overlay
	if o.m.top == o {
		o.m.top = nil
	}
	if act == nil {
		return nil, true
	}
	return act(), true
}

// View implements overlay: the question and its answers, centred.
func (o *confirmOverlay) View(w, h int) ([]string, int, int) {
	m := o.m
	bw := overlayWidth(72, w)
	lines := wrapText(safe(o.question), bw-4)
	lines = append(lines, "")
	for _, b := range o.ShortHelp() {
		if b.Enabled() {
			lines = append(lines, m.st.Selected.Render(" "+b.Help().Key+" ")+" "+b.Help().Desc)
		}
	}
	b := box(m.st, o.title, lines, bw, min(len(lines)+2, max(h-2, 3)), true)
	return b, max((w-bw)/2, 0), max((h-len(b))/3, 0)
}

// ask opens a question.
func (m *Model) ask(o *confirmOverlay) {
	o.m = m
	m.pal.close()
	m.openOverlay(o)
}
