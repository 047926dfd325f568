package textsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "web-7d9f zone-a", "web-7d9f zone-a"},
		{"unicode kept", "zone ä ✓ 日本", "zone ä ✓ 日本"},
		{"CSI 2J clear screen", "title\x1b[2J\x1b[H", "title^[[2J^[[H"},
		{"blink as in the lesson title bug", "\x1b[5mhi\x1b[0m", "^[[5mhi^[[0m"},
		{"OSC 0 window title (BEL)", "\x1b]0;owned\x07x", "^[]0;owned^Gx"},
		{"OSC 52 clipboard (ST)", "\x1b]52;c;ZWNobyBoaQ==\x1b\\", "^[]52;c;ZWNobyBoaQ==^[\\"},
		{"newline and CR", "a\nb\rc", "a^Jb^Mc"},
		{"tab", "a\tb", "a^Ib"},
		{"DEL", "a\x7fb", "a^?b"},
		{"NUL", "a\x00b", "a^@b"},
		{"C1 CSI", "a\u009b2Jb", "a<U+009B>2Jb"},
		{"bidi override", "abc\u202Edef", "abc<U+202E>def"},
		{"bidi isolate", "\u2066x\u2069", "<U+2066>x<U+2069>"},
		{"invalid utf-8", "a\xffb\xc3", `a\xffb\xc3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Line(tt.in); got != tt.want {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if IsSafe(tt.in) != (tt.in == tt.want) {
				t.Errorf("IsSafe(%q) = %v", tt.in, IsSafe(tt.in))
			}
		})
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"newlines kept", "one\ntwo\n", "one\ntwo\n"},
		{"CRLF", "one\r\ntwo", "one\ntwo"},
		{"lone CR visible", "one\rtwo", "one^Mtwo"},
		{"tab expanded", "a\tb", "a    b"},
		{"escape in prose", "Step 1\n\x1b]52;c;AAAA\x07done", "Step 1\n^[]52;c;AAAA^Gdone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLinesCopies(t *testing.T) {
	in := []string{"ok", "\x1b[2J"}
	out := Lines(in)
	if out[0] != "ok" || out[1] != "^[[2J" || in[1] != "\x1b[2J" {
		t.Fatalf("Lines(%q) = %q (input changed: %q)", []string{"ok", "\x1b[2J"}, out, in)
	}
}

// checkSafe asserts what every caller relies on: nothing a terminal acts
// on survives, and the output is valid UTF-8.
func checkSafe(t *testing.T, in, out string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("clean(%q) = %q: not UTF-8", in, out)
	}
	for _, r := range out {
		if r == '\n' && multiline {
			continue
		}
		if r < 0x20 || r == 0x7f || unsafeRune(r) {
			t.Fatalf("clean(%q) = %q: contains %U", in, out, r)
		}
	}
	if !multiline && strings.Contains(out, "\n") {
		t.Fatalf("Line(%q) has a newline", in)
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2J", "\x1b]52;c;AAAA\x07", "\x1b]0;t\x1b\\", "a\r\nb", "\u009b\u202e\xff", "\t\x00\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line := Line(s)
		checkSafe(t, s, line, false)
		if Line(line) != line {
			t.Fatalf("Line not idempotent on %q", s)
		}
		if IsSafe(s) != (line == s) {
			t.Fatalf("IsSafe(%q) disagrees with Line", s)
		}
		text := Text(s)
		checkSafe(t, s, text, true)
		if Text(text) != text {
			t.Fatalf("Text not idempotent on %q", s)
		}
	})
}

func BenchmarkLineClean(b *testing.B) {
	s := "web-7d9f6b5c4-x2k9z scheduled to node-17 in zone-b"
	for b.Loop() {
		_ = Line(s)
	}
}
