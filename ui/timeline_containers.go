package ui

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/lab"
)

// The timeline's second section: the container life (init runs, runs,
// restarts, CrashLoopBackOff waits, probe failures) of every pod that
// restarted, backed off or failed a probe, drawn with the explain view's
// container bars (explain_containers.go) over [0, now].

// maxCtrPods bounds the section: a crash-looping Deployment of hundreds
// of pods would bury the terminations; the rest are counted.
const maxCtrPods = 12

// ctrPod is one pod's container life, as the section draws it.
type ctrPod struct {
	key   string
	spans []ctrSpan
	marks []ctrMark
}

// ctrWatch finds the pods the section shows, scanning the event stream
// once: only the events recorded since the last scan are read, unless the
// session (or its engine, replaced by undo and rewind) changed.
type ctrWatch struct {
	eng     any
	scanned int
	pods    []string // pod keys in the order of their first event
	seen    map[string]bool
}

// eventfulPod is the pod an event says restarted (a kill "will be
// restarted"), backed off or failed a liveness or startup probe ("" for
// any other event). A readiness failure alone does not count: every pod
// with a readiness probe fails it while it warms up, and the section
// would list them all; the selected pods' readiness failures still show
// as marks.
func eventfulPod(e lab.Event) string {
	switch {
	case e.Reason == "BackOff":
	case e.Reason == "Unhealthy" && !strings.HasPrefix(e.Message, "Readiness probe"):
	case e.Reason == "Killing" && strings.HasSuffix(e.Message, "will be restarted"):
	default:
		return ""
	}
	key, ok := strings.CutPrefix(e.Object, "pod/")
	if !ok {
		return ""
	}
	return key
}

// update reads the events recorded since the last call.
func (w *ctrWatch) update(eng any, evs []lab.Event) {
	if w.eng != eng || len(evs) < w.scanned {
		*w = ctrWatch{eng: eng, seen: map[string]bool{}}
	}
	for _, e := range evs[w.scanned:] {
		if k := eventfulPod(e); k != "" && !w.seen[k] {
			w.seen[k] = true
			w.pods = append(w.pods, k)
		}
	}
	w.scanned = len(evs)
}

// containerPods is the section's data for the first maxCtrPods pods and
// how many more there are.
func containerPods(s *lab.Session, keys []string) ([]ctrPod, int) {
	var out []ctrPod
	for _, k := range keys[:min(len(keys), maxCtrPods)] {
		p := ctrPod{key: k}
		p.spans, p.marks = containerLife(s, k)
		out = append(out, p)
	}
	return out, max(len(keys)-maxCtrPods, 0)
}

// containerSection is the section's lines in a w-cell box: a heading,
// per pod its name and its containers' bars, then the legend (nil when
// no pod restarted). Its length does not depend on w (maxScroll).
func (v *timelineView) containerSection(w int) []string {
	m := v.m
	now := m.sess.Now().Seconds()
	var body []string
	for _, p := range v.ctrPods {
		bars := containerBars(p.spans, p.marks, now, w-4)
		if len(bars) == 0 {
			continue
		}
		body = append(body, m.st.Bold.Render(fit(safe(p.key), w-4)))
		for _, b := range bars {
			body = append(body, "  "+b)
		}
	}
	if len(body) == 0 {
		return nil
	}
	out := append([]string{"", m.st.Heading.Render("containers that restarted, backed off or failed probes")}, body...)
	if v.ctrMore > 0 {
		out = append(out, m.st.Muted.Render(fit(pluralMore(v.ctrMore), w-4)))
	}
	return append(out, m.st.Muted.Render(fit(containerLegend(now), w-4)))
}

func pluralMore(n int) string {
	if n == 1 {
		return "and 1 more pod"
	}
	return fmt.Sprintf("and %d more pods", n)
}
