package ui

import (
	"strings"
	"testing"
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
	return newScenarioModel(t, ghostLab, 120, 30)
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
	m := newScenarioModel(t, ghostLab+"lesson:\n  steps:\n  - title: wait\n    do: [\"advance 5s\"]\n", 120, 30)
	m.applyStep()
	if !m.statusErr || !strings.Contains(m.status, "delete pod ghost failed") {
		t.Fatalf("status line %q (error %v)", m.status, m.statusErr)
	}
}
