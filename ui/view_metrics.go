package ui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// metricsView draws the cluster's history (lab.Metrics): every series as
// a sparkline with its current value, and the selected series as a line
// chart over virtual time, with the commands of the history marked on
// the time axis. When the lab is forked both lanes are drawn: two
// sparklines per series and both lines on one chart.
type metricsView struct {
	m      *Model
	keys   metricsKeys
	sel    int
	scroll scroller
	// refs caches keysList until a lane's store adds or drops a series
	refs struct {
		stores   [2]*lab.Metrics
		versions [2]int
		list     []seriesRef
	}
}

type metricsKeys struct {
	Down, Up, Home, End key.Binding
}

func newMetricsView(m *Model) *metricsView {
	return &metricsView{m: m, keys: metricsKeys{
		Down: bind("↓/j", "next series", "down", "j"),
		Up:   bind("↑/k", "previous series", "up", "k"),
		Home: bind("home", "first series", "home"),
		End:  bind("end", "last series", "end"),
	}}
}

// Title implements view.
func (v *metricsView) Title() string { return "metrics" }

// ShortHelp implements help.KeyMap.
func (v *metricsView) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Down, v.keys.Up, v.m.global.Lane, v.m.global.Back}
}

// FullHelp implements help.KeyMap.
func (v *metricsView) FullHelp() [][]key.Binding {
	k := &v.keys
	return fullHelp([]keyGroup{{"Metrics", []*key.Binding{&k.Down, &k.Up, &k.Home, &k.End}}})
}

// SetKeys implements view.
func (v *metricsView) SetKeys() {
	n := len(v.keysList())
	v.keys.Down.SetEnabled(v.sel < n-1)
	v.keys.End.SetEnabled(v.sel < n-1)
	v.keys.Up.SetEnabled(v.sel > 0)
	v.keys.Home.SetEnabled(v.sel > 0)
}

// Update implements view.
func (v *metricsView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	n := len(v.keysList())
	switch {
	case key.Matches(msg, v.keys.Down):
		v.sel = min(v.sel+1, n-1)
	case key.Matches(msg, v.keys.Up):
		v.sel = max(v.sel-1, 0)
	case key.Matches(msg, v.keys.Home):
		v.sel = 0
	case key.Matches(msg, v.keys.End):
		v.sel = max(n-1, 0)
	default:
		return nil, false
	}
	return nil, true
}

// Refresh implements view.
func (v *metricsView) Refresh() {}

// Live implements view: the history grows with the clock.
func (v *metricsView) Live() bool { return true }

// Wheel implements view.
func (v *metricsView) Wheel(delta int) {
	v.sel = max(0, min(v.sel+delta, len(v.keysList())-1))
}

// Reset implements view.
func (v *metricsView) Reset() { v.sel, v.scroll = 0, scroller{} }

// seriesRef is one series by name and labels, in every lane.
type seriesRef struct {
	key    string
	name   string
	labels map[string]string
}

// keysList is every series of every lane, the cluster-wide ones first.
func (v *metricsView) keysList() []seriesRef {
	var stores [2]*lab.Metrics
	var versions [2]int
	for i, s := range v.m.laneSessions() {
		if m := s.Metrics(); i < 2 && m != nil {
			stores[i], versions[i] = m, m.Version()
		}
	}
	if v.refs.list == nil || v.refs.stores != stores || v.refs.versions != versions {
		v.refs.stores, v.refs.versions, v.refs.list = stores, versions, v.listKeys()
	}
	return v.refs.list
}

func (v *metricsView) listKeys() []seriesRef {
	seen := map[string]bool{}
	var out []seriesRef
	for _, s := range v.m.laneSessions() {
		m := s.Metrics()
		if m == nil {
			continue
		}
		for _, sr := range m.Series() {
			if k := sr.Key(); !seen[k] {
				seen[k] = true
				out = append(out, seriesRef{k, sr.Name, sr.Labels})
			}
		}
	}
	rank := map[string]int{"pending": 0, "running": 1, "evictions": 2, "preemptions": 3, "skew": 4, "pods": 5}
	order := func(n string) int {
		if r, ok := rank[n]; ok {
			return r
		}
		return 6
	}
	sort.SliceStable(out, func(i, j int) bool {
		if oi, oj := order(out[i].name), order(out[j].name); oi != oj {
			return oi < oj
		}
		return out[i].key < out[j].key
	})
	return out
}

