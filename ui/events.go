package ui

import (
	"fmt"
	"strconv"

	"podlab.dev/podlab/lab"
)

// render lists events like `kubectl get events`, newest last,
// filtered by a substring of the object, reason, type or message (the
// filtered indexes are kept by refresh; only the rows on screen render).
func (v *eventsView) render(w, h, back int) []string {
	m := v.m
	all := m.data.snap.Events
	rows := m.data.events.keep
	inner := h - 3
	// scroll counts from the newest event upwards
	off := min(back, max(len(rows)-inner, 0))
	end := len(rows) - off
	begin := max(end-inner, 0)
	// the object column is as wide as the widest object on screen (the
	// message gets the rest)
	objW := 6
	for _, i := range rows[begin:end] {
		objW = max(objW, cellWidth(safe(all[i].Object)))
	}
	objW = min(objW, 48)
	lines := []string{m.st.Heading.Render(fmt.Sprintf("%-9s %-8s %-24s %-*s %s", "TIME", "TYPE", "REASON", objW, "OBJECT", "MESSAGE"))}
	for _, i := range rows[begin:end] {
		e := all[i]
		typ := m.st.Base.Render(fmt.Sprintf("%-8s", safe(e.Type)))
		if e.Type == lab.EventWarning {
			typ = m.st.Warn.Render(fmt.Sprintf("%-8s", e.Type))
		}
		lines = append(lines, fmt.Sprintf("%-9s %s %-24s %-*s %s", e.Time.String(), typ, safe(e.Reason), objW, safe(e.Object), m.st.Muted.Render(safe(e.Message))))
	}
	title := fmt.Sprintf("events · %d", len(rows))
	if m.eventFilter != "" {
		title += " matching " + safe(strconv.Quote(m.eventFilter))
	}
	title += " · / filter"
	return box(m.st, title, lines, w, h, true)
}
