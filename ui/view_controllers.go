package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// controllersView shows the controllers that act on running pods and on
// the cluster's size, each as the lab's view model computes it: the
// descheduler (what a pass would evict now and why — plugin, constraint,
// the skew it fixes; d runs a pass through the command language), the
// cluster autoscaler (node groups, the last scale-up and scale-down
// decisions, the pods it could not help and why per group) and the
// HorizontalPodAutoscalers as `kubectl get hpa` with their conditions.
// A section that does not apply says so in a line.
type controllersView struct {
	m      *Model
	keys   controllersKeys
	scroll scroller
	// content is the last refresh's view models (computed in Refresh, not
	// while drawing: a descheduling pass simulates every node).
	content controllersContent
	// at is the cluster state and the 10 s of virtual time content was
	// computed for: a dry-run pass over 50,000 pods costs about 200 ms of
	// CPU, so Refresh recomputes only when the cluster changed or pods
	// aged (minPodAge, the autoscaler's unneeded time) — not on every
	// quiet tick or scroll.
	at    controllersStamp
	fresh bool
	// drawn is the last drawing of content: View and maxScroll (SetKeys,
	// every key, every refresh) would otherwise each draw it again.
	drawn struct {
		st    *Styles
		w     int
		lines []string
	}
}

type controllersStamp struct {
	st     stamp
	bucket int64
}

type controllersKeys struct {
	scrollKeys
	Deschedule key.Binding
}

// controllersContent is what the view draws.
type controllersContent struct {
	// deschedule is the dry-run pass's text lines (lab.FormatDeschedule)
	// and its evictions, one entry each.
	evictions []deschedRow
	skipped   string
	errors    []string
	// policy says where the policy comes from and when passes run.
	policy string
	as     lab.AutoscalerView
	hpas   []lab.HPARow
	// recent is each controller's latest events (controllers_events.go).
	recent map[string][]lab.Event
}

// deschedRow is one eviction a pass would make.
type deschedRow struct {
	pod, node, plugin, profile, outcome, reason string
	evicted                                     bool
}

func newControllersView(m *Model) *controllersView {
	return &controllersView{m: m, keys: controllersKeys{
		scrollKeys: newScrollKeys(),
		Deschedule: bind("", "run a descheduling pass", "d"),
	}}
}

// Title implements view.
func (v *controllersView) Title() string { return "controllers" }

// ShortHelp implements help.KeyMap.
func (v *controllersView) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Deschedule, v.keys.Down, v.keys.Up, v.m.global.Back}
}

// FullHelp implements help.KeyMap.
func (v *controllersView) FullHelp() [][]key.Binding {
	return fullHelp([]keyGroup{{"Controllers", append(v.keys.all(), &v.keys.Deschedule)}})
}

// SetKeys implements view: a pass can always run (one that evicts
// nothing is still recorded, as upstream logs it).
func (v *controllersView) SetKeys() {
	v.keys.setEnabled(v.scroll.off, v.maxScroll())
	v.keys.Deschedule.SetEnabled(true)
}

// Update implements view.
func (v *controllersView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if d, ok := v.keys.delta(msg, v.m.bodyHeight()-2); ok {
		v.scroll.move(d, v.maxScroll())
		return nil, true
	}
	if key.Matches(msg, v.keys.Deschedule) {
		// the pass's report is a block (a pod and its why per eviction):
		// the status line gets it as one line, the view shows the result
		v.m.apply("deschedule")
		return nil, true
	}
	return nil, false
}

// Refresh implements view: the dry-run pass, the autoscaler's status and
// the HPA rows of the session on screen.
func (v *controllersView) Refresh() {
	s := v.m.sess
	at := controllersStamp{v.m.currentStamp(), int64(s.Now().Seconds()) / 10}
	if v.fresh && at == v.at {
		v.scroll.clamp(v.maxScroll())
		return
	}
	v.at, v.fresh = at, true
	c := controllersContent{as: s.AutoscalerView(), hpas: s.HPARows(), policy: deschedPolicyText(s.File()),
		recent: recentEvents(s.Engine().Events(), 4)}
	if r := s.DeschedulePreview(); r != nil {
		c.skipped, c.errors = r.Skipped, r.Errors
		for _, e := range r.Evictions {
			c.evictions = append(c.evictions, deschedRow{e.Pod, e.Node, e.Plugin, e.Profile, e.Outcome, e.Reason, e.Evicted})
		}
	}
	v.content, v.drawn.lines = c, nil
	v.scroll.clamp(v.maxScroll())
}

// deschedPolicyText says which policy a pass uses and when passes run.
func deschedPolicyText(f *lab.File) string {
	policy := "the lab default policy (RemovePodsViolatingTopologySpreadConstraint, DefaultEvictor defaults)"
	if f != nil && f.Descheduler != nil && f.Descheduler.Policy != nil {
		var names []string
		for _, p := range f.Descheduler.Policy.Profiles {
			names = append(names, safe(p.Name))
		}
		policy = "the scenario's DeschedulerPolicy (profiles " + strings.Join(names, ", ") + ")"
	}
	when := "runs on the deschedule command only"
	if f != nil && f.Scenario != nil && f.Scenario.Descheduler.DeschedulingInterval > 0 {
		when = "runs every " + f.Scenario.Descheduler.DeschedulingInterval.String() + " and on the deschedule command"
	}
	return policy + "; " + when
}

