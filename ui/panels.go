package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"podlab.dev/podlab/lab"
)

// workloadLines lists the workloads in rows [from, to) with their colour
// and ready/desired count.
func (v *clusterView) workloadLines(w, from, to int) []string {
	m := v.m
	var lines []string
	for i := max(from, 0); i < min(to, len(m.data.workloads)); i++ {
		wl := m.data.workloads[i]
		name := safe(wl.Ref())
		if wl.Bare() {
			name = "bare pods"
			if wl.Namespace != "default" {
				name = safe(wl.Namespace) + "/bare pods"
			}
		}
		mark := " "
		label := name
		if i == clamp(m.wlIdx, len(m.data.workloads)) {
			mark = "▸"
			if m.focus == focusWorkloads {
				label = m.st.Selected.Render(name)
			} else {
				label = m.st.Bold.Render(name)
			}
		}
		count := fmt.Sprintf("%d/%d", wl.Ready, wl.Desired)
		if wl.Bare() {
			count = fmt.Sprint(wl.Desired)
		}
		lines = append(lines, fit(mark+m.st.Workload(i).Render("●")+" "+label, max(w-8, 4))+m.st.Muted.Render(fmt.Sprintf("%7s", count)))
	}
	if len(lines) == 0 {
		lines = append(lines, m.st.Muted.Render("no workloads"))
	}
	return lines
}

// spreadLines is the selected workload's panel: its HPA (hpaLines), then
// its spread (constraintLines).
func (v *clusterView) spreadLines(w int, tall bool) []string {
	return append(v.hpaLines(), v.constraintLines(w, tall)...)
}

// constraintLines shows each constraint of the selected workload: counts per
// domain as bars, the minimum, the skew against maxSkew; tall puts each
// domain on its own line with a bar as long as the width allows.
func (v *clusterView) constraintLines(w int, tall bool) []string {
	m := v.m
	wl, ok := m.selectedWorkload()
	if !ok {
		return nil
	}
	if len(m.data.spread) == 0 {
		if !wl.HasOwnSpread() {
			return []string{m.st.Muted.Render("no topology spread constraints (pods of a ReplicaSet/StatefulSet get the cluster defaults)")}
		}
		return []string{m.st.Muted.Render("no spread data")}
	}
	var lines []string
	for _, sv := range m.data.spread {
		head, verdict := v.constraintHeader(sv)
		if ansiWidth(head)+ansiWidth(verdict)+3 <= w {
			lines = append(lines, head+" · "+verdict)
		} else {
			lines = append(lines, head, "  "+verdict)
		}
		if tall {
			lines = append(lines, v.domainRows(sv, w-3)...)
		} else {
			lines = append(lines, v.domainBars(sv, w))
		}
	}
	return lines
}

// domainRows draws one line per domain, "zoneA ████████████ 4", the bars
// scaled to the largest count over the width, the global minimum marked.
func (v *clusterView) domainRows(sv lab.SpreadView, w int) []string {
	m := v.m
	maxCount := 1
	nameW := 0
	for _, d := range sv.Domains {
		maxCount = max(maxCount, d.Count)
		nameW = max(nameW, cellWidth(safe(d.Domain))+1)
	}
	barW := min(max(w-nameW-10, 4), 40)
	var out []string
	for _, d := range sv.Domains {
		n := d.Count * barW / maxCount
		if d.Count > 0 && n == 0 {
			n = 1
		}
		st := m.st.Bar
		name := safe(d.Domain)
		if !d.Eligible {
			st = m.st.Muted
			name += "⁻"
		}
		tail := fmt.Sprintf(" %d", d.Count)
		if d.Eligible && d.Count == sv.GlobalMin {
			tail += m.st.Muted.Render(" min")
		}
		out = append(out, fit(" "+fit(name, nameW)+st.Render(strings.Repeat("█", n))+tail, w))
	}
	return out
}

