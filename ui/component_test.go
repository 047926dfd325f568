package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// exampleView is the example of docs/architecture.md: a view is one
// component; registered, it gets a tab, a number key, a footer and help.
type exampleView struct {
	m      *Model
	keys   scrollKeys
	scroll scroller
}

func newExampleView(m *Model) *exampleView { return &exampleView{m: m, keys: newScrollKeys()} }

func (v *exampleView) Title() string { return "example" }
func (v *exampleView) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Down, v.keys.Up, v.m.global.Back}
}
func (v *exampleView) FullHelp() [][]key.Binding { return [][]key.Binding{{v.keys.Up, v.keys.Down}} }
func (v *exampleView) SetKeys()                  { v.keys.setEnabled(v.scroll.off, v.maxScroll()) }
func (v *exampleView) Refresh()                  {}
func (v *exampleView) Live() bool                { return true }
func (v *exampleView) Wheel(d int)               { v.scroll.move(d, v.maxScroll()) }
func (v *exampleView) Reset()                    { v.scroll = scroller{} }
func (v *exampleView) maxScroll() int            { return 0 }
func (v *exampleView) View(w, h int) []string {
	return box(v.m.st, "example", []string{"cpu over time"}, w, h, true)
}
func (v *exampleView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if d, ok := v.keys.delta(msg, v.m.bodyHeight()-2); ok {
		v.scroll.move(d, v.maxScroll())
		return nil, true
	}
	return nil, false
}

func TestAddingAView(t *testing.T) {
	m := newTestModel(t, "spread-basics", 200, 40)
	m.setViews(append(newViews(m), newExampleView(m))) // the one registration line
	m.refresh()
	n := len(m.views) // the new view's number key and tab
	if !strings.Contains(screen(m), fmt.Sprintf("%d example", n)) {
		t.Fatalf("no tab for the new view:\n%s", screen(m))
	}
	press(m, fmt.Sprint(n))
	s := screen(m)
	if !strings.Contains(s, "cpu over time") || !strings.Contains(s, "esc back") {
		t.Fatalf("its number opens the view, the footer shows esc:\n%s", s)
	}
	press(m, "?")
	if !strings.Contains(screen(m), "help · example") {
		t.Fatalf("the help names the view:\n%s", screen(m))
	}
	press(m, "esc", "esc")
	if m.view != 0 {
		t.Fatalf("esc goes back to the cluster view: view %d", m.view)
	}
	// a click on the tab opens it
	for _, h := range m.frameHits().hits {
		if h.kind == hitTab && h.index == n-1 {
			update(m, tea.MouseClickMsg{X: h.x0, Y: h.y0, Button: tea.MouseLeft})
		}
	}
	if m.view != n-1 {
		t.Fatalf("a click on the tab opens the view: view %d", m.view)
	}
}
