package ui

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/lab"
)

// The explained pod's container life as bars over virtual time
// (lab.Session.ContainerTimeline): init containers, runs, CrashLoopBackOff
// waits, restarts and probe failures — what kubectl describe's counters
// summarise, laid out in time.

// ctrSpan is a container's init run, run or back-off wait, in virtual
// seconds.
type ctrSpan struct {
	name, kind string
	from, to   float64
}

// ctrMark is a probe failure (Unhealthy) or a kill at a virtual second.
type ctrMark struct {
	at     float64
	reason string
}

// Cell glyphs: shapes, not colour alone, tell the kinds apart.
const (
	glyphInit    = '▒'
	glyphRun     = '━'
	glyphBackOff = '░'
	glyphRestart = '↻'
	glyphProbe   = '✗'
	glyphKill    = '✕'
)

// containerLife is a pod's container spans and marks
// (lab.Session.ContainerTimeline) as containerBars takes them.
func containerLife(s *lab.Session, pod string) ([]ctrSpan, []ctrMark) {
	spans, marks := s.ContainerTimeline(pod)
	var cs []ctrSpan
	for _, sp := range spans {
		cs = append(cs, ctrSpan{safe(sp.Container), sp.Kind, sp.From.Seconds(), sp.To.Seconds()})
	}
	var ms []ctrMark
	for _, m := range marks {
		ms = append(ms, ctrMark{m.At.Seconds(), m.Reason})
	}
	return cs, ms
}

// containerBars draws one bar per container (in order of first start)
// over [0, now] in w cells, a restart (a run after the first) marked ↻ at
// its start, then a line of the probe failures and kills when there are
// any, then the legend. Nothing when there is nothing but one run per
// container (a healthy pod: the describe above says it all).
func containerBars(spans []ctrSpan, marks []ctrMark, now float64, w int) []string {
	var names []string
	runs := map[string]int{}
	eventful := len(marks) > 0
	for _, s := range spans {
		if _, ok := runs[s.name]; !ok {
			names = append(names, s.name)
		}
		runs[s.name]++
		if s.kind != "run" || runs[s.name] > 1 {
			eventful = true
		}
	}
	if !eventful || now <= 0 {
		return nil
	}
	nameW := 6
	for _, n := range names {
		nameW = min(max(nameW, cellWidth(n)), 16)
	}
	barW := max(w-nameW-1, 8)
	cell := func(t float64) int { return max(0, min(int(t/now*float64(barW)), barW-1)) }
	var out []string
	for _, n := range names {
		bar := []rune(strings.Repeat(" ", barW))
		seen := 0
		for _, s := range spans {
			if s.name != n {
				continue
			}
			g := glyphRun
			switch s.kind {
			case "init":
				g = glyphInit
			case "back-off":
				g = glyphBackOff
			}
			// a span covers the cells from its start up to its end (at
			// least one; an open span reaches the last cell)
			end := max(0, min(int(s.to/now*float64(barW)), barW))
			for x := cell(s.from); x < max(cell(s.from)+1, end); x++ {
				bar[x] = g
			}
			if s.kind == "run" {
				if seen > 0 {
					bar[cell(s.from)] = glyphRestart
				}
				seen++
			}
		}
		out = append(out, fmt.Sprintf("%-*s %s", nameW, fit(n, nameW), string(bar)))
	}
	if len(marks) > 0 {
		bar := []rune(strings.Repeat(" ", barW))
		for _, m := range marks {
			g := glyphProbe
			if m.reason == "Killing" {
				g = glyphKill
			}
			bar[cell(m.at)] = g
		}
		out = append(out, fmt.Sprintf("%-*s %s", nameW, "probes", string(bar)))
	}
	return out
}

// containerLegend is the bars' key and time axis ends.
func containerLegend(now float64) string {
	return fmt.Sprintf("0s → %gs · %c init  %c running  %c restart  %c back-off  %c probe failed  %c killed",
		now, glyphInit, glyphRun, glyphRestart, glyphBackOff, glyphProbe, glyphKill)
}

// containerTimelineLines is the section for the explained pod, w cells
// wide (the box's inside).
func (v *explainView) containerTimelineLines(w int) []string {
	if v.podKey == "" {
		return nil
	}
	s := v.m.sess
	cs, ms := containerLife(s, v.podKey)
	now := s.Now().Seconds()
	bars := containerBars(cs, ms, now, w)
	if len(bars) == 0 {
		return nil
	}
	st := v.m.st
	out := []string{"", st.Heading.Render("containers over virtual time")}
	out = append(out, bars...)
	return append(out, st.Muted.Render(containerLegend(now)))
}
