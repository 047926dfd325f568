package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// fit truncates or pads a (styled) line to exactly w cells.
func fit(line string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(line)
	if n > w {
		return ansi.Truncate(line, w, "…")
	}
	return line + strings.Repeat(" ", w-n)
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
	out := []string{fit(top, w)}
	body := block(lines, inner, h-2)
	for _, l := range body {
		out = append(out, bs.Render("│")+l+bs.Render("│"))
	}
	out = append(out, bs.Render("╰"+strings.Repeat("─", inner)+"╯"))
	return out
}

// overlay draws top over base at (x, y).
func overlay(base, top []string, x, y int) []string {
	out := append([]string(nil), base...)
	for i, l := range top {
		row := y + i
		if row < 0 || row >= len(out) {
			continue
		}
		bw := ansi.StringWidth(out[row])
		tw := ansi.StringWidth(l)
		left := ansi.Truncate(out[row], x, "")
		if lw := ansi.StringWidth(left); lw < x {
			left += strings.Repeat(" ", x-lw)
		}
		right := ""
		if x+tw < bw {
			right = ansi.TruncateLeft(out[row], x+tw, "")
		}
		out[row] = left + l + right
	}
	return out
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
		for j, c := range cols {
			if j > 0 {
				b.WriteString(sep)
			}
			if i < len(c) {
				b.WriteString(c[i])
			} else if len(c) > 0 {
				b.WriteString(strings.Repeat(" ", ansi.StringWidth(c[0])))
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
