package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestHeaderMemo: a reused header is the line a fresh draw gives, with the
// same tab regions, and anything it shows (view, clock) draws it again.
func TestHeaderMemo(t *testing.T) {
	m := newTestModel(t, "spread-basics", 120, 40)
	first := m.render()
	hits := slices.Clone(m.hits.hits)
	if m.render() != first || !slices.Equal(m.hits.hits, hits) {
		t.Fatal("second frame differs from the first though nothing changed")
	}
	check := func(what string) {
		t.Helper()
		got := strings.Split(m.render(), "\n")[0]
		gotHits := slices.Clone(m.hits.hits)
		m.headerMemo = headerMemo{}
		want := strings.Split(m.render(), "\n")[0]
		if got != want {
			t.Errorf("%s: header %q, drawn afresh %q", what, got, want)
		}
		if !slices.Equal(gotHits, m.hits.hits) {
			t.Errorf("%s: reused header's regions differ from a fresh draw's", what)
		}
	}
	press(m, "2")
	check("after switching view")
	if strings.Split(m.render(), "\n")[0] == strings.Split(first, "\n")[0] {
		t.Error("header did not change with the view")
	}
	before := m.clockText()
	press(m, "space") // unpause: the clock's state sign changes
	if m.clockText() == before {
		t.Fatal("test setup: clock text did not change")
	}
	check("after unpausing")
}

// TestQuietTickKeepsFrame: a tick that changes nothing visible reuses the
// last frame, and every frame View gives, reused or not, is the one a
// fresh draw gives.
func TestQuietTickKeepsFrame(t *testing.T) {
	for _, view := range []string{"1", "3"} { // cluster; timeline is live
		m := newTestModel(t, "spread-basics", 120, 40)
		press(m, view, "space") // run the clock
		if m.paused {
			t.Fatal("test setup: still paused")
		}
		m.View()
		reused := 0
		for i := 0; i < 40; i++ {
			update(m, tickMsg{id: m.tickID})
			if m.drawn {
				reused++
			}
			got := m.View().Content
			if fresh := m.render(); got != fresh {
				t.Fatalf("view %s tick %d: the frame shown is not the frame drawn afresh", view, i)
			}
		}
		live := m.views[m.view].Live()
		if live != (view == "3") {
			t.Fatalf("test setup: view %s live=%v", view, live)
		}
		if live && reused != 0 {
			t.Errorf("view %s (live): %d ticks reused a frame", view, reused)
		}
		if !live && reused == 0 {
			t.Errorf("view %s: no quiet tick reused its frame", view)
		}
	}
}

// TestHintWords: the hint drawn for a line's verb words is the hint for
// the whole line (usageHint reads no further).
func TestHintWords(t *testing.T) {
	m := newTestModel(t, "spread-basics", 120, 40)
	for _, line := range []string{"", "  ", "sc", "scale", "scale deployment/web --replicas=6",
		"rollout undo deployment/web", "rollout", "cordon node-1 extra words here", "nosuchverb a b c"} {
		if got, want := m.usageHint(hintWords(line)), m.usageHint(line); got != want {
			t.Errorf("%q: hint from its verb words %q, from the line %q", line, got, want)
		}
	}
	if maxVerbWords() < 2 {
		t.Errorf("maxVerbWords = %d: some verbs have two words", maxVerbWords())
	}
}

// TestBoxEdgesReused: a box drawn with edges kept from earlier boxes is
// the box drawn with fresh styles, also once the cache was emptied.
func TestBoxEdgesReused(t *testing.T) {
	st := NewStyles(mustTheme(t, "dark"), false)
	for round := 0; round < 2; round++ {
		for i := 0; i < maxEdges+5; i++ {
			title := fmt.Sprintf("pods %d", i%(maxEdges+3))
			got := box(st, title, []string{"a", "b"}, 30, 4, i%2 == 0)
			want := box(NewStyles(mustTheme(t, "dark"), false), title, []string{"a", "b"}, 30, 4, i%2 == 0)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d box %d: %q, fresh %q", round, i, got, want)
			}
		}
	}
	if len(st.edges) > maxEdges {
		t.Errorf("%d edges kept, at most %d", len(st.edges), maxEdges)
	}
}

// TestFooterMemo: after each key the footer is the one drawn afresh (the
// memo follows the bindings' help, not the setKeys count).
func TestFooterMemo(t *testing.T) {
	m := newTestModel(t, "spread-basics", 120, 40)
	seen := map[string]bool{}
	for _, k := range []string{"space", "space", "2", "1", "tab", ":", "s", "esc", "?", "esc"} {
		press(m, k)
		got := m.footer(120)
		m.memos.footer = memo{}
		if want := m.footer(120); got != want {
			t.Errorf("after %q: footer %q, drawn afresh %q", k, got, want)
		}
		seen[got] = true
	}
	if len(seen) < 3 {
		t.Errorf("only %d distinct footers: the keys tried did not change the bindings", len(seen))
	}
}
