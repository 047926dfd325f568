package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/assets"
	"podlab.dev/podlab/lab"
	"podlab.dev/podlab/lab/command"
)

// handleKey routes a key: overlays first, then global keys, then the view.
func (m *Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.pal.open {
		return m.handlePaletteKey(msg)
	}
	if m.picker != nil {
		return m.handlePickerKey(msg)
	}
	if m.help || m.legend {
		if key.Matches(msg, m.keys.Quit) && msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
		// j/k scroll a help taller than the terminal; any other key closes
		if m.help && key.Matches(msg, m.keys.Down) {
			m.helpScroll++
			return m, nil
		}
		if m.help && key.Matches(msg, m.keys.Up) {
			m.helpScroll = max(m.helpScroll-1, 0)
			return m, nil
		}
		m.help, m.legend, m.helpScroll = false, false, 0
		return m, nil
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.help = true
	case key.Matches(msg, k.Palette):
		return m, m.pal.start(modeCommand, "")
	case key.Matches(msg, k.Back):
		if m.view != viewCluster {
			m.view = viewCluster
		}
	case key.Matches(msg, k.Views[0]):
		m.view = viewCluster
		m.refresh()
	case key.Matches(msg, k.Views[1]):
		m.switchView(viewExplain)
	case key.Matches(msg, k.Views[2]):
		m.switchView(viewTimeline)
	case key.Matches(msg, k.Views[3]):
		m.switchView(viewEviction)
	case key.Matches(msg, k.Views[4]):
		m.switchView(viewEvents)
	case key.Matches(msg, k.Play):
		m.togglePause()
	case key.Matches(msg, k.Step):
		m.paused = true
		m.apply("advance 1s")
	case key.Matches(msg, k.Faster):
		m.speedIdx = min(m.speedIdx+1, len(speeds)-1)
	case key.Matches(msg, k.Slower):
		m.speedIdx = max(m.speedIdx-1, 0)
	case key.Matches(msg, k.Undo):
		m.apply("undo")
	case key.Matches(msg, k.Redo):
		m.apply("redo")
	case key.Matches(msg, k.NextStep):
		m.sess.SetStep(m.sess.Step() + 1)
		m.lessonOpen = true
		m.refresh()
	case key.Matches(msg, k.PrevStep):
		m.sess.SetStep(m.sess.Step() - 1)
		m.lessonOpen = true
		m.refresh()
	case key.Matches(msg, k.ApplyStep):
		m.applyStep()
	case key.Matches(msg, k.ToggleLesson):
		m.lessonOpen = !m.lessonOpen
	case m.opts.NoFiles && (key.Matches(msg, k.Presets) || key.Matches(msg, k.Open) || key.Matches(msg, k.Save)):
		m.setStatus(noFilesStatus, true)
	case key.Matches(msg, k.Presets):
		m.openPicker()
	case key.Matches(msg, k.Open):
		return m, m.pal.start(modeOpen, "")
	case key.Matches(msg, k.Save):
		return m, m.pal.start(modeSave, m.defaultSaveName())
	case key.Matches(msg, k.Theme):
		names := assets.ThemeNames()
		next := names[0]
		for i, n := range names {
			if n == m.themeName {
				next = names[(i+1)%len(names)]
			}
		}
		m.setTheme(next)
		m.setStatus("theme "+next+" (T cycles: "+strings.Join(names, ", ")+")", false)
	default:
		return m.handleViewKey(msg)
	}
	return m, nil
}

// handleViewKey handles navigation and the cluster quick keys.
func (m *Model) handleViewKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
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
		if m.view == viewCluster {
			m.focus = (m.focus + 1) % numFocus
			m.refresh()
		}
	}
	if m.view == viewEvents && msg.String() == "/" {
		return m, m.pal.start(modeFilter, m.eventFilter)
	}
	if m.view == viewTimeline {
		switch msg.String() {
		case "+", "=":
			m.tlZoom = max(m.tlZoom-1, 0)
			return m, nil
		case "-":
			m.tlZoom = min(m.tlZoom+1, len(zooms)-1)
			return m, nil
		}
	}
	if m.view != viewCluster && m.view != viewExplain {
		return m, nil
	}
	node, hasNode := m.selectedNode()
	nodeName := ""
	if hasNode {
		nodeName = node.Node.Name
	}
	switch {
	case key.Matches(msg, k.Explain):
		m.openExplain(m.selectedPodKey())
	case key.Matches(msg, k.Legend):
		m.legend = true
	case key.Matches(msg, k.Group):
		m.groupIdx = (m.groupIdx + 1) % len(m.groupKeys())
		m.refresh()
		m.setStatus("grouping by "+m.data.groupKey, false)
	case key.Matches(msg, k.AddZone):
		return m, m.pal.start(modeCommand, fmt.Sprintf("add zone %s --nodes 2", m.sess.NextZoneName()))
	case key.Matches(msg, k.AddNode):
		// --zone is required: a node without a zone leaves it to type
		return m, m.pal.start(modeCommand, "add node "+m.sess.NextNodeName()+" --zone "+m.sess.NodeZone(node.Node))
	case key.Matches(msg, k.Taint) && hasNode:
		return m, m.pal.start(modeCommand, "taint node "+nodeName+" dedicated=lab:NoSchedule")
	case key.Matches(msg, k.Cordon) && hasNode:
		if node.Node.Spec.Unschedulable {
			m.apply("uncordon " + nodeName)
		} else {
			m.apply("cordon " + nodeName)
		}
	case key.Matches(msg, k.Drain) && hasNode:
		return m, m.pal.start(modeCommand, "drain "+nodeName+" --ignore-daemonsets --timeout 2m")
	case key.Matches(msg, k.Pressure) && hasNode:
		return m, m.pal.start(modeCommand, lab.PressureCommand(node))
	case key.Matches(msg, k.ScaleUp), key.Matches(msg, k.ScaleDown):
		m.scaleSelected(key.Matches(msg, k.ScaleUp))
	case key.Matches(msg, k.Delete):
		if podKey := m.selectedPodKey(); podKey != "" {
			m.apply("delete pod " + podKey)
		}
	}
	return m, nil
}

