package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// legendOverlay is the legend (i in the cluster view): what the glyph
// shapes, badges and colours mean.
type legendOverlay struct {
	m     *Model
	Close key.Binding
}

func newLegend(m *Model) *legendOverlay {
	return &legendOverlay{m: m, Close: bind("esc", "close", "esc", "i", "q")}
}

// ShortHelp implements help.KeyMap.
func (o *legendOverlay) ShortHelp() []key.Binding { return []key.Binding{o.Close, quitKey} }

// FullHelp implements help.KeyMap.
func (o *legendOverlay) FullHelp() [][]key.Binding { return [][]key.Binding{o.ShortHelp()} }

// SetKeys implements overlay.
func (o *legendOverlay) SetKeys() {}

// Update implements overlay.
func (o *legendOverlay) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if key.Matches(msg, quitKey) {
		return o.m.requestQuit(), true
	}
	return nil, key.Matches(msg, o.Close)
}

// View implements overlay.
func (o *legendOverlay) View(w, h int) ([]string, int, int) {
	lb := o.draw(w, h)
	return lb, max((w-cellWidth(lb[0]))/2, 0), 1
}
