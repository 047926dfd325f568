package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// clusterView is the home view: the nodes by zone, the workloads and the
// spread of the selected one, the pending pods and the lesson. Its quick
// keys fill the palette with the command they stand for, so the user
// learns the language. The selection (node, pod, workload, pending pod,
// focus) is the Model's: the explain and eviction views read it too.
type clusterView struct {
	m    *Model
	keys clusterKeys
	// pendingOwners[k] is the pending pod on line k of the pending box
	pendingOwners []int
}

type clusterKeys struct {
	Up, Down, Left, Right, PageUp, PageDown, Home, End key.Binding
	NextPanel                                          key.Binding
	AddZone, AddNode, Taint, Cordon, Drain, Pressure   key.Binding
	ScaleUp, ScaleDown, Delete, Explain, Group         key.Binding
	Legend                                             key.Binding
}

func newClusterView(m *Model) *clusterView {
	return &clusterView{m: m, keys: clusterKeys{
		Up:        bind("↑/k", "up", "up", "k"),
		Down:      bind("↓/j", "down", "down", "j"),
		Left:      bind("←/h", "previous zone / pod", "left", "h"),
		Right:     bind("→/l", "next zone / pod", "right", "l"),
		PageUp:    bind("pgup", "page up", "pgup"),
		PageDown:  bind("pgdn", "page down", "pgdown"),
		Home:      bind("home", "first", "home"),
		End:       bind("end", "last", "end"),
		NextPanel: bind("tab", "panel", "tab"),
		AddZone:   bind("", "zone", "z"),
		AddNode:   bind("", "node", "n"),
		Taint:     bind("", "taint", "t"),
		Cordon:    bind("", "cordon", "c"),
		Drain:     bind("", "drain", "d"),
		Pressure:  bind("", "pressure", "p"),
		ScaleUp:   bind("+", "scale", "+", "="),
		ScaleDown: bind("", "scale down", "-"),
		Delete:    bind("", "delete", "x"),
		Explain:   bind("e", "explain", "e", "enter"),
		Group:     bind("", "group by", "g"),
		Legend:    bind("", "legend", "i"),
	}}
}

// Title implements view.
func (v *clusterView) Title() string { return "cluster" }

// ShortHelp implements help.KeyMap: the footer's keys, most used first.
func (v *clusterView) ShortHelp() []key.Binding {
	k := &v.keys
	return []key.Binding{k.AddZone, k.AddNode, k.Taint, k.Cordon, k.Drain, k.ScaleUp, k.Pressure,
		k.Delete, k.Explain, k.NextPanel, k.Group, k.Legend}
}

func (v *clusterView) groups() []keyGroup {
	k := &v.keys
	return []keyGroup{
		{"Move", []*key.Binding{&k.Up, &k.Down, &k.Left, &k.Right, &k.PageUp, &k.PageDown, &k.Home, &k.End, &k.NextPanel}},
		{"Cluster", []*key.Binding{&k.AddZone, &k.AddNode, &k.Taint, &k.Cordon, &k.Drain, &k.Pressure,
			&k.ScaleUp, &k.ScaleDown, &k.Delete, &k.Explain, &k.Group, &k.Legend}},
	}
}

// FullHelp implements help.KeyMap.
func (v *clusterView) FullHelp() [][]key.Binding { return fullHelp(v.groups()) }

// SetKeys implements view: keys that need a node, a pod or a scalable
// workload are off without one; moves are off in a list of one.
func (v *clusterView) SetKeys() {
	m, k := v.m, &v.keys
	_, hasNode := m.selectedNode()
	wl, hasWl := m.selectedWorkload()
	// moves are on when they move: not up from the first row
	n, cur := m.focusLen(), m.focusIndex()
	for _, b := range []*key.Binding{&k.Up, &k.PageUp, &k.Home} {
		b.SetEnabled(cur > 0)
	}
	for _, b := range []*key.Binding{&k.Down, &k.PageDown, &k.End} {
		b.SetEnabled(cur < n-1)
	}
	switch m.focus {
	case focusNodes:
		dom := 0
		if len(m.data.nodes) > 0 {
			dom = m.data.nodeDom[clamp(m.nodeIdx, len(m.data.nodes))]
		}
		k.Left.SetEnabled(dom > 0)
		k.Right.SetEnabled(dom < len(m.data.domains)-1)
	case focusPods:
		k.Left.SetEnabled(k.Up.Enabled())
		k.Right.SetEnabled(k.Down.Enabled())
	default:
		k.Left.SetEnabled(false)
		k.Right.SetEnabled(false)
	}
	for _, b := range []*key.Binding{&k.Taint, &k.Cordon, &k.Drain, &k.Pressure} {
		b.SetEnabled(hasNode)
	}
	k.ScaleUp.SetEnabled(hasWl && wl.Scalable())
	k.ScaleDown.SetEnabled(hasWl && wl.Scalable() && wl.Desired > 0)
	podKey := m.selectedPodKey()
	k.Delete.SetEnabled(podKey != "")
	k.Explain.SetEnabled(podKey != "")
	k.Group.SetEnabled(len(m.groupKeys()) > 1)
	if hasNode {
		node, _ := m.selectedNode()
		k.Cordon.SetHelp("c", strings.Fields(lab.CordonCommand(node))[0])
	}
}

