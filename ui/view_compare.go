package ui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// compareView answers "what is different between the lanes, and why":
// per-lane counts, spread per workload and constraint side by side,
// pending pods with their messages and the pods placed differently; enter
// on one of those explains it in both lanes with the deciding plugin
// marked. Before a fork it says how to make one.
type compareView struct {
	m      *Model
	keys   compareKeys
	scroll scroller
	sel    int
	cmp    *lab.Comparison
	diff   *lab.PodDiff
	err    string
	// cache is the last drawing: View and maxScroll (every key) draw the
	// same comparison again until something it shows changes.
	cache struct {
		key   compareLinesKey
		lines []string
	}
}

// compareLinesKey is everything lines depends on.
type compareLinesKey struct {
	fork *lab.Fork
	cmp  *lab.Comparison
	diff *lab.PodDiff
	st   *Styles
	sel  int
	w    int
	err  string
}

type compareKeys struct {
	Down, Up, PageDown, PageUp, Explain key.Binding
}

func newCompareView(m *Model) *compareView {
	return &compareView{m: m, keys: compareKeys{
		Down:     bind("↓/j", "next differing pod", "down", "j"),
		Up:       bind("↑/k", "previous differing pod", "up", "k"),
		PageDown: bind("pgdn", "scroll down", "pgdown"),
		PageUp:   bind("pgup", "scroll up", "pgup"),
		Explain:  bind("enter", "explain in both lanes", "enter"),
	}}
}

// Title implements view.
func (v *compareView) Title() string { return "compare" }

// ShortHelp implements help.KeyMap.
func (v *compareView) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Down, v.keys.Up, v.keys.Explain, v.m.global.Lane, v.m.global.Back}
}

// FullHelp implements help.KeyMap.
func (v *compareView) FullHelp() [][]key.Binding {
	k := &v.keys
	return fullHelp([]keyGroup{{"Compare", []*key.Binding{&k.Down, &k.Up, &k.PageDown, &k.PageUp, &k.Explain}}})
}

// SetKeys implements view.
func (v *compareView) SetKeys() {
	n := v.placed()
	v.keys.Down.SetEnabled(v.sel < n-1)
	v.keys.Up.SetEnabled(v.sel > 0)
	v.keys.Explain.SetEnabled(n > 0)
	limit := v.maxScroll()
	v.keys.PageDown.SetEnabled(v.scroll.off < limit)
	v.keys.PageUp.SetEnabled(v.scroll.off > 0)
}

func (v *compareView) placed() int {
	if v.cmp == nil {
		return 0
	}
	return len(v.cmp.Placement)
}

// Update implements view.
func (v *compareView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	page := max(v.m.bodyHeight()-3, 1)
	switch {
	case key.Matches(msg, v.keys.Down):
		v.sel, v.diff = min(v.sel+1, v.placed()-1), nil
	case key.Matches(msg, v.keys.Up):
		v.sel, v.diff = max(v.sel-1, 0), nil
	case key.Matches(msg, v.keys.PageDown):
		v.scroll.move(page, v.maxScroll())
	case key.Matches(msg, v.keys.PageUp):
		v.scroll.move(-page, v.maxScroll())
	case key.Matches(msg, v.keys.Explain):
		v.explain()
	default:
		return nil, false
	}
	return nil, true
}

func (v *compareView) explain() {
	if v.diff != nil {
		v.diff = nil
		return
	}
	if v.m.fork == nil || v.sel >= v.placed() {
		return
	}
	d, err := v.m.fork.ExplainDiff(v.cmp.Placement[v.sel].Pod)
	v.diff, v.err = d, ""
	if err != nil {
		v.err = err.Error()
	}
}

// View implements view.
func (v *compareView) View(w, h int) []string {
	lines := v.scroll.window(v.lines(w-2), h)
	title := "compare"
	if v.m.fork != nil {
		title = fmt.Sprintf("compare lanes a | b at %s (forked %s)", v.cmp.At.Clock(), v.m.fork.At().Clock())
	}
	return box(v.m.st, title, lines, w, h, true)
}

// Refresh implements view.
func (v *compareView) Refresh() {
	if v.m.fork == nil {
		v.cmp, v.diff = nil, nil
		return
	}
	v.cmp = v.m.fork.Compare()
	v.sel = max(0, min(v.sel, v.placed()-1))
}

