package engine

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestSealChunkReadsBackEveryEvent packs events — repeated and distinct
// reasons, empty strings, multi-byte text — and reads each back equal.
func TestSealChunkReadsBackEveryEvent(t *testing.T) {
	evs := []Event{
		{Time: 0, Type: EventNormal, Reason: ReasonScheduled, Object: "pod/default/web-1", Message: "Successfully assigned default/web-1 to n1"},
		{Time: api.Time(1500), Type: EventWarning, Reason: ReasonFailedScheduling, Object: "pod/default/web-2", Message: "0/3 nodes are available"},
		{Time: api.Time(1500), Type: EventNormal, Reason: ReasonScheduled, Object: "pod/default/web-2", Message: ""},
		{Time: api.MaxTime, Type: "", Reason: "", Object: "", Message: "ünïcødé ✓"},
		{Time: api.MinTime, Type: EventWarning, Reason: "Custom", Object: "timeline/x", Message: "Custom"},
	}
	c := sealChunk(evs)
	if c.len() != len(evs) {
		t.Fatalf("len %d, want %d", c.len(), len(evs))
	}
	for i, want := range evs {
		var got Event
		c.event(i, &got)
		if got != want {
			t.Errorf("event %d: %+v, want %+v", i, got, want)
		}
	}
	if empty := sealChunk(nil); empty.len() != 0 {
		t.Errorf("empty chunk: len %d", empty.len())
	}
}

// TestSealedLogIsTheRecordedLog: with chunks sealed every few events,
// Events returns exactly what was recorded, in order, on an engine and
// on a clone that recorded its own events after the fork.
func TestSealedLogIsTheRecordedLog(t *testing.T) {
	saved := eventChunk
	eventChunk = 3
	defer func() { eventChunk = saved }()
	e := newTestEngine(t)
	var want []Event
	rec := func(eng *Engine, reason, msg string) {
		eng.RecordEvent(EventNormal, reason, "lab/x", msg)
	}
	for i := 0; i < 10; i++ {
		rec(e, "R"+string(rune('a'+i%3)), string(rune('A'+i)))
	}
	want = append(want, e.Events()...)
	c := e.Clone()
	rec(c, "Late", "clone")
	rec(e, "Late", "origin")
	if got := c.Events(); len(got) != len(want)+1 || got[len(want)].Message != "clone" {
		t.Fatalf("clone: %d events, last %+v", len(got), got[len(got)-1])
	}
	got := e.Events()
	if len(got) != len(want)+1 || got[len(want)].Message != "origin" {
		t.Fatalf("origin: %d events", len(got))
	}
	for i := range want {
		if got[i] != want[i] || c.Events()[i] != want[i] {
			t.Fatalf("event %d: %+v / %+v, want %+v", i, got[i], c.Events()[i], want[i])
		}
		if want[i].Message != string(rune('A'+i)) || want[i].Reason != "R"+string(rune('a'+i%3)) {
			t.Fatalf("event %d recorded as %+v", i, want[i])
		}
	}
}
