package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// The explain, timeline, eviction and events views scroll within their
// content: fifty presses past the end stop at it, so one press back moves
// the view; the limit is the view's own (scrolling further shows nothing
// new) and survives a resize; a new session starts unscrolled.
func TestScrollStopsAtTheEnd(t *testing.T) {
	for _, c := range []struct {
		name string
		view string
		keys []string
		cmds []string
		down string // the key that scrolls towards the end
	}{
		{"explain", "explain", []string{"tab", "tab", "tab", "2"},
			[]string{"cordon node3", "cordon node4", "scale deployment/web --replicas=6", "advance 10s"}, "j"},
		{"timeline", "timeline", []string{"3"},
			[]string{"advance 10s", "drain node1 --ignore-daemonsets --force --grace-period=20", "drain node2 --ignore-daemonsets --force --grace-period=20", "advance 8s"}, "j"},
		{"eviction", "eviction", []string{"4"},
			[]string{"advance 10s", "usage deployment/web memory=200%", "pressure node node1 memory=99%", "pressure node node3 memory=99%", "pressure node node4 memory=99%", "advance 2s"}, "j"},
		{"events", "events", []string{"5"}, []string{"advance 10s"}, "k"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newTestModel(t, "spread-basics", 100, 16)
			for _, cmd := range c.cmds {
				if _, err := m.sess.Apply(cmd); err != nil {
					t.Fatalf("%s: %v", cmd, err)
				}
			}
			m.refresh()
			press(m, c.keys...)
			if got := m.views[m.view].Title(); got != c.view {
				t.Fatalf("view %s, want %s", got, c.view)
			}
			sc, maxScroll := scrollOf(m)
			if maxScroll() == 0 {
				t.Fatalf("the %s view fits on the screen; the test needs it taller:\n%s", c.name, screen(m))
			}
			for i := 0; i < 50; i++ {
				press(m, c.down)
			}
			limit := maxScroll()
			if got := sc.off; got != limit {
				t.Fatalf("after 50 presses the scroll is %d, want its limit %d", got, limit)
			}
			up := "k"
			if c.down == "k" {
				up = "j"
			}
			// no frame between the presses: the keys alone keep the limit
			press(m, up)
			back := screen(m)
			// the limit is where the view stops: further shows the same
			sc.off = limit
			end := screen(m)
			sc.off = limit + 1000
			if s := screen(m); s != end {
				t.Fatalf("the %s view shows more past its scroll limit:\n%s\nat the limit:\n%s", c.name, s, end)
			}
			if back == end {
				t.Fatalf("one %s after 50 %s does not move the %s view:\n%s", up, c.down, c.name, end)
			}
			sc.off = limit
			// a taller terminal shows more: the limit comes down with it
			press(m, c.down)
			update(m, tea.WindowSizeMsg{Width: 100, Height: 40})
			if got, want := sc.off, maxScroll(); got > want {
				t.Fatalf("after a resize the scroll is %d, past its limit %d", got, want)
			}
			update(m, tea.WindowSizeMsg{Width: 100, Height: 16})

			press(m, c.down)
			f, err := lab.LoadPreset("spread-basics")
			if err != nil {
				t.Fatal(err)
			}
			update(m, fileLoadedMsg{path: "spread-basics", file: f})
			if sc.off != 0 {
				t.Fatalf("a new session keeps the old scroll: %d", sc.off)
			}
		})
	}
}

// The wheel scrolls within the same limits as the keys.
func TestWheelStopsAtTheEnd(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 16)
	typeCommand(m, "advance 10s")
	press(m, "5")
	for i := 0; i < 200; i++ {
		update(m, tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelUp})
	}
	sc, maxScroll := scrollOf(m)
	if got, want := sc.off, maxScroll(); got != want || want == 0 {
		t.Fatalf("wheel up 200 times: scroll %d, limit %d", got, want)
	}
	update(m, tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelDown})
	back := screen(m)
	sc.off = maxScroll()
	top := screen(m)
	if !strings.Contains(top, "RegisteredNode") {
		t.Fatalf("the oldest events are on screen at the top:\n%s", top)
	}
	if back == top {
		t.Fatal("one wheel down after 200 up does not move the events")
	}
}

// scrollOf is the current view's scroller and scroll limit.
func scrollOf(m *Model) (*scroller, func() int) {
	switch v := m.views[m.view].(type) {
	case *explainView:
		return &v.scroll, v.maxScroll
	case *timelineView:
		return &v.scroll, v.maxScroll
	case *evictionView:
		return &v.scroll, v.maxScroll
	case *eventsView:
		return &v.scroll, v.maxScroll
	}
	panic("the current view does not scroll")
}