func (v *clusterView) constraintHeader(sv lab.SpreadView) (string, string) {
	m := v.m
	src := ""
	if sv.Default {
		src = m.st.Muted.Render(" (cluster default)")
	}
	verdict := ""
	if sv.WhenUnsatisfiable == "DoNotSchedule" {
		if sv.CurrentSkew <= int(sv.MaxSkew) {
			verdict = m.st.OK.Render(fmt.Sprintf("skew %d ≤ %d ✓", sv.CurrentSkew, sv.MaxSkew))
		} else {
			verdict = m.st.Bad.Render(fmt.Sprintf("skew %d > %d ✗", sv.CurrentSkew, sv.MaxSkew))
		}
	} else {
		verdict = m.st.Muted.Render(fmt.Sprintf("skew %d (soft)", sv.CurrentSkew))
	}
	minText := fmt.Sprintf("min %d", sv.GlobalMin)
	if sv.MinDomainsForcedZero {
		minText = m.st.Warn.Render(fmt.Sprintf("min 0: %d domains < minDomains %d", sv.EligibleDomains, sv.MinDomains))
	}
	return fmt.Sprintf("%s maxSkew %d %s%s", m.st.Bold.Render(m.sess.ShortKey(sv.TopologyKey)), sv.MaxSkew, sv.WhenUnsatisfiable, src), minText + " · " + verdict
}

// domainBars draws "zone-a ████ 4  zone-b ███ 3" scaled to the largest count.
func (v *clusterView) domainBars(sv lab.SpreadView, w int) string {
	m := v.m
	maxCount := 1
	for _, d := range sv.Domains {
		maxCount = max(maxCount, d.Count)
	}
	per := max((w-2)/max(len(sv.Domains), 1), 8)
	barW := max(min(per-len(longestDomain(sv))-4, 8), 1)
	var parts []string
	used := 1
	for k, d := range sv.Domains {
		if used > w {
			parts = append(parts, m.st.Muted.Render(fmt.Sprintf("… +%d domains", len(sv.Domains)-k)))
			break
		}
		used += len(d.Domain) + barW + 6
		n := d.Count * barW / maxCount
		if d.Count > 0 && n == 0 {
			n = 1
		}
		st := m.st.Bar
		if !d.Eligible {
			st = m.st.Muted
		}
		name := safe(d.Domain)
		if !d.Eligible {
			name += "⁻"
		}
		parts = append(parts, fmt.Sprintf("%s %s %d", name, st.Render(strings.Repeat("█", n)), d.Count))
	}
	return " " + strings.Join(parts, "  ")
}

func longestDomain(sv lab.SpreadView) string {
	l := ""
	for _, d := range sv.Domains {
		if len(d.Domain) > len(l) {
			l = d.Domain
		}
	}
	return l
}

// pendingWrapMax is how many pending pods are considered for the
// wrapped layout (beyond it the list is one line per pod anyway).
const pendingWrapMax = 12

// pendingWrapped is how many lines the first pending pods take with their
// messages wrapped to w cells (0 when there are too many for it).
func (v *clusterView) pendingWrapped(w int) int {
	m := v.m
	pending := m.data.snap.Pending
	if len(pending) > pendingWrapMax {
		return 0
	}
	n := 0
	for i := range pending {
		n += len(v.pendingEntry(i, w, true))
	}
	return n
}

// pendingLines lists the pending pods with their FitError message in n
// lines of w cells: wrapped in full when they all fit, else one line per
// pod from row `from`.
//
// owners[k] is the pending pod lines[k] belongs to (a click selects it).
func (v *clusterView) pendingLines(w, from, n int) (lines []string, owners []int) {
	m := v.m
	pending := m.data.snap.Pending
	add := func(i int, e []string) {
		lines = append(lines, e...)
		for range e {
			owners = append(owners, i)
		}
	}
	if wrapped := v.pendingWrapped(w); wrapped > 0 && wrapped <= n {
		for i := range pending {
			add(i, v.pendingEntry(i, w, true))
		}
		return lines, owners
	}
	// several lines per pod when there is room for at least two each
	if per := n / max(len(pending), 1); len(pending) <= pendingWrapMax && per >= 2 {
		for i := range pending {
			e := v.pendingEntry(i, w, true)
			if len(e) > per {
				e = e[:per]
				e[per-1] = fit(ansi.Truncate(e[per-1], w-1, "")+"…", w)
			}
			add(i, e)
		}
		return lines, owners
	}
	for i := max(from, 0); i < min(from+n, len(pending)); i++ {
		add(i, v.pendingEntry(i, w, false))
	}
	return lines, owners
}

