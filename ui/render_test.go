package ui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"podlab.dev/podlab/assets"
)

func TestCellWidthMatchesAnsi(t *testing.T) {
	st := NewStyles(mustTheme(t, "dark"), false)
	for _, s := range []string{
		"", "plain ascii", "● ○ ◌ ▲ ✕ ◇ ◐", "▰▰▱▱ 62% · ×¼ −1 ≤ ✓ ✗ ⚠ ⊘ ⚑2 ⏸ ⏵ …",
		st.Selected.Render("node-1") + " " + st.Bad.Render("⚠"), "╭─ zone-a ─╮│╰╯",
		"日本語 wide", "e\u0301 combining", "emoji 🚀 ✅", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
	} {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, ansi says %d", s, got, want)
		}
	}
	for r := rune(0x20); r < fastRunes; r++ {
		s := "a" + string(r) + "b"
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Fatalf("cellWidth(%q U+%04X) = %d, ansi says %d", s, r, got, want)
		}
	}
}

func mustTheme(t testing.TB, name string) assets.Theme {
	t.Helper()
	th, err := assets.LoadTheme(name)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// drawOver's fast cuts agree with ansi's on what the lab draws.
func TestCutCellsMatchesAnsi(t *testing.T) {
	st := NewStyles(mustTheme(t, "dark"), false)
	lines := []string{
		"plain ascii line", st.Selected.Render("node-1") + " " + st.Bad.Render("⚠") + " ● ○ ◌",
		"╭─ zone-a ─╮│╰╯ " + st.Muted.Render("cpu ▰▰▱▱ 62%"), "日本語 wide", "emoji 🚀 ✅ x",
	}
	for _, l := range lines {
		for n := 0; n <= cellWidth(l)+1; n++ {
			got, _ := cutCells(l, n)
			if want := ansi.Truncate(l, n, ""); ansi.Strip(got) != ansi.Strip(want) {
				t.Errorf("cutCells(%q, %d) = %q, ansi %q", l, n, got, want)
			}
			if got, want := dropCells(l, n), ansi.TruncateLeft(l, n, ""); ansi.Strip(got) != ansi.Strip(want) {
				t.Errorf("dropCells(%q, %d) = %q, ansi %q", l, n, got, want)
			}
		}
	}
}
