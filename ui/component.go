package ui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// A view is one screen of the lab, a tab of the header. Like soft-serve's
// common.Component and crush's panes it is a plain struct with its own
// key map, Update and View; the root model (Model) owns the session, the
// clock, the shared selection and the layout, handles the global keys and
// routes everything else to the current view (or the open overlay).
type view interface {
	// ShortHelp and FullHelp (help.KeyMap) are the view's enabled
	// bindings: the footer and the ? overlay draw them.
	help.KeyMap
	// Title is the tab's label.
	Title() string
	// SetKeys enables the bindings that do something in the current state
	// (called after every change, before the footer is drawn).
	SetKeys()
	// Update handles a key the global bindings did not take; handled
	// reports whether one of the view's bindings matched.
	Update(msg tea.KeyPressMsg) (cmd tea.Cmd, handled bool)
	// View draws the view in w×h cells; it records what the mouse can hit.
	View(w, h int) []string
	// Refresh rebuilds what the view draws after the cluster changed
	// (only the current view refreshes).
	Refresh()
	// Live reports a view that draws time-dependent data: it refreshes
	// on every tick.
	Live() bool
	// Wheel scrolls by delta lines.
	Wheel(delta int)
	// Reset forgets the view's scrolling (a new session).
	Reset()
}

// newViews builds the lab's views in tab order. Adding a view is one new
// component (a type that implements view) and one line here; the header
// tab, its number key, the footer and the ? overlay follow from it.
func newViews(m *Model) []view {
	return []view{
		newClusterView(m),
		newExplainView(m),
		newTimelineView(m),
		newEvictionView(m),
		newEventsView(m),
		newCompareView(m),
		newMetricsView(m),
		newControllersView(m),
	}
}

// viewIndex is the index of the first view of type T.
func viewIndex[T view](m *Model) (T, int) {
	for i, v := range m.views {
		if t, ok := v.(T); ok {
			return t, i
		}
	}
	var zero T
	return zero, -1
}

// An overlay is drawn over the views and takes every key while open (the
// palette, the presets picker, the help, the legend).
type overlay interface {
	help.KeyMap
	// SetKeys enables the bindings that apply now.
	SetKeys()
	// Update handles a key; done closes the overlay.
	Update(msg tea.KeyPressMsg) (cmd tea.Cmd, done bool)
	// View draws the overlay for a w×h screen and says where it goes.
	View(w, h int) (lines []string, x, y int)
}

// scroller is a view's first line on screen, kept within its content.
type scroller struct{ off int }

// move scrolls by delta within [0, limit].
func (s *scroller) move(delta, limit int) {
	s.off = max(0, min(s.off+delta, limit))
}

// clamp keeps the offset within [0, limit] (after a resize or refresh).
func (s *scroller) clamp(limit int) { s.off = max(0, min(s.off, limit)) }

// window clamps the offset to lines in a box h rows high (its border
// takes two) and returns the lines from it on.
func (s *scroller) window(lines []string, h int) []string {
	s.clamp(max(len(lines)-(h-2), 0))
	if s.off < len(lines) {
		return lines[s.off:]
	}
	return lines
}
