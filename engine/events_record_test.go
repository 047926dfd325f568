package engine

import (
	"testing"
	"time"
)

func TestRecordEventJoinsTheLogAtTheCurrentTime(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.Step(3*time.Second))
	before := len(e.Events())
	e.RecordEvent(EventWarning, "TimelineCommandFailed", "timeline/0", `delete pod ghost: unknown pod "ghost"`)
	e.RecordEvent("Bogus", "X", "timeline/1", "m")
	got := e.EventsSince(before)
	if len(got) != 2 {
		t.Fatalf("events %+v", got)
	}
	want := Event{Time: sec(3), Type: EventWarning, Reason: "TimelineCommandFailed", Object: "timeline/0", Message: `delete pod ghost: unknown pod "ghost"`}
	if got[0] != want {
		t.Fatalf("got %+v\nwant %+v", got[0], want)
	}
	if got[1].Type != EventWarning {
		t.Fatalf("an unknown type is recorded as %q, want Warning", got[1].Type)
	}
}
