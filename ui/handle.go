package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/assets"
	"podlab.dev/podlab/lab/command"
)

// handleKey routes a key: the open overlay takes every key; else the
// global bindings, then the current view's.
func (m *Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	defer m.setKeys()
	if ov := m.overlay(); ov != nil {
		ov.SetKeys()
		cmd, done := ov.Update(msg)
		if done && m.top == ov {
			m.top = nil
		}
		return m, cmd
	}
	m.setKeys()
	g := m.global
	switch {
	case key.Matches(msg, g.Quit):
		return m, m.requestQuit()
	case key.Matches(msg, g.Help):
		m.openOverlay(newHelpOverlay(m))
	case key.Matches(msg, g.Palette):
		return m, m.openPalette(modeCommand, "")
	case key.Matches(msg, g.Back):
		m.switchView(0)
	case key.Matches(msg, g.Play):
		m.paused = !m.paused
	case key.Matches(msg, g.Step):
		m.paused = true
		m.apply("advance 1s")
	case key.Matches(msg, g.Faster):
		m.speedIdx = min(m.speedIdx+1, len(speeds)-1)
	case key.Matches(msg, g.Slower):
		m.speedIdx = max(m.speedIdx-1, 0)
	case key.Matches(msg, g.Rewind):
		if r, ok := m.rewinder(); ok {
			return m, m.rewindTo(m.sess.Now() - rewindStep(r.Present()))
		}
	case key.Matches(msg, g.Forward):
		if r, ok := m.rewinder(); ok {
			return m, m.rewindTo(m.sess.Now() + rewindStep(r.Present()))
		}
	case key.Matches(msg, g.Resume):
		m.resume()
	case key.Matches(msg, g.Undo):
		return m, m.applyLong("undo")
	case key.Matches(msg, g.Redo):
		return m, m.applyLong("redo")
	case key.Matches(msg, g.Fork):
		m.toggleFork()
	case key.Matches(msg, g.Lane):
		m.switchLane()
	case key.Matches(msg, g.NextStep):
		m.sess.SetStep(m.sess.Step() + 1)
		m.lessonOpen = true
		m.refresh()
	case key.Matches(msg, g.PrevStep):
		m.sess.SetStep(m.sess.Step() - 1)
		m.lessonOpen = true
		m.refresh()
	case key.Matches(msg, g.Apply):
		m.applyStep()
	case key.Matches(msg, g.ToggleLesson):
		m.lessonOpen = !m.lessonOpen
	case m.opts.NoFiles && (key.Matches(msg, g.Presets) || key.Matches(msg, g.Open) || key.Matches(msg, g.Save)):
		m.setStatus(noFilesStatus, true)
	case key.Matches(msg, g.Presets):
		m.openOverlay(newPicker(m))
	case key.Matches(msg, g.Open):
		return m, m.openPalette(modeOpen, "")
	case key.Matches(msg, g.Save):
		m.quitAfterSave = false
		return m, m.openPalette(modeSave, m.defaultSaveName())
	case key.Matches(msg, g.Theme):
		m.nextTheme()
	default:
		for i, b := range g.Views {
			if key.Matches(msg, b) {
				m.switchView(i)
				return m, nil
			}
		}
		cmd, _ := m.views[m.view].Update(msg)
		return m, cmd
	}
	return m, nil
}

// setKeys enables the bindings that do something now, in the global key
// map, the current view and the open overlay.
func (m *Model) setKeys() {
	g := m.global
	g.Back.SetEnabled(m.view != 0)
	for i := range g.Views {
		g.Views[i].SetEnabled(i != m.view)
	}
	_, canRewind := m.rewinder()
	_, _, rewound := m.rewound()
	// a fork has one clock for two lanes: rewind one lane alone is not offered
	canRewind = canRewind && m.fork == nil
	g.Rewind.SetEnabled(canRewind && m.sess.Now() > 0)
	g.Forward.SetEnabled(rewound)
	g.Resume.SetEnabled(rewound)
	g.Undo.SetEnabled(m.canUndo())
	g.Redo.SetEnabled(m.canRedo())
	g.Lane.SetEnabled(m.fork != nil)
	g.Faster.SetEnabled(m.speedIdx < len(speeds)-1)
	g.Slower.SetEnabled(m.speedIdx > 0)
	l := m.sess.Lesson()
	g.NextStep.SetEnabled(l != nil && m.sess.Step() < len(l.Steps)-1)
	g.PrevStep.SetEnabled(l != nil && m.sess.Step() > 0)
	g.Apply.SetEnabled(l != nil && len(l.Steps[m.sess.Step()].Do) > 0)
	// only the cluster view shows the lesson
	g.ToggleLesson.SetEnabled(m.view == 0)
	m.views[m.view].SetKeys()
	if ov := m.overlay(); ov != nil {
		ov.SetKeys()
	}
	m.keysGen++
}

func (m *Model) nextTheme() {
	names := assets.ThemeNames()
	next := names[0]
	for i, n := range names {
		if n == m.themeName {
			next = names[(i+1)%len(names)]
		}
	}
	m.setTheme(next)
	m.setStatus("theme "+next+" (T cycles: "+strings.Join(names, ", ")+")", false)
}

// prefill opens the command palette with a command for the user to edit
// and run: the quick keys teach the language.
func (m *Model) prefill(line string) tea.Cmd { return m.openPalette(modeCommand, line) }

func (m *Model) scaleSelected(up bool) {
	w, ok := m.selectedWorkload()
	if !ok || !w.Scalable() {
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
	mark := m.eventsMark()
	for _, line := range st.Do {
		if err := m.apply(line); err != nil {
			m.setStatus(fmt.Sprintf("%s: %v", line, err), true)
			return
		}
	}
	m.setStatus("applied: "+strings.Join(st.Do, "; "), false)
	m.flashTimelineFailure(mark) // a step's advance ran the timeline
}

// openExplain shows the explain view for a pod.
func (m *Model) openExplain(podKey string) {
	ev, i := viewIndex[*explainView](m)
	if i < 0 {
		return
	}
	ev.Reset()
	ev.podKey = podKey
	m.view = i
	m.refresh()
}

// switchView makes view i current, as its number key does; the explain
// view explains the pod selected in the cluster view.
func (m *Model) switchView(i int) {
	if i < 0 || i >= len(m.views) {
		return
	}
	if _, ok := m.views[i].(*explainView); ok {
		m.openExplain(m.selectedPodKey())
		return
	}
	m.view = i
	m.refresh()
}

// move moves the cursor of the cluster view's focused list by delta.
func (m *Model) move(delta int) {
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
}

// moveSide moves between zone columns (nodes) or pods of a node.
func (m *Model) moveSide(delta int) {
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
