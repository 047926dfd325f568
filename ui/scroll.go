package ui

// Scrolling of the explain, timeline, eviction and events views: m.scroll
// holds each view's first line (events: lines back from the newest), kept
// within 0..maxScroll by move (keys and wheel), by refresh when the view's
// data changes and on a resize. The views only read it.

// maxScroll is how far view v scrolls in the current terminal: its lines
// less the lines its box shows.
func (m *Model) maxScroll(v viewID) int {
	w, h := m.w, m.h-3 // the body of the screen
	n := 0
	switch v {
	case viewExplain:
		d := &m.data
		if m.explainKey == "" || d.explainErr != nil || d.explain == nil {
			return 0
		}
		p := m.explainParts(d.explain, w)
		n = len(p.lines) + p.rows + len(p.tail) - (h - 2)
	case viewTimeline:
		n = m.timelineLen() - (h - 2)
	case viewEviction:
		n = m.evictionLen() - (h - 2)
	case viewEvents:
		n = len(m.data.events.keep) - (h - 3)
	}
	return max(n, 0)
}

// clampScroll keeps the current view's scroll within its content.
func (m *Model) clampScroll() {
	m.scroll[m.view] = max(min(m.scroll[m.view], m.maxScroll(m.view)), 0)
}

// timelineLen counts the lines of timelineView: the axis, per pod its bar,
// its containers' bars and the cause, then a blank line and the legend.
func (m *Model) timelineLen() int {
	if len(m.data.timelines) == 0 {
		return 0
	}
	n := 1 + 2
	for _, t := range m.data.timelines {
		n += 2 + len(t.Timeline.Containers)
	}
	return n
}

// evictionLen counts the lines of evictionView: per node three heading
// lines, its ranking and a blank line, then two lines of explanation.
func (m *Model) evictionLen() int {
	n := 2
	for _, en := range m.data.evictNodes {
		n += 4 + len(en.ranking)
	}
	return n
}
