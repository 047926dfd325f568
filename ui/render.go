package ui

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// cellWidth is ansi.StringWidth with a fast path for what the lab draws
// (it measures every line of every frame): escape sequences are skipped,
// runes below U+2C00 (Latin, punctuation, arrows, box drawing, geometric
// shapes, dingbats) are looked up in a table of ansi's own widths, and
// anything else goes to ansi.StringWidth.
func cellWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
			continue
		case c < 0x80:
			if c >= 0x20 && c != 0x7f {
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= fastRunes {
			return ansi.StringWidth(s)
		}
		runeWidthOnce.Do(buildRuneWidths)
		w := runeWidths[r]
		if w == 0 {
			// combining and zero-width runes join a cluster: let ansi decide
			return ansi.StringWidth(s)
		}
		n += int(w)
		i += size
	}
	return n
}

// fastRunes bounds the runes whose width cellWidth looks up in a table
// (ansi.StringWidth's own answer, computed once).
const fastRunes = 0x2c00

var (
	runeWidthOnce sync.Once
	runeWidths    []uint8
)

func buildRuneWidths() {
	runeWidths = make([]uint8, fastRunes)
	for r := rune(0x80); r < fastRunes; r++ {
		// marks, format characters and Hangul jamo join grapheme
		// clusters: they stay 0 (measured in context by ansi); a rune is
		// in the table only if it measures the same beside a letter
		if !utf8.ValidRune(r) || unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc, unicode.Cf) || (r >= 0x1100 && r < 0x1200) {
			continue
		}
		c := string(r)
		w := ansi.StringWidth(c)
		if ansi.StringWidth("a"+c) != w+1 || ansi.StringWidth(c+"a") != w+1 {
			continue
		}
		runeWidths[r] = uint8(w)
	}
}

