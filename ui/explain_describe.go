package ui

import "strings"

// describeLines is the explained pod as `kubectl describe pod` shows its
// state (lab.Session.DescribePod): status, init and regular containers
// (state, last state, ready, restart count, probes) and the conditions
// with their transition times. It goes below the scheduler's verdicts:
// explain answers "why here", this answers "and how is it doing". The
// pod's events are left to the events and timeline views.
func (v *explainView) describeLines() []string {
	if v.podKey == "" {
		return nil
	}
	text, err := v.m.sess.DescribePod(v.podKey)
	if err != nil {
		return nil
	}
	st := v.m.st
	out := []string{"", st.Heading.Render("kubectl describe pod " + safe(v.podKey))}
	in := false
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "Status:"):
			in = true
		case strings.HasPrefix(l, "Events:"):
			return out
		}
		if !in {
			continue
		}
		l = safe(l)
		if l != "" && l[0] != ' ' {
			// a section or a field: its name stands out
			if k, rest, ok := strings.Cut(l, ":"); ok {
				l = st.Bold.Render(k+":") + rest
			}
		}
		out = append(out, l)
	}
	return out
}