// Live implements view: the content changes with the cluster (refreshed
// when it does, and on the periodic full refresh for pod ages).
func (v *controllersView) Live() bool { return false }

// Wheel implements view.
func (v *controllersView) Wheel(delta int) { v.scroll.move(delta, v.maxScroll()) }

// Reset implements view.
func (v *controllersView) Reset() {
	v.scroll, v.content, v.fresh = scroller{}, controllersContent{}, false
	v.drawn.lines = nil
}

func (v *controllersView) maxScroll() int {
	return max(len(v.lines(max(v.m.w-2, 10)))-(v.m.bodyHeight()-2), 0)
}

// View implements view.
func (v *controllersView) View(w, h int) []string {
	lines := v.scroll.window(v.lines(w-2), h)
	return box(v.m.st, "controllers · descheduler · cluster autoscaler · HPA", lines, w, h, true)
}

// lines draws the three sections w cells wide (drawn again only when
// the content, the width or the theme changed).
func (v *controllersView) lines(w int) []string {
	if d := &v.drawn; d.lines == nil || d.st != v.m.st || d.w != w {
		d.st, d.w, d.lines = v.m.st, w, v.draw(w)
	}
	return v.drawn.lines
}

func (v *controllersView) draw(w int) []string {
	var out []string
	out = append(out, v.deschedLines(w)...)
	out = append(out, "")
	out = append(out, v.autoscalerLines(w)...)
	out = append(out, "")
	return append(out, v.hpaLines(w)...)
}

// wrapped adds s wrapped to w cells, the continuation lines indented.
func wrapped(out []string, s string, w, indent int, style func(...string) string) []string {
	pad := strings.Repeat(" ", indent)
	for i, l := range wrapText(s, max(w-indent, 10)) {
		if i > 0 {
			l = pad + l
		}
		out = append(out, fit(style(l), w))
	}
	return out
}

// deschedLines is the descheduler section: the dry-run pass now.
func (v *controllersView) deschedLines(w int) []string {
	st, c := v.m.st, &v.content
	out := []string{st.Heading.Render("Descheduler") + st.Muted.Render(" — what a pass would evict now (dry run)")}
	out = wrapped(out, "  "+c.policy, w, 2, st.Muted.Render)
	switch {
	case c.skipped != "":
		out = wrapped(out, "  a pass now is skipped: "+safe(c.skipped), w, 2, st.Warn.Render)
	case len(c.evictions) == 0:
		out = wrapped(out, "  nothing to evict now: every plugin of the policy is satisfied (or the pods are not evictable yet)", w, 2, st.OK.Render)
	default:
		n := 0
		for _, e := range c.evictions {
			if e.evicted {
				n++
			}
		}
		out = append(out, fit(st.Bold.Render(fmt.Sprintf("  a pass would evict %d pod(s) — press d to run it", n)), w))
	}
	for _, e := range c.evictions {
		mark, style := st.Warn.Render("  ⇄ "), st.Bold.Render
		if !e.evicted {
			mark, style = st.Muted.Render("  ✗ "), st.Muted.Render
		}
		out = append(out, fit(mark+style("pod/"+safe(e.pod))+" on "+safe(e.node)+" — "+safe(e.outcome), w))
		out = append(out, fit(st.Muted.Render("    "+safe(e.plugin)+" · profile "+safe(e.profile)), w))
		out = wrapped(out, "    why: "+safe(e.reason), w, 9, st.Base.Render)
	}
	for _, e := range c.errors {
		out = wrapped(out, "  error: "+safe(e), w, 4, st.Bad.Render)
	}
	return append(out, v.recentLines("descheduler", "latest evictions", w)...)
}

// recentLines lists a controller's latest events under a label.
func (v *controllersView) recentLines(kind, label string, w int) []string {
	evs := v.content.recent[kind]
	if len(evs) == 0 {
		return nil
	}
	st := v.m.st
	out := []string{fit(st.Bold.Render("  "+label), w)}
	for _, e := range evs {
		out = wrapped(out, fmt.Sprintf("    %-6s %s %s: %s", e.Time.String(), safe(e.Reason), safe(e.Object), safe(e.Message)), w, 11, st.Muted.Render)
	}
	return out
}

