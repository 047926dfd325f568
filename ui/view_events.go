package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// eventsView lists events like `kubectl get events`, newest last. The
// list is virtualised (only the rows on screen render) and anchored at the
// newest event: up scrolls back in time.
type eventsView struct {
	m      *Model
	keys   eventsKeys
	scroll scroller // lines back from the newest
}

type eventsKeys struct {
	scrollKeys
	Filter key.Binding
}

func newEventsView(m *Model) *eventsView {
	k := eventsKeys{scrollKeys: newScrollKeys(), Filter: bind("", "filter", "/")}
	k.Up.SetHelp("↑/k", "older")
	k.Down.SetHelp("↓/j", "newer")
	k.Home.SetHelp("home", "oldest")
	k.End.SetHelp("end", "newest")
	return &eventsView{m: m, keys: k}
}

// Title implements view.
func (v *eventsView) Title() string { return "events" }

// ShortHelp implements help.KeyMap.
func (v *eventsView) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Filter, v.keys.Up, v.keys.Down, v.m.global.Back}
}

// FullHelp implements help.KeyMap.
func (v *eventsView) FullHelp() [][]key.Binding {
	return fullHelp([]keyGroup{{"Events", append(v.keys.all(), &v.keys.Filter)}})
}

// SetKeys implements view.
func (v *eventsView) SetKeys() {
	// off counts back from the newest: "up" (older) goes towards the limit
	limit := v.maxScroll()
	v.keys.setEnabled(limit-v.scroll.off, limit)
}

// Update implements view.
func (v *eventsView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if d, ok := v.keys.delta(msg, v.m.bodyHeight()-3); ok {
		// anchored at the newest: up (a negative move) goes back
		v.scroll.move(-d, v.maxScroll())
		return nil, true
	}
	if key.Matches(msg, v.keys.Filter) {
		return v.m.openPalette(modeFilter, v.m.eventFilter), true
	}
	return nil, false
}

// setFilter keeps the events matching f and scrolls to the newest.
func (v *eventsView) setFilter(f string) {
	v.scroll = scroller{}
	v.m.eventFilter = f
	v.m.updateEvents()
}

// View implements view.
func (v *eventsView) View(w, h int) []string { return v.render(w, h, v.scroll.off) }

// Refresh implements view.
func (v *eventsView) Refresh() { v.scroll.clamp(v.maxScroll()) }

// Live implements view.
func (v *eventsView) Live() bool { return false }

// Wheel implements view: the wheel up goes back in time.
func (v *eventsView) Wheel(delta int) { v.scroll.move(-delta, v.maxScroll()) }

// Reset implements view.
func (v *eventsView) Reset() { v.scroll = scroller{} }

// maxScroll is the events kept less the rows on screen.
func (v *eventsView) maxScroll() int {
	return max(len(v.m.data.events.keep)-(v.m.bodyHeight()-3), 0)
}
