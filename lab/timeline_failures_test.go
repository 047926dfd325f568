package lab

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
)

const ghostScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: ghost}
cluster:
  node: {cpu: "4", memory: 8Gi, pods: 110}
  zones: [{name: zone-a, nodes: 1}]
timeline:
- {at: 1s, do: "delete pod ghost"}
- {at: 2s, do: "cordon node-1"}
`

func loadSession(t *testing.T, name, text string) *Session {
	t.Helper()
	f, err := LoadFile(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Issue 17: a timeline entry that fails was recorded in a field nothing
// read. It is a Warning event in the cluster's event log, and a note run
// and check print; the timeline goes on.
func TestTimelineFailureIsAWarningEvent(t *testing.T) {
	s := loadSession(t, "ghost.yaml", ghostScenario)
	if err := s.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	var warn []engine.Event
	for _, e := range s.Engine().Events() {
		if e.Reason == ReasonTimelineCommandFailed {
			warn = append(warn, e)
		}
	}
	if len(warn) != 1 {
		t.Fatalf("events %+v", warn)
	}
	want := `at 1s, delete pod ghost failed: unknown pod "ghost"; there are no pods (ghost.yaml:8:3)`
	if w := warn[0]; w.Type != engine.EventWarning || w.Object != "timeline" || w.Message != want || w.Time.Seconds() != 1 {
		t.Fatalf("event %+v\nwant message %q at 1s", w, want)
	}
	fails := s.TimelineFailures()
	if len(fails) != 1 || fails[0].Do != "delete pod ghost" || fails[0].Pos.Line != 8 || fails[0].Text != want {
		t.Fatalf("failures %+v", fails)
	}
	if n := s.Engine().Node("node-1"); n == nil || !n.Spec.Unschedulable {
		t.Fatal("the timeline stopped at the failure: cordon node-1 did not run")
	}
	// undo replays from a checkpoint: the failure is there once, still
	if _, err := s.Apply("cordon node-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := len(s.TimelineFailures()); got != 1 {
		t.Fatalf("after undo: %d failures", got)
	}
}

func TestRunPrintsTimelineFailuresAndFails(t *testing.T) {
	f, err := LoadFile("ghost.yaml", []byte(ghostScenario))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = Run(&out, f, RunOptions{For: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "1 timeline command failed: at 1s, delete pod ghost failed") {
		t.Fatalf("err %v", err)
	}
	if !strings.Contains(out.String(), "Timeline commands that failed:\n  1s       delete pod ghost  (ghost.yaml:8:3)\n") {
		t.Fatalf("output:\n%s", out.String())
	}
}

func TestShortCommand(t *testing.T) {
	long := strings.Repeat("x", 150)
	for _, c := range []struct{ in, want string }{
		{"delete pod ghost", "delete pod ghost"},
		{"apply --inline='kind: Pod\nmetadata: {name: a}'", "apply --inline='kind: Pod…"},
		{long, strings.Repeat("x", 100) + "…"},
	} {
		if got := shortCommand(c.in); got != c.want {
			t.Errorf("shortCommand(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTimelineFailureSince(t *testing.T) {
	events := []engine.Event{
		{Reason: ReasonTimelineCommandFailed, Message: "old"},
		{Reason: engine.ReasonScheduled},
		{Reason: ReasonTimelineCommandFailed, Message: "first"},
		{Reason: ReasonTimelineCommandFailed, Message: "last"},
		{Reason: engine.ReasonStarted},
	}
	for _, c := range []struct {
		from int
		want string
		ok   bool
	}{
		{0, "timeline: last", true},
		{4, "", false},
		{5, "", false},
		{9, "", false},
		{-1, "timeline: last", true},
	} {
		got, ok := TimelineFailureSince(events, c.from)
		if got != c.want || ok != c.ok {
			t.Errorf("from %d: %q %v, want %q %v", c.from, got, ok, c.want, c.ok)
		}
	}
}
