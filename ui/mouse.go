package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// handleClick selects what is under the mouse: a view tab in the header,
// a node (its name) or a pod (its glyph) in the cluster view, a workload
// in the workload list.
func (m *Model) handleClick(mo tea.Mouse) {
	if m.w < minWidth || m.h < minHeight || m.pal.open || m.picker != nil || m.help || m.legend {
		return
	}
	lines := strings.Split(ansi.Strip(m.render()), "\n")
	if mo.Y < 0 || mo.Y >= len(lines) || mo.X < 0 {
		return
	}
	line := []rune(lines[mo.Y])
	if mo.Y == 0 {
		if v, ok := tabAt(line, mo.X); ok {
			m.switchView(v)
		}
		return
	}
	if m.view != viewCluster {
		return
	}
	if i, ok := m.wlRows.at(mo.X, mo.Y); ok {
		m.wlIdx, m.focus = i, focusWorkloads
		m.refresh()
		return
	}
	if len(m.data.nodes) == 0 || mo.X >= len(line) {
		return
	}
	m.clickNode(lines, mo.X, mo.Y)
}

// rowSpan is where a list drew its rows: n rows from screen line y, cells
// [x0, x1), showing the list's items from first on.
type rowSpan struct {
	y, x0, x1, first, n int
}

// at is the item drawn at (x, y).
func (r rowSpan) at(x, y int) (int, bool) {
	if y < r.y || y >= r.y+r.n || x < r.x0 || x >= r.x1 {
		return 0, false
	}
	return r.first + y - r.y, true
}

// clickNode finds the node card (or row) under (x, y): the box borders
// left and right of x bound the column, the nearest line at or above y
// that starts with a node name names the node, and the glyphs before x on
// the card's glyph lines count the pod.
func (m *Model) clickNode(lines []string, x, y int) bool {
	row := []rune(lines[y])
	left, right := x, x
	for left > 0 && !isBorder(row[left]) {
		left--
	}
	for right < len(row)-1 && !isBorder(row[right]) {
		right++
	}
	seg := func(yy int) []rune {
		r := []rune(lines[yy])
		a, b := min(left+1, len(r)), min(right, len(r))
		if a >= b {
			return nil
		}
		return r[a:b]
	}
	byName := map[string]int{}
	for i, nv := range m.data.nodes {
		byName[nv.Node.Name] = i
	}
	for top := y; top >= max(y-4, 1); top-- {
		s := seg(top)
		fields := strings.Fields(strings.TrimPrefix(strings.TrimLeft(string(s), " "), "▸"))
		if len(fields) == 0 {
			continue
		}
		ni, ok := byName[fields[0]]
		if !ok {
			continue
		}
		m.nodeIdx, m.focus = ni, focusNodes
		nPods := len(m.data.nodes[ni].Pods)
		glyph := -1
		if top == y {
			// rows mode: the glyphs follow the memory percentage
			str := string(s)
			if at := strings.LastIndex(str, "% "); at >= 0 {
				start := len([]rune(str[:at+2]))
				if k := x - left - 1 - start; k >= 0 {
					glyph = k
				}
			}
		} else if y-top >= 2 {
			count := 0
			for gy := top + 2; gy < y; gy++ {
				count += glyphCount(seg(gy))
			}
			cur := seg(y)
			upto := min(max(x-left-1, 0), len(cur))
			if upto == len(cur) {
				upto = max(len(cur)-1, 0)
			}
			if upto < len(cur) && isGlyph(cur[upto]) {
				glyph = count + glyphCount(cur[:upto])
			}
		}
		if glyph >= 0 && glyph < nPods {
			m.podIdx, m.focus = glyph, focusPods
		} else {
			m.podIdx = 0
		}
		return true
	}
	return false
}

func isBorder(r rune) bool { return r == '│' || r == '╭' || r == '╰' || r == '╮' || r == '╯' }

func isGlyph(r rune) bool {
	switch string(r) {
	case glyphRunning, glyphStarting, glyphPending, glyphTerminating, glyphEvicting, glyphFailed, glyphNominated:
		return true
	}
	return false
}

func glyphCount(rs []rune) int {
	n := 0
	for _, r := range rs {
		if isGlyph(r) {
			n++
		}
	}
	return n
}

func runeIndex(line, sub []rune) int {
	for i := 0; i+len(sub) <= len(line); i++ {
		if string(line[i:i+len(sub)]) == string(sub) {
			return i
		}
	}
	return -1
}

// switchView opens a view as its number key does.
func (m *Model) switchView(v viewID) {
	if v == viewExplain {
		m.openExplain(m.selectedPodKey())
		return
	}
	m.view = v
	m.refresh()
}

// handleWheel scrolls the list or view under the mouse: in the cluster
// view the panel under the pointer takes the focus first.
func (m *Model) handleWheel(mo tea.Mouse) {
	if m.view == viewCluster && !m.pal.open && m.picker == nil && !m.help && !m.legend {
		if f, ok := m.panelAt(mo.X, mo.Y); ok && f != m.focus {
			m.focus = f
			if f != focusPods {
				m.refresh()
			}
		}
	}
	switch mo.Button {
	case tea.MouseWheelUp:
		m.move(-1)
	case tea.MouseWheelDown:
		m.move(1)
	}
}

// panelAt names the cluster-view panel at (x, y) from the title of the box
// around it.
func (m *Model) panelAt(x, y int) (focusID, bool) {
	if m.w < minWidth || m.h < minHeight {
		return 0, false
	}
	lines := strings.Split(ansi.Strip(m.render()), "\n")
	for top := min(y, len(lines)-1); top >= 1; top-- {
		r := []rune(lines[top])
		if x >= len(r) {
			continue
		}
		// walk left to this box's corner on its top line
		for c := x; c >= 0 && c < len(r); c-- {
			if r[c] == '│' || r[c] == '╰' {
				break
			}
			if r[c] == '╭' {
				title := string(r[c:])
				switch {
				case strings.HasPrefix(title, "╭─ pending"):
					return focusPending, true
				case strings.HasPrefix(title, "╭─ workloads"):
					return focusWorkloads, true
				case strings.HasPrefix(title, "╭─ spread"), strings.HasPrefix(title, "╭─ lesson"):
					return 0, false
				}
				return focusNodes, true
			}
		}
	}
	return 0, false
}
