package engine

import (
	"fmt"
	"testing"
)

// TestEachEventSinceMatchesEventsSince reads the log across sealed
// chunks and the open tail, from every offset, on an engine and on a
// clone that appended its own events after the fork.
func TestEachEventSinceMatchesEventsSince(t *testing.T) {
	saved := eventChunk
	eventChunk = 7
	defer func() { eventChunk = saved }()
	e := newTestEngine(t)
	for i := 0; i < 12; i++ {
		must(t, e.AddNode(node(fmt.Sprintf("n%d", i), "4", "4Gi")))
	}
	c := e.Clone()
	for i := 12; i < 20; i++ {
		must(t, c.AddNode(node(fmt.Sprintf("n%d", i), "4", "4Gi")))
	}
	for _, eng := range []*Engine{e, c} {
		all := eng.Events()
		if eng.EventCount() != len(all) || len(all) < 12 {
			t.Fatalf("EventCount %d, Events %d", eng.EventCount(), len(all))
		}
		for n := 0; n <= len(all)+1; n++ {
			var got []string
			eng.EachEventSince(n, func(ev *Event) { got = append(got, ev.Message) })
			want := eng.EventsSince(n)
			if len(got) != len(want) {
				t.Fatalf("since %d: %d events, want %d", n, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i].Message {
					t.Fatalf("since %d, event %d: %q, want %q", n, i, got[i], want[i].Message)
				}
			}
		}
	}
}
