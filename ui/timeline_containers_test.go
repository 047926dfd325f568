package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"podlab.dev/podlab/lab"
)

// crashLoopModel plays readiness-rollouts-pdbs as `podlab check
// --solutions` does (each step's solution, then 2 minutes): db-0's
// liveness probe is broken and it crash-loops; the drain evicted pods.
func crashLoopModel(t *testing.T, w, h int) *Model {
	t.Helper()
	m := newTestModel(t, "readiness-rollouts-pdbs", w, h)
	for _, st := range m.sess.File().Scenario.Lesson.Steps {
		for _, c := range append(append([]string{}, st.Solution...), "advance 2m") {
			if _, err := m.sess.Apply(c); err != nil {
				t.Fatalf("%s: %v", c, err)
			}
		}
	}
	m.changed()
	m.refresh()
	_, i := viewIndex[*timelineView](m)
	press(m, string(rune('1'+i)))
	return m
}

// The timeline shows, after the terminations, the container bars of the
// pod that crash-loops: its restarts, back-off waits and probe failures.
func TestTimelineShowsContainerRestarts(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"160x48", 160, 48}} {
		t.Run(c.name, func(t *testing.T) {
			m := crashLoopModel(t, c.w, c.h)
			update(m, pressKeyRaw("end")) // the section is below the terminations
			s := screen(m)
			for _, want := range []string{"default/db-0", string(glyphRestart), string(glyphBackOff), string(glyphProbe), "back-off"} {
				if !strings.Contains(s, want) {
					t.Errorf("the timeline lacks %q:\n%s", want, s)
				}
			}
			golden.RequireEqual(t, s)
		})
	}
}

// ctrWatch reads only new events, in order of each pod's first
// back-off or probe failure, and starts over for another engine.
func TestCtrWatch(t *testing.T) {
	evs := []lab.Event{
		{Reason: "Started", Object: "pod/default/a"},
		{Reason: "Unhealthy", Object: "pod/default/b", Message: "Liveness probe failed: x"},
		{Reason: "BackOff", Object: "pod/default/a"},
		{Reason: "BackOff", Object: "node/n1"},
		{Reason: "Unhealthy", Object: "pod/default/b", Message: "Liveness probe failed: x"},
		{Reason: "Unhealthy", Object: "pod/default/c", Message: "Readiness probe failed: x"},
		{Reason: "Killing", Object: "pod/default/d", Message: "Stopping container d"},
		{Reason: "Killing", Object: "pod/default/e", Message: "Container e failed startup probe, will be restarted"},
	}
	var w ctrWatch
	e1, e2 := new(int), new(int)
	w.update(e1, evs[:2])
	if got := strings.Join(w.pods, ","); got != "default/b" {
		t.Fatalf("after 2 events: %q", got)
	}
	w.update(e1, evs)
	if got := strings.Join(w.pods, ","); got != "default/b,default/a,default/e" {
		t.Fatalf("after 8 events (readiness failures and evictions do not count): %q", got)
	}
	w.update(e2, evs[:3])
	if got := strings.Join(w.pods, ","); got != "default/b,default/a" || w.scanned != 3 {
		t.Fatalf("another engine starts over: %q scanned %d", got, w.scanned)
	}
	w.update(e2, evs[:1])
	if len(w.pods) != 0 {
		t.Fatalf("fewer events (a rewind) start over: %q", w.pods)
	}
}