func (m *Model) scaleSelected(up bool) {
	w, ok := m.selectedWorkload()
	if !ok {
		return
	}
	if !w.Scalable() {
		m.setStatus(fmt.Sprintf("%s cannot be scaled; select a deployment, statefulset or replicaset (tab to the workload list)", w.Ref()), true)
		return
	}
	n := w.Desired + 1
	if !up {
		n = max(w.Desired-1, 0)
	}
	m.apply(fmt.Sprintf("scale %s --replicas=%d", w.Ref(), n))
}

func (m *Model) applyStep() {
	l := m.sess.Lesson()
	if l == nil {
		m.setStatus("this scenario has no lesson", true)
		return
	}
	st := l.Steps[m.sess.Step()]
	if len(st.Do) == 0 {
		m.setStatus("this step has no commands to apply; follow its text", false)
		return
	}
	for _, line := range st.Do {
		if err := m.apply(line); err != nil {
			m.setStatus(fmt.Sprintf("%s: %v", line, err), true)
			return
		}
	}
	m.setStatus("applied: "+strings.Join(st.Do, "; "), false)
}

func (m *Model) openExplain(podKey string) {
	m.view = viewExplain
	m.explainKey = podKey
	m.scroll[viewExplain] = 0
	m.refreshExplain()
}

// move moves the cursor of the focused list by delta.
func (m *Model) move(delta int) {
	switch m.view {
	case viewCluster:
		switch m.focus {
		case focusNodes:
			m.nodeIdx = clamp(m.nodeIdx+delta, len(m.data.nodes))
			m.podIdx = 0
		case focusPods:
			if nv, ok := m.selectedNode(); ok {
				m.podIdx = clamp(m.podIdx+delta, len(nv.Pods))
			}
		case focusWorkloads:
			m.wlIdx = clamp(m.wlIdx+delta, len(m.data.workloads))
			m.refresh()
		case focusPending:
			m.pendIdx = clamp(m.pendIdx+delta, len(m.data.snap.Pending))
		}
	case viewEvents:
		// the list is anchored at the newest event: up scrolls back
		m.scroll[m.view] = max(0, min(m.scroll[m.view]-delta, m.maxScroll(m.view)))
	default:
		m.scroll[m.view] = max(0, min(m.scroll[m.view]+delta, m.maxScroll(m.view)))
	}
}

// moveSide moves between zone columns (nodes) or pods of a node.
func (m *Model) moveSide(delta int) {
	if m.view != viewCluster {
		return
	}
	if m.focus == focusPods {
		m.move(delta)
		return
	}
	if len(m.data.nodes) == 0 {
		return
	}
	cur := m.data.nodeDom[clamp(m.nodeIdx, len(m.data.nodes))]
	want := cur + delta
	for i, d := range m.data.nodeDom {
		if d == want {
			m.nodeIdx = i
			m.podIdx = 0
			return
		}
	}
}

func (m *Model) usageHint(line string) string {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "type a command — tab completes; e.g. scale deployment/web --replicas=6, cordon node-1, advance 30s"
	}
	best := ""
	for _, v := range command.Verbs() {
		parts := strings.Fields(v.Name)
		if len(fields) >= len(parts) && strings.EqualFold(strings.Join(fields[:len(parts)], " "), v.Name) {
			best = v.Usage + " — " + v.Help
		}
	}
	if best == "" {
		for _, v := range command.Verbs() {
			if strings.HasPrefix(v.Name, fields[0]) {
				best = v.Usage
				break
			}
		}
	}
	return best
}