// Live implements view: both lanes move with the clock.
func (v *compareView) Live() bool { return v.m.fork != nil }

// Wheel implements view.
func (v *compareView) Wheel(delta int) { v.scroll.move(delta, v.maxScroll()) }

// Reset implements view.
func (v *compareView) Reset() { v.scroll, v.sel, v.diff, v.cmp = scroller{}, 0, nil, nil }

func (v *compareView) maxScroll() int {
	return max(len(v.lines(max(v.m.w-2, 10)))-(v.m.bodyHeight()-2), 0)
}

// lines draws the comparison w cells wide (drawn again only when the
// comparison, the selection, the explanation, the width or the theme
// changed).
func (v *compareView) lines(w int) []string {
	k := compareLinesKey{v.m.fork, v.cmp, v.diff, v.m.st, v.sel, w, v.err}
	if v.cache.lines == nil || v.cache.key != k {
		v.cache.key, v.cache.lines = k, v.draw(w)
	}
	return v.cache.lines
}

func (v *compareView) draw(w int) []string {
	st := v.m.st
	if v.m.fork == nil || v.cmp == nil {
		return []string{
			st.Bold.Render("Not forked."),
			"",
			"Press F (or type fork) to split the lab into lanes a and b at this instant: both start",
			"identical and share one clock. Then give a lane its own change — @b set spread deployment/web",
			"maxSkew=2, @b set scheduler scoringStrategy=MostAllocated — while commands without a lane",
			"(drains, scale-ups, failures) reach both at the same instant. This view then shows what",
			"differs and why; B shows the other lane in every view; F again closes the fork, keeping the",
			"lane on screen.",
		}
	}
	c := v.cmp
	var out []string
	add := func(s string) { out = append(out, fit(s, w)) }
	for _, l := range c.Lanes {
		ch := "(no changes)"
		if len(l.Changes) > 0 {
			var short []string
			for _, c := range l.Changes {
				short = append(short, lab.SummarizeCommand(c))
			}
			ch = strings.Join(short, "; ")
		}
		add(st.Bold.Render("lane "+l.Lane+": ") + safe(ch))
	}
	add("")
	a, b := c.Lanes[0], c.Lanes[1]
	// the two lanes' columns share what the name column leaves
	colW := max((w-2-20-4)/2, 8)
	row := func(name string, va, vb any) {
		mark, style := "  ", st.Base
		if fmt.Sprint(va) != fmt.Sprint(vb) {
			mark, style = st.Warn.Render("≠ "), st.Bold
		}
		add(mark + style.Render(fmt.Sprintf("%-20s %s │ %s", name, fit(fmt.Sprint(va), colW), fmt.Sprint(vb))))
	}
	add(st.Muted.Render(fmt.Sprintf("  %-20s %s │ %s", "", fit("lane a", colW), "lane b")))
	row("running", a.Running, b.Running)
	row("pending", len(a.Pending), len(b.Pending))
	row("preemptions", a.Preemptions, b.Preemptions)
	row("evictions", a.Evictions, b.Evictions)
	row("pods killed", a.Killed, b.Killed)
	row("cpu requested %", a.CPU, b.CPU)
	row("memory requested %", a.Memory, b.Memory)
	if len(c.Spread) > 0 {
		add("")
		add(st.Heading.Render("spread per workload and constraint"))
		for _, d := range c.Spread {
			mark := "  "
			if d.Differs() {
				mark = st.Warn.Render("≠ ")
			}
			add(mark + st.Bold.Render(safe(d.Workload)) + "  " + safe(d.TopologyKey) + "  " + d.Constraint(0) + " │ " + d.Constraint(1))
			for _, dom := range d.Domains {
				add(fmt.Sprintf("    %-16s %4s │ %s", safe(dom), d.Count(0, dom), d.Count(1, dom)))
			}
			add(st.Muted.Render(fmt.Sprintf("    %-16s %4s │ %s", "skew", d.SkewText(0), d.SkewText(1))))
		}
	}
	for _, l := range c.Lanes {
		if len(l.Pending) == 0 {
			continue
		}
		add("")
		add(st.Heading.Render(fmt.Sprintf("pending in lane %s (%d)", l.Lane, len(l.Pending))))
		for i, p := range l.Pending {
			if i == 5 {
				add(st.Muted.Render(fmt.Sprintf("  … and %d more", len(l.Pending)-5)))
				break
			}
			msg := p.Message
			if msg == "" {
				msg = "(not tried yet)"
			}
			add("  " + safe(p.Pod) + "  " + st.Muted.Render(safe(msg)))
		}
	}
	add("")
	if len(c.Placement) == 0 {
		add(st.Muted.Render("no pod is on a different node in the two lanes"))
	} else {
		add(st.Heading.Render(fmt.Sprintf("placed differently (%d) — enter explains the selected pod in both lanes", len(c.Placement))))
		for i, p := range c.Placement {
			cur := "  "
			if i == v.sel {
				cur = st.Accent.Render("▸ ")
			}
			add(cur + fmt.Sprintf("%-40s %-28s │ %s", safe(p.Pod), lab.PlaceText(p.Node[0], p.Zone[0]), lab.PlaceText(p.Node[1], p.Zone[1])))
			if i == v.sel && v.diff != nil {
				out = append(out, v.diffLines(w)...)
			}
		}
	}
	if v.err != "" {
		add(st.Bad.Render(safe(v.err)))
	}
	if c.OnlyIn != [2]int{} {
		add(st.Muted.Render(fmt.Sprintf("pods in one lane only: a %d, b %d", c.OnlyIn[0], c.OnlyIn[1])))
	}
	return out
}

