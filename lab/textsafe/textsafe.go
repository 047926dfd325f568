// Package textsafe makes input-derived text safe to draw on a terminal.
//
// Scenario titles, lesson text, annotations, image names and event
// messages come from files a user did not necessarily write. Printed raw,
// an escape sequence in them can clear the screen (CSI 2J), retitle the
// window (OSC 0), write the clipboard (OSC 52) or hide text — the class of
// bug kubectl fixed as CVE-2021-25743. Every string that came from input
// goes through Line (one-line fields) or Text (multi-line prose) before it
// is drawn or printed; control characters are shown visibly, never
// dropped, so a user can see that a file contains them.
package textsafe

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Line returns s with every control character made visible: C0 controls
// (including newline, carriage return and tab) and DEL in caret notation
// (ESC is "^["), C1 controls and bidirectional formatting characters as
// <U+XXXX>, and bytes that are not UTF-8 as \xNN. The result is valid
// UTF-8 with no control characters, so it occupies one terminal line.
func Line(s string) string { return clean(s, false) }

// Text is Line for multi-line prose: newlines are kept (a CRLF becomes a
// newline) and a tab becomes four spaces; everything else is as Line.
func Text(s string) string { return clean(s, true) }

// Lines applies Line to every element of ss, returning a new slice.
func Lines(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Line(s)
	}
	return out
}

// IsSafe reports whether Line(s) == s, without allocating.
func IsSafe(s string) bool { return safePrefix(s, false) == len(s) }

func clean(s string, multiline bool) string {
	i := safePrefix(s, multiline)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case multiline && c == '\n':
				b.WriteByte('\n')
			case multiline && c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				// CRLF: the newline that follows is written next
			case multiline && c == '\t':
				b.WriteString("    ")
			case c < 0x20:
				b.WriteByte('^')
				b.WriteByte(c + '@')
			case c == 0x7f:
				b.WriteString("^?")
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(c)>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(c)&0xf, 16))
		case unsafeRune(r):
			b.WriteString("<U+")
			h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
			b.WriteString(strings.Repeat("0", max(0, 4-len(h))))
			b.WriteString(h)
			b.WriteByte('>')
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// safePrefix returns the length of the longest prefix of s that clean
// leaves unchanged; the common case (all printable ASCII) is one pass
// with no decoding.
func safePrefix(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && !(multiline && c == '\n')) || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return i
		}
		i += size
	}
	return len(s)
}

// unsafeRune reports the non-ASCII runes a terminal acts on rather than
// draws: C1 controls (U+0080–U+009F; 0x9B is a one-byte CSI on some
// terminals), the line and paragraph separators, and the bidirectional
// embedding, override and isolate controls that reorder what follows them
// ("Trojan Source", CVE-2021-42574).
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	}
	return false
}