// Update implements view.
func (v *clusterView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	m, k := v.m, &v.keys
	node, _ := m.selectedNode()
	switch {
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-10)
	case key.Matches(msg, k.PageDown):
		m.move(10)
	case key.Matches(msg, k.Home):
		m.move(-1 << 20)
	case key.Matches(msg, k.End):
		m.move(1 << 20)
	case key.Matches(msg, k.Left):
		m.moveSide(-1)
	case key.Matches(msg, k.Right):
		m.moveSide(1)
	case key.Matches(msg, k.NextPanel):
		m.focus = (m.focus + 1) % numFocus
		m.refresh()
	case key.Matches(msg, k.Explain):
		m.openExplain(m.selectedPodKey())
	case key.Matches(msg, k.Legend):
		m.openOverlay(newLegend(m))
	case key.Matches(msg, k.Group):
		m.groupIdx = (m.groupIdx + 1) % len(m.groupKeys())
		m.refresh()
		m.setStatus("grouping by "+m.data.groupKey, false)
	case key.Matches(msg, k.AddZone):
		return m.prefill(fmt.Sprintf("add zone %s --nodes 2", m.sess.NextZoneName())), true
	case key.Matches(msg, k.AddNode):
		// --zone is required: a node without a zone leaves it to type
		return m.prefill("add node " + m.sess.NextNodeName() + " --zone " + m.sess.NodeZone(node.Node)), true
	case key.Matches(msg, k.Taint):
		return m.prefill("taint node " + node.Node.Name + " dedicated=lab:NoSchedule"), true
	case key.Matches(msg, k.Cordon):
		m.apply(lab.CordonCommand(node))
	case key.Matches(msg, k.Drain):
		return m.prefill("drain " + node.Node.Name + " --ignore-daemonsets --timeout 2m"), true
	case key.Matches(msg, k.Pressure):
		return m.prefill(lab.PressureCommand(node)), true
	case key.Matches(msg, k.ScaleUp):
		m.scaleSelected(true)
	case key.Matches(msg, k.ScaleDown):
		m.scaleSelected(false)
	case key.Matches(msg, k.Delete):
		m.apply("delete pod " + m.selectedPodKey())
	default:
		return nil, false
	}
	return nil, true
}

// View implements view.
func (v *clusterView) View(w, h int) []string { return v.render(w, h) }

// Refresh implements view: the cluster's data is the Model's frame data.
func (v *clusterView) Refresh() {}

// Live implements view.
func (v *clusterView) Live() bool { return false }

// Wheel implements view: the wheel moves the focused list.
func (v *clusterView) Wheel(delta int) { v.m.move(delta) }

// Reset implements view.
func (v *clusterView) Reset() {}

// focusIndex is the cursor's row in the focused list.
func (m *Model) focusIndex() int {
	switch m.focus {
	case focusNodes:
		return clamp(m.nodeIdx, len(m.data.nodes))
	case focusPods:
		return clamp(m.podIdx, m.focusLen())
	case focusWorkloads:
		return clamp(m.wlIdx, len(m.data.workloads))
	case focusPending:
		return clamp(m.pendIdx, m.focusLen())
	}
	return 0
}

// focusLen is the length of the focused list.
func (m *Model) focusLen() int {
	switch m.focus {
	case focusNodes:
		return len(m.data.nodes)
	case focusPods:
		nv, _ := m.selectedNode()
		return len(nv.Pods)
	case focusWorkloads:
		return len(m.data.workloads)
	case focusPending:
		if m.data.snap == nil {
			return 0
		}
		return len(m.data.snap.Pending)
	}
	return 0
}