// diffLines are the two lanes' verdicts on the selected pod, side by side,
// each with its node's and the other lane's node's weighted scores and
// the deciding plugin marked.
func (v *compareView) diffLines(w int) []string {
	st := v.m.st
	col := max((w-8)/2, 20)
	var cols [2][]string
	for i, lv := range v.diff.Lanes {
		var c []string
		for j, l := range wrapText("lane "+lv.Lane+": "+safe(lv.Why), col) {
			if j == 0 {
				l = st.Bold.Render("lane "+lv.Lane) + strings.TrimPrefix(l, "lane "+lv.Lane)
			}
			c = append(c, l)
		}
		ex := lv.Explanation
		if ex != nil && ex.Explanation != nil && lv.Node != "" && lv.Other != "" {
			c = append(c, st.Muted.Render(fmt.Sprintf("%-32s %8s %8s", "plugin × weight", short(lv.Node, 8), short(lv.Other, 8))))
			type pair struct {
				s        [2]int64
				feasible [2]bool
			}
			scores := map[string]*pair{}
			for _, pl := range ex.ScoreOrder {
				scores[pl] = &pair{}
			}
			for _, nv := range ex.Nodes {
				k := -1
				switch nv.Node {
				case lv.Node:
					k = 0
				case lv.Other:
					k = 1
				}
				if k < 0 {
					continue
				}
				for pl, p := range scores {
					p.s[k] = nv.Scores[pl] * ex.Weights[pl]
					p.feasible[k] = nv.Feasible
				}
			}
			names := append([]string(nil), ex.ScoreOrder...)
			sort.Strings(names)
			cell := func(p *pair, k int) string {
				if !p.feasible[k] {
					return "filtered"
				}
				return fmt.Sprint(p.s[k])
			}
			for _, pl := range names {
				p := scores[pl]
				line := fmt.Sprintf("%-32s %8s %8s", pl, cell(p, 0), cell(p, 1))
				if pl == lv.Plugin {
					line = st.Warn.Render(line + " ◂")
				}
				c = append(c, line)
			}
			if lv.Plugin != "" && scores[lv.Plugin] == nil {
				// a filter decided: it passes this lane's node, rejects the other's
				c = append(c, st.Warn.Render(fmt.Sprintf("%-32s %8s %8s ◂", lv.Plugin+" (filter)", "passes", "rejects")))
			}
		} else if lv.Plugin != "" {
			c = append(c, st.Warn.Render("decided by "+lv.Plugin))
		}
		cols[i] = c
	}
	var out []string
	for i := 0; i < max(len(cols[0]), len(cols[1])); i++ {
		var l, r string
		if i < len(cols[0]) {
			l = cols[0][i]
		}
		if i < len(cols[1]) {
			r = cols[1][i]
		}
		out = append(out, fit("    "+fit(l, col)+" │ "+r, w))
	}
	return out
}

func short(s string, n int) string {
	r := []rune(safe(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}