// skipEscape returns the index after the escape sequence at s[i] (CSI,
// OSC and two-byte escapes).
func skipEscape(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[':
		for j := i + 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']':
		for j := i + 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return i + 2
}

// fit truncates or pads a (styled) line to exactly w cells.
func fit(line string, w int) string {
	if w <= 0 {
		return ""
	}
	n := cellWidth(line)
	if n > w {
		return ansi.Truncate(line, w, "…")
	}
	return line + strings.Repeat(" ", w-n)
}

// pad makes exactly h lines from lines that already are w cells wide.
func pad(lines []string, w, h int) []string {
	if len(lines) >= h {
		return lines[:h]
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(lines) < h {
		lines = append(lines, blank)
	}
	return lines
}

// block makes exactly h lines of width w from lines (cut or padded).
func block(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := 0; i < h; i++ {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// box draws a rounded border with a title around lines, w×h cells in all.
func box(st *Styles, title string, lines []string, w, h int, active bool) []string {
	if w < 4 || h < 2 {
		return block(nil, max(w, 0), max(h, 0))
	}
	side := st.borderSide
	if active {
		side = st.borderSideActive
	}
	inner := w - 2
	edges := st.boxEdges(title, w, active)
	out := make([]string, 0, h)
	out = append(out, edges[0])
	body := block(lines, inner, h-2)
	for _, l := range body {
		out = append(out, side+l+side)
	}
	return append(out, edges[1])
}

// boxEdges are the top line (with the title) and the bottom line of a
// w-cell box, drawn once per title, width and focus.
func (st *Styles) boxEdges(title string, w int, active bool) [2]string {
	k := edgeKey{title, w, active}
	if e, ok := st.edges[k]; ok {
		return e
	}
	bs := st.Border
	if active {
		bs = st.Accent
	}
	inner := w - 2
	t := ""
	if title != "" {
		t = " " + ansi.Truncate(title, max(inner-4, 1), "…") + " "
	}
	top := bs.Render("╭─") + st.Heading.Render(t) + bs.Render(strings.Repeat("─", max(inner-1-ansi.StringWidth(t), 0))+"╮")
	e := [2]string{fit(top, w), bs.Render("╰" + strings.Repeat("─", inner) + "╯")}
	if st.edges == nil || len(st.edges) >= maxEdges {
		st.edges = map[edgeKey][2]string{}
	}
	st.edges[k] = e
	return e
}

// overlayWidth is the width of an overlay that wants `want` cells on a
// w-cell screen: the full width when it would leave only a sliver beside
// it (the borders of the boxes below would show next to its own).
func overlayWidth(want, w int) int {
	if want >= w-4 {
		return w
	}
	return want
}

// drawOver draws top over base at (x, y).
func drawOver(base, top []string, x, y int) []string {
	out := append([]string(nil), base...)
	for i, l := range top {
		row := y + i
		if row < 0 || row >= len(out) {
			continue
		}
		tw := cellWidth(l)
		left, lw := cutCells(out[row], x)
		if lw < x {
			left += strings.Repeat(" ", x-lw)
		}
		out[row] = left + l + dropCells(out[row], x+tw)
	}
	return out
}

// cutCells is the first n cells of a styled line and their width (less
// than n when the line is shorter), keeping every escape sequence of the
// line so the styles open and close as before (ansi.Truncate's contract,
// with a fast path for what the lab draws).
func cutCells(s string, n int) (string, int) {
	var b strings.Builder
	w := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			j := skipEscape(s, i)
			b.WriteString(s[i:j])
			i = j
			continue
		}
		size, rw := 1, 1
		if c >= 0x80 {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			if r >= fastRunes {
				t := ansi.Truncate(s, n, "")
				return t, min(ansi.StringWidth(t), n)
			}
			runeWidthOnce.Do(buildRuneWidths)
			rw = int(runeWidths[r])
			if rw == 0 {
				t := ansi.Truncate(s, n, "")
				return t, min(ansi.StringWidth(t), n)
			}
		} else if c < 0x20 || c == 0x7f {
			rw = 0
		}
		if w+rw <= n {
			b.WriteString(s[i : i+size])
			w += rw
		}
		i += size
	}
	return b.String(), w
}

// dropCells is a styled line without its first n cells, keeping the
// escape sequences before them (ansi.TruncateLeft's contract, fast path).
func dropCells(s string, n int) string {
	var b strings.Builder
	w := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			j := skipEscape(s, i)
			b.WriteString(s[i:j])
			i = j
			continue
		}
		size, rw := 1, 1
		if c >= 0x80 {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			if r >= fastRunes {
				return ansi.TruncateLeft(s, n, "")
			}
			runeWidthOnce.Do(buildRuneWidths)
			rw = int(runeWidths[r])
			if rw == 0 {
				return ansi.TruncateLeft(s, n, "")
			}
		} else if c < 0x20 || c == 0x7f {
			rw = 0
		}
		if w >= n {
			b.WriteString(s[i:])
			return b.String()
		}
		w += rw
		if w > n {
			// a wide rune cut in half: its other half is a space
			b.WriteString(strings.Repeat(" ", w-n))
		}
		i += size
	}
	return b.String()
}

// hbar draws a horizontal allocation bar of w cells for frac in [0,1].
func hbar(st *Styles, frac float64, w int) string {
	if w <= 0 {
		return ""
	}
	frac = min(max(frac, 0), 1)
	full := int(frac*float64(w) + 0.5)
	if frac > 0 && full == 0 {
		full = 1
	}
	return st.Bar.Render(strings.Repeat("▰", full)) + st.BarEmpty.Render(strings.Repeat("▱", w-full))
}

// join puts columns side by side; each column is a list of lines of the
// given width.
func joinColumns(cols [][]string, gap int) []string {
	if len(cols) == 0 {
		return nil
	}
	h := 0
	for _, c := range cols {
		h = max(h, len(c))
	}
	out := make([]string, h)
	sep := strings.Repeat(" ", gap)
	for i := 0; i < h; i++ {
		var b strings.Builder
		n := 0 // grown once: lines with colour run to kilobytes
		for _, c := range cols {
			if i < len(c) {
				n += len(c[i]) + gap
			}
		}
		b.Grow(n)
		for j, c := range cols {
			if j > 0 {
				b.WriteString(sep)
			}
			if i < len(c) {
				b.WriteString(c[i])
			} else if len(c) > 0 {
				b.WriteString(strings.Repeat(" ", cellWidth(c[0])))
			}
		}
		out[i] = b.String()
	}
	return out
}

// wrapText wraps plain text to w cells.
func wrapText(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	return strings.Split(lipgloss.NewStyle().Width(w).Render(s), "\n")
}