// View implements view.
func (v *metricsView) View(w, h int) []string {
	refs := v.keysList()
	st := v.m.st
	lanes := v.m.laneSessions()
	if len(refs) == 0 {
		return box(st, "metrics", []string{st.Muted.Render("nothing recorded yet: let the clock run")}, w, h, true)
	}
	v.sel = max(0, min(v.sel, len(refs)-1))
	now := time.Duration(v.m.sess.Now().Seconds() * float64(time.Second))
	chartH := max(min(h/2, 16), 6)
	listH := h - chartH
	inner := w - 2
	// list: name, a sparkline per lane, the current value(s)
	nameW := min(44, max(inner/3, 16))
	valW := 7 * len(lanes)
	// cursor 2, name, a space, sparklines with a space between, a space, values
	sparkW := max((inner-2-nameW-1-(len(lanes)-1)-1-valW)/len(lanes), 4)
	rows := listH - 2
	if v.sel < v.scroll.off {
		v.scroll.off = v.sel
	}
	if v.sel >= v.scroll.off+rows {
		v.scroll.off = v.sel - rows + 1
	}
	var list []string
	for i := v.scroll.off; i < len(refs) && i < v.scroll.off+rows; i++ {
		r := refs[i]
		var sparks, vals []string
		var all [][]float64
		for _, s := range lanes {
			all = append(all, v.sample(s, r, 0, now, sparkW))
		}
		lo, hi := bounds(all...)
		for li, s := range all {
			sparks = append(sparks, laneStyle(st, li, len(lanes)).Render(sparkline(s, lo, hi)))
			vals = append(vals, fmtValue(s[len(s)-1]))
		}
		cur := "  "
		name := fit(safe(seriesLabel(r)), nameW)
		if i == v.sel {
			cur, name = st.Accent.Render("▸ "), st.Bold.Render(name)
		}
		list = append(list, cur+name+" "+strings.Join(sparks, " ")+" "+fmt.Sprintf("%*s", valW, strings.Join(vals, " │ ")))
	}
	title := "metrics"
	if len(lanes) == 2 {
		title = "metrics · " + st.Accent.Render("lane a") + " · " + st.Warn.Render("lane b")
	}
	out := box(st, title, list, w, listH, false)
	return append(out, v.chart(refs[v.sel], lanes, now, w, chartH)...)
}

// sample is a series of one lane at n instants from from to to (zeros
// when the lane never recorded it).
func (v *metricsView) sample(s *lab.Session, r seriesRef, from, to time.Duration, n int) []float64 {
	if m := s.Metrics(); m != nil {
		if sr := m.Get(r.name, r.labels); sr != nil {
			return sr.Sample(from, to, n)
		}
	}
	return make([]float64, n)
}

// chart is the selected series as braille lines, y labels on the left,
// the time axis with round times and the commands marked (▴) below.
func (v *metricsView) chart(r seriesRef, lanes []*lab.Session, now time.Duration, w, h int) []string {
	st := v.m.st
	inner := w - 2
	yw := 7
	cw := max(inner-yw-1, 4)
	ch := max(h-2-3, 1) // chart rows; 3 for the axis, labels and marks
	var series [][]float64
	for _, s := range lanes {
		series = append(series, v.sample(s, r, 0, now, 2*cw))
	}
	lo, hi := bounds(series...)
	cells, owners := brailleChart(series, lo, hi, cw, ch)
	var lines []string
	for y := range cells {
		label := ""
		switch y {
		case 0:
			label = fmtValue(hi)
		case ch - 1:
			label = fmtValue(lo)
		}
		var b strings.Builder
		for x, c := range cells[y] {
			s := string(c)
			switch owners[y][x] {
			case 1:
				s = laneStyle(st, 0, len(lanes)).Render(s)
			case 2:
				s = laneStyle(st, 1, len(lanes)).Render(s)
			case 3:
				s = st.Bold.Render(s)
			}
			b.WriteString(s)
		}
		lines = append(lines, st.Muted.Render(fmt.Sprintf("%*s", yw, label))+"┤"+b.String())
	}
	ticks, labels := timeAxis(0, now, cw, 8)
	marks := []rune(strings.Repeat(" ", cw))
	for _, e := range v.m.sess.History() {
		t := time.Duration(e.At.Seconds() * float64(time.Second))
		if now <= 0 || t > now {
			continue
		}
		x := int(float64(t) / float64(now) * float64(cw-1))
		marks[max(0, min(x, cw-1))] = '▴'
	}
	lines = append(lines,
		strings.Repeat(" ", yw)+"└"+st.Muted.Render(ticks),
		strings.Repeat(" ", yw+1)+st.Muted.Render(labels),
		strings.Repeat(" ", yw+1)+st.Accent.Render(string(marks)))
	return box(st, safe(seriesLabel(r))+" over virtual time (▴ a command)", lines, w, h, true)
}

// laneStyle colours lane a and lane b apart (one lane: the accent).
func laneStyle(st *Styles, lane, lanes int) interface{ Render(...string) string } {
	if lanes == 2 && lane == 1 {
		return st.Warn
	}
	return st.Accent
}

// seriesLabel names a series compactly: "pods deployment/web in zoneA",
// "skew deployment/web by zone", "cpu requested % node1".
func seriesLabel(r seriesRef) string {
	l := r.labels
	switch r.name {
	case "pending", "running":
		if w := l["workload"]; w != "" {
			return r.name + " " + w
		}
	case "pods":
		return "pods " + l["workload"] + " in " + l["zone"]
	case "skew":
		return "skew " + l["workload"] + " by " + l["key"]
	case "node_cpu_requested_percent":
		return "cpu requested % " + l["node"]
	case "node_memory_requested_percent":
		return "memory requested % " + l["node"]
	}
	return r.key
}
