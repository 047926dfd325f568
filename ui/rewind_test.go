package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

func TestRewindStep(t *testing.T) {
	for _, c := range []struct{ present, want float64 }{{10, 1}, {60, 5}, {300, 15}, {3600, 300}} {
		if got := rewindStep(lab.Time(c.present * 1e9)).Seconds(); got != c.want {
			t.Errorf("rewindStep(%gs) = %gs, want %gs", c.present, got, c.want)
		}
	}
}

// ctrl+← rewinds by a step, the status line becomes a slider whose click
// jumps to an instant, R returns to the present. A session without the
// lab's rewind has the keys disabled: not shown, not acted on.
func TestRewindKeys(t *testing.T) {
	m := newTestModel(t, "spread-basics", 120, 30)
	typeCommand(m, "advance 30s")
	typeCommand(m, "cordon node1")
	typeCommand(m, "advance 30s")
	_, can := m.rewinder()
	if !can {
		update(m, keyPress("ctrl+left"))
		if m.sess.Now() != lab.Time(60e9) || m.global.Rewind.Enabled() || strings.Contains(screen(m), "⏪") {
			t.Fatalf("without the lab's rewind ctrl+← must be off: now %s, enabled %v", m.sess.Now(), m.global.Rewind.Enabled())
		}
		return
	}
	update(m, keyPress("ctrl+left"))
	if got := m.sess.Now(); got != lab.Time(55e9) {
		t.Fatalf("ctrl+← from 60s rewinds 5s: now %s", got)
	}
	s := screen(m)
	if !strings.Contains(s, "⏪ 0:00:55") || !strings.Contains(s, "R present") {
		t.Fatalf("the status line is the slider:\n%s", s)
	}
	// a click on the slider's first cell goes to 0s: node1 is not cordoned yet
	for _, h := range m.frameHits().hits {
		if h.kind == hitTime && h.index == 0 {
			update(m, tea.MouseClickMsg{X: h.x0, Y: h.y0, Button: tea.MouseLeft})
			break
		}
	}
	if got := m.sess.Now(); got != 0 || strings.Contains(screen(m), "node1 ⊘") {
		t.Fatalf("a click on the slider's start rewinds to 0s: now %s\n%s", got, screen(m))
	}
	press(m, "R")
	if got := m.sess.Now(); got != lab.Time(60e9) || !strings.Contains(screen(m), "node1 ⊘") {
		t.Fatalf("R returns to the present: now %s\n%s", got, screen(m))
	}
}

func keyPress(k string) tea.KeyPressMsg {
	if k == "ctrl+left" {
		return tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModCtrl}
	}
	return keyMsg(k)
}
