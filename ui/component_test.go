package ui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// metricsView is the example of docs/architecture.md: a view is one
// component; registered, it gets a tab, a number key, a footer and help.
type metricsView struct {
	m      *Model
	keys   scrollKeys
	scroll scroller
}

func newMetricsView(m *Model) *metricsView { return &metricsView{m: m, keys: newScrollKeys()} }

func (v *metricsView) Title() string { return "metrics" }
func (v *metricsView) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Down, v.keys.Up, v.m.global.Back}
}
func (v *metricsView) FullHelp() [][]key.Binding { return [][]key.Binding{{v.keys.Up, v.keys.Down}} }
func (v *metricsView) SetKeys()                  { v.keys.setEnabled(v.scroll.off, v.maxScroll()) }
func (v *metricsView) Refresh()                  {}
func (v *metricsView) Live() bool                { return true }
func (v *metricsView) Wheel(d int)               { v.scroll.move(d, v.maxScroll()) }
func (v *metricsView) Reset()                    { v.scroll = scroller{} }
func (v *metricsView) maxScroll() int            { return 0 }
func (v *metricsView) View(w, h int) []string {
	return box(v.m.st, "metrics", []string{"cpu over time"}, w, h, true)
}
func (v *metricsView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if d, ok := v.keys.delta(msg, v.m.bodyHeight()-2); ok {
		v.scroll.move(d, v.maxScroll())
		return nil, true
	}
	return nil, false
}

func TestAddingAView(t *testing.T) {
	m := newTestModel(t, "spread-basics", 160, 40)
	m.setViews(append(newViews(m), newMetricsView(m))) // the one registration line
	m.refresh()
	if !strings.Contains(screen(m), "6 metrics") {
		t.Fatalf("no tab for the new view:\n%s", screen(m))
	}
	press(m, "6")
	s := screen(m)
	if !strings.Contains(s, "cpu over time") || !strings.Contains(s, "esc back") {
		t.Fatalf("6 opens the view, the footer shows esc:\n%s", s)
	}
	press(m, "?")
	if !strings.Contains(screen(m), "help · metrics") {
		t.Fatalf("the help names the view:\n%s", screen(m))
	}
	press(m, "esc", "esc")
	if m.view != 0 {
		t.Fatalf("esc goes back to the cluster view: view %d", m.view)
	}
	// a click on the tab opens it
	for _, h := range m.frameHits().hits {
		if h.kind == hitTab && h.index == 5 {
			update(m, tea.MouseClickMsg{X: h.x0, Y: h.y0, Button: tea.MouseLeft})
		}
	}
	if m.view != 5 {
		t.Fatalf("a click on the tab opens the view: view %d", m.view)
	}
}
