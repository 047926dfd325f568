package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// ghostLab is issue 17's repro: a timeline entry that fails.
const ghostLab = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: ghost}
cluster:
  node: {cpu: "4", memory: 8Gi, pods: 110}
  zones: [{name: zone-a, nodes: 1}]
timeline:
- {at: 1s, do: "delete pod ghost"}
`

func newGhostModel(t *testing.T) *Model {
	t.Helper()
	f, err := lab.LoadFile("ghost.yaml", []byte(ghostLab))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := lab.NewSession(f, lab.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := New(sess, Options{Theme: "dark", NoColor: true, Paused: true})
	update(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	return m
}

func TestTimelineFailureFlashesAndIsAWarningEvent(t *testing.T) {
	m := newGhostModel(t)
	m.paused = false
	for i := 0; i < 200 && m.sess.Now().Seconds() < 2; i++ {
		update(m, tickMsg{id: m.tickID})
	}
	if !m.statusErr || !strings.Contains(m.status, "delete pod ghost failed") {
		t.Fatalf("status line %q (error %v): the failed timeline command is not flashed", m.status, m.statusErr)
	}
	press(m, "5") // the events view
	if s := screen(m); !strings.Contains(s, "TimelineCommandFailed") {
		t.Fatalf("the events view does not show the failure:\n%s", s)
	}
}

func TestTimelineFailureFlashesAfterAnAdvanceCommand(t *testing.T) {
	m := newGhostModel(t)
	typeCommand(m, "advance 5s")
	if !m.statusErr || !strings.Contains(m.status, "delete pod ghost failed") {
		t.Fatalf("status line %q (error %v)", m.status, m.statusErr)
	}
}

func TestTimelineFailureFlashesAfterALessonStep(t *testing.T) {
	f, err := lab.LoadFile("ghost.yaml", []byte(ghostLab+"lesson:\n  steps:\n  - title: wait\n    do: [\"advance 5s\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := lab.NewSession(f, lab.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := New(sess, Options{Theme: "dark", NoColor: true, Paused: true})
	update(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	m.applyStep()
	if !m.statusErr || !strings.Contains(m.status, "delete pod ghost failed") {
		t.Fatalf("status line %q (error %v)", m.status, m.statusErr)
	}
}