// autoscalerLines is the cluster autoscaler section.
func (v *controllersView) autoscalerLines(w int) []string {
	st, a := v.m.st, &v.content.as
	out := []string{st.Heading.Render("Cluster autoscaler")}
	if !a.Enabled {
		return wrapped(out, "  none in this scenario (an autoscaler: section with nodeGroups in the header adds one)", w, 2, st.Muted.Render)
	}
	loop := "no loop yet"
	if a.Ran {
		loop = fmt.Sprintf("last loop %s, next %s", a.LoopAt.Clock(), a.NextLoop.Clock())
	}
	out = append(out, fit(st.Muted.Render("  "+loop+" · expander "+safe(a.Expander)), w))
	nameW, zoneW := 10, 8
	for _, g := range a.Groups {
		nameW, zoneW = max(nameW, cellWidth(safe(g.Name))), max(zoneW, cellWidth(safe(g.Zone)))
	}
	nameW, zoneW = min(nameW, 24), min(zoneW, 16)
	out = append(out, fit(st.Muted.Render(fmt.Sprintf("  %-*s %-*s %-20s %s", nameW, "GROUP", zoneW, "ZONE", "SIZE", "LAST DECISION")), w))
	for _, g := range a.Groups {
		zone := g.Zone
		if zone == "" {
			zone = "-"
		}
		row := fmt.Sprintf("  %-*s %-*s %-20s", nameW, fit(safe(g.Name), nameW), zoneW, fit(safe(zone), zoneW), g.Size)
		if d := safe(g.Decision); cellWidth(row)+1+cellWidth(d) <= w {
			out = append(out, fit(row+" "+d, w))
		} else {
			// narrow: the decision goes under the group, wrapped
			out = append(out, fit(row, w))
			out = wrapped(out, "    "+d, w, 6, st.Base.Render)
		}
		for _, c := range g.Coming {
			out = append(out, fit(st.Accent.Render("    + "+safe(c)), w))
		}
	}
	if len(a.ScaleUp) > 0 {
		out = append(out, fit(st.Bold.Render("  scale-up"), w))
		for _, l := range a.ScaleUp {
			out = wrapped(out, "    "+safe(l), w, 6, st.Base.Render)
		}
	}
	for _, p := range a.NoScaleUp {
		out = wrapped(out, "  NotTriggerScaleUp pod/"+safe(p.Pod)+": "+safe(p.Message), w, 4, st.Warn.Render)
		for _, g := range p.PerGroup {
			out = wrapped(out, "    "+safe(g), w, 6, st.Muted.Render)
		}
	}
	if len(a.ScaleDown) > 0 || a.ScaleDownNote != "" {
		out = append(out, fit(st.Bold.Render("  scale-down"), w))
	}
	if a.ScaleDownNote != "" {
		out = wrapped(out, "    not evaluated: "+safe(a.ScaleDownNote), w, 6, st.Muted.Render)
	}
	for _, n := range a.ScaleDown {
		line := fmt.Sprintf("    %-*s %-*s %-9s %s", nameW, fit(safe(n.Node), nameW), nameW, fit(safe(n.Group), nameW), n.Utilization, n.State)
		if n.Reason != "" {
			line += " — " + safe(n.Reason)
		}
		out = wrapped(out, line, w, 6, st.Base.Render)
		for _, mv := range n.Moves {
			out = append(out, fit(st.Muted.Render("      "+safe(mv)), w))
		}
	}
	return append(out, v.recentLines("autoscaler", "latest decisions", w)...)
}

// hpaLines is the HorizontalPodAutoscaler section: kubectl get hpa, then
// each one's conditions as kubectl describe hpa lists them.
func (v *controllersView) hpaLines(w int) []string {
	st, rows := v.m.st, v.content.hpas
	out := []string{st.Heading.Render("HorizontalPodAutoscalers")}
	if len(rows) == 0 {
		return wrapped(out, "  none in this scenario (an autoscaling/v2 HorizontalPodAutoscaler manifest adds one)", w, 2, st.Muted.Render)
	}
	nameW, refW, tgtW := 6, 10, 8
	for _, r := range rows {
		nameW, refW, tgtW = max(nameW, cellWidth(safe(r.Name))), max(refW, cellWidth(safe(r.Reference))), max(tgtW, cellWidth(safe(r.Targets)))
	}
	nameW, refW, tgtW = min(nameW, 20), min(refW, 28), min(tgtW, 28)
	row := func(name, ref, tgt, lo, hi, rep, age string) string {
		return fmt.Sprintf("  %-*s %-*s %-*s %-7s %-7s %-8s %s", nameW, fit(name, nameW), refW, fit(ref, refW), tgtW, fit(tgt, tgtW), lo, hi, rep, age)
	}
	out = append(out, fit(st.Muted.Render(row("NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE")), w))
	for _, r := range rows {
		out = append(out, fit(row(safe(r.Name), safe(r.Reference), safe(r.Targets), fmt.Sprint(r.MinPods), fmt.Sprint(r.MaxPods), fmt.Sprint(r.Replicas), r.Age), w))
	}
	for _, r := range rows {
		if len(r.Conditions) == 0 {
			continue
		}
		out = append(out, fit(st.Bold.Render("  "+safe(r.Name)+" conditions"), w))
		for _, c := range r.Conditions {
			style := st.Base.Render
			if c.Status != "True" {
				style = st.Warn.Render
			}
			out = wrapped(out, fmt.Sprintf("    %-15s %-6s %-26s %s", safe(c.Type), safe(c.Status), safe(c.Reason), safe(c.Message)), w, 6, style)
		}
	}
	return append(out, v.recentLines("hpa", "latest events", w)...)
}
