package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// explainView answers "why did it go there / why is it pending" for one
// pod: the scheduler's verdict on every node, the scores and the spread
// arithmetic. Only the rows on screen are rendered (thousands of nodes).
type explainView struct {
	m      *Model
	keys   explainKeys
	scroll scroller
	// podKey is the pod explained ("" until one is chosen).
	podKey string
	// describe is the pod's kubectl-describe state and its containers
	// over time (explain_describe.go, explain_containers.go).
	describe []string
	// drawn is the last parts: maxScroll (SetKeys, every frame) and View
	// would each wrap the text and size the columns over every node.
	drawn struct {
		ok bool
		ex *lab.LiveExplanation
		w  int
		st *Styles
		p  explainParts
	}
}

type explainKeys struct {
	scrollKeys
	Delete key.Binding
}

func newExplainView(m *Model) *explainView {
	return &explainView{m: m, keys: explainKeys{scrollKeys: newScrollKeys(), Delete: bind("", "delete this pod", "x")}}
}

// Title implements view.
func (v *explainView) Title() string { return "explain" }

// ShortHelp implements help.KeyMap.
func (v *explainView) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Down, v.keys.Up, v.keys.Delete, v.m.global.Back}
}

// FullHelp implements help.KeyMap.
func (v *explainView) FullHelp() [][]key.Binding {
	return fullHelp([]keyGroup{{"Explain", append(v.keys.all(), &v.keys.Delete)}})
}

// SetKeys implements view.
func (v *explainView) SetKeys() {
	v.keys.setEnabled(v.scroll.off, v.maxScroll())
	v.keys.Delete.SetEnabled(v.podKey != "" && v.m.data.explain != nil && v.m.data.explainErr == nil)
}

// Update implements view.
func (v *explainView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if d, ok := v.keys.delta(msg, v.m.bodyHeight()-2); ok {
		v.scroll.move(d, v.maxScroll())
		return nil, true
	}
	if key.Matches(msg, v.keys.Delete) {
		v.m.apply("delete pod " + v.podKey)
		return nil, true
	}
	return nil, false
}

// View implements view.
func (v *explainView) View(w, h int) []string {
	return v.render(w, h, v.podKey, v.scroll.off)
}

// Refresh implements view: the explanation is recomputed for the pod.
func (v *explainView) Refresh() {
	m, d := v.m, &v.m.data
	if v.podKey == "" {
		v.podKey = m.selectedPodKey()
	}
	d.explain, d.explainErr = nil, nil
	if v.podKey != "" {
		d.explain, d.explainErr = m.sess.Explain(v.podKey)
	}
	v.describe = append(v.describeLines(), v.containerTimelineLines(m.w-2)...)
	v.drawn.ok = false
	v.scroll.clamp(v.maxScroll())
}

// Live implements view.
func (v *explainView) Live() bool { return false }

// Wheel implements view.
func (v *explainView) Wheel(delta int) { v.scroll.move(delta, v.maxScroll()) }

// Reset implements view.
func (v *explainView) Reset() { v.scroll, v.podKey = scroller{}, "" }

// maxScroll is how far the view scrolls: its lines less the box's.
func (v *explainView) maxScroll() int {
	d := &v.m.data
	if v.podKey == "" || d.explainErr != nil || d.explain == nil {
		return 0
	}
	p := v.parts(d.explain, v.m.w)
	return max(len(p.lines)+p.rows+len(p.tail)-(v.m.bodyHeight()-2), 0)
}
