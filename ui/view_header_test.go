package ui

import (
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
