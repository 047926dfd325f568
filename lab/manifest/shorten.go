package manifest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// quotedMax is how much of a quoted value a message shows: an error
// about a 20 MB name wrote it twice (42 MB) to stderr.
const quotedMax = 100

// shortenQuoted shortens every double-quoted value in s longer than
// quotedMax characters to its first quotedMax and its length:
// "aaaa…" (1000000 characters). Backslash escapes (%q) are honoured; an
// unclosed quote leaves the rest as it is.
func shortenQuoted(s string) string {
	if len(s) <= quotedMax+2 {
		return s
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '"')
		if open < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := closingQuote(s, open+1)
		if end < 0 {
			b.WriteString(s)
			return b.String()
		}
		inner := s[open+1 : end]
		b.WriteString(s[:open+1])
		if n := units(inner); n > quotedMax {
			cut := 0
			for i := 0; i < quotedMax && cut < len(inner); i++ {
				cut += unitLen(inner[cut:])
			}
			fmt.Fprintf(&b, "%s…\" (%d characters)", inner[:cut], n)
		} else {
			b.WriteString(inner)
			b.WriteByte('"')
		}
		s = s[end+1:]
	}
}

// closingQuote is the index of the quote closing one opened before i
// (-1: none).
func closingQuote(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// unitLen is the length of the character or escape (\", \x1b, \u00e9)
// s starts with: a value is never cut inside one.
func unitLen(s string) int {
	if s[0] != '\\' || len(s) < 2 {
		_, size := utf8.DecodeRuneInString(s)
		return size
	}
	n := 2
	switch s[1] {
	case 'x':
		n = 4
	case 'u':
		n = 6
	case 'U':
		n = 10
	}
	return min(n, len(s))
}

// units is how many characters (escapes counted as one) s has.
func units(s string) int {
	n := 0
	for i := 0; i < len(s); i += unitLen(s[i:]) {
		n++
	}
	return n
}
