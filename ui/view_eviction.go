package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// evictionView shows, per node under memory pressure (or the selected
// node), the memory signal and the kubelet's eviction ranking.
type evictionView struct {
	m      *Model
	keys   evictionKeys
	scroll scroller
}

type evictionKeys struct {
	scrollKeys
	Pressure key.Binding
}

func newEvictionView(m *Model) *evictionView {
	return &evictionView{m: m, keys: evictionKeys{scrollKeys: newScrollKeys(),
		Pressure: bind("", "pressure", "p")}}
}

// Title implements view.
func (v *evictionView) Title() string { return "eviction" }

// ShortHelp implements help.KeyMap.
func (v *evictionView) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Down, v.keys.Up, v.keys.Pressure, v.m.global.Back}
}

// FullHelp implements help.KeyMap.
func (v *evictionView) FullHelp() [][]key.Binding {
	return fullHelp([]keyGroup{{"Eviction", append(v.keys.all(), &v.keys.Pressure)}})
}

// SetKeys implements view.
func (v *evictionView) SetKeys() {
	v.keys.setEnabled(v.scroll.off, v.maxScroll())
	_, ok := v.m.selectedNode()
	v.keys.Pressure.SetEnabled(ok)
}

// Update implements view.
func (v *evictionView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if d, ok := v.keys.delta(msg, v.m.bodyHeight()-2); ok {
		v.scroll.move(d, v.maxScroll())
		return nil, true
	}
	if key.Matches(msg, v.keys.Pressure) {
		node, _ := v.m.selectedNode()
		return v.m.prefill(lab.PressureCommand(node)), true
	}
	return nil, false
}

// View implements view.
func (v *evictionView) View(w, h int) []string { return v.render(w, h, v.scroll.off) }

// Refresh implements view.
func (v *evictionView) Refresh() {
	v.m.refreshEviction()
	v.scroll.clamp(v.maxScroll())
}

// Live implements view: the memory signal moves with the clock.
func (v *evictionView) Live() bool { return true }

// Wheel implements view.
func (v *evictionView) Wheel(delta int) { v.scroll.move(delta, v.maxScroll()) }

// Reset implements view.
func (v *evictionView) Reset() { v.scroll = scroller{} }

// maxScroll counts evictionView's lines (per node three heading lines,
// its ranking and a blank line, then two lines of explanation) less the
// box's.
func (v *evictionView) maxScroll() int {
	n := 2
	for _, en := range v.m.data.evictNodes {
		n += 4 + len(en.ranking)
	}
	return max(n-(v.m.bodyHeight()-2), 0)
}