// pendingEntry is one pending pod: glyph, name and message, on one line
// or wrapped under the name.
func (v *clusterView) pendingEntry(i, w int, wrap bool) []string {
	m := v.m
	p := m.data.snap.Pending[i]
	mark := " "
	name := safe(strings.TrimPrefix(p.Pod, "default/"))
	nameW := cellWidth(name)
	if i == clamp(m.pendIdx, len(m.data.snap.Pending)) && m.focus == focusPending {
		mark = "▸"
		name = m.st.Selected.Render(name)
	}
	wst := m.st.Workload(m.podWorkloadByKey(p.Pod))
	g := wst.Render(glyphPending)
	if p.NominatedNode != "" {
		g = wst.Render(glyphNominated)
	}
	msg := safe(p.Message)
	if p.NominatedNode != "" {
		msg = "nominated to " + safe(p.NominatedNode) + " (waiting for victims to terminate) · " + msg
	}
	if msg == "" {
		msg = "waiting for the scheduler"
	}
	if !wrap {
		return []string{fit(mark+g+" "+name+"  "+m.st.Muted.Render(msg), w)}
	}
	indent := 3 + nameW + 2
	if w-indent < 30 {
		indent = 5
	}
	body := wrapText(msg, w-indent)
	var out []string
	if indent == 5 {
		out = append(out, fit(mark+g+" "+name, w))
	} else {
		out = append(out, fit(mark+g+" "+name+"  "+m.st.Muted.Render(body[0]), w))
		body = body[1:]
	}
	for _, l := range body {
		out = append(out, fit(strings.Repeat(" ", indent)+m.st.Muted.Render(l), w))
	}
	return out
}

// lessonLines shows the current step: title, text, checks.
func (v *clusterView) lessonLines(w int) []string {
	m := v.m
	l := m.sess.Lesson()
	if l == nil {
		return []string{m.st.Muted.Render("This scenario has no lesson. ctrl+p opens the presets.")}
	}
	i := m.sess.Step()
	st := l.Steps[i]
	lines := []string{m.st.Title.Render(fmt.Sprintf("step %d/%d · %s", i+1, len(l.Steps), safe(st.Title)))}
	for _, para := range paragraphs(safeText(st.Text)) {
		lines = append(lines, wrapText(para, w)...)
	}
	if len(st.Do) > 0 {
		lines = append(lines, m.st.Muted.Render("a applies: ")+m.st.Accent.Render(safe(strings.Join(st.Do, "; "))))
	}
	for _, r := range m.data.lesson {
		mark := m.st.Bad.Render("✗")
		switch {
		case r.Err != nil:
			mark = m.st.Warn.Render("!")
		case r.OK:
			mark = m.st.OK.Render("✓")
		}
		lines = append(lines, mark+" "+safe(r.Expr))
		if !r.OK && r.Err == nil && r.Detail != "" {
			lines = append(lines, m.st.Muted.Render("   "+safe(r.Detail)))
		}
		if !r.OK && r.Hint != "" {
			lines = append(lines, m.st.Muted.Render("   hint: "+safe(r.Hint)))
		}
		if r.Err != nil {
			lines = append(lines, m.st.Warn.Render("   "+safe(r.Err.Error())))
		}
	}
	done := len(m.data.lesson) > 0
	for _, r := range m.data.lesson {
		done = done && r.OK
	}
	if done {
		next := "  > for the next step"
		if i == len(l.Steps)-1 {
			next = "  lesson complete"
		}
		lines = append(lines, m.st.OK.Render("all checks pass ✓")+m.st.Muted.Render(next))
	}
	return lines
}

// paragraphs joins single line breaks and splits on blank lines, so YAML
// block text reflows to the panel width.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		out = append(out, strings.Join(strings.Fields(p), " "))
	}
	return out
}

func ansiWidth(s string) int { return ansi.StringWidth(s) }
