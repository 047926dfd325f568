package lab

import (
	"strings"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// ContainerSpan is one stretch of a container's life, for the timeline
// view: an init container's run, a regular container's run, or a
// CrashLoopBackOff wait between two runs.
type ContainerSpan struct {
	Container string
	Kind      string // "init", "run" or "back-off"
	From, To  api.Time
	// Open: still going (To is now).
	Open bool
}

// ContainerMark is an instant on a pod's timeline: a probe failure
// (Unhealthy) or a kill by a failed probe (Killing).
type ContainerMark struct {
	At      api.Time
	Reason  string
	Message string
}

// ContainerTimeline rebuilds a pod's container runs, back-off waits and
// probe failures from its events and status (for the timeline view; the
// UI draws, the lab answers). A run ends at the next Started or BackOff
// of the same container, or when the status says it terminated.
func (s *Session) ContainerTimeline(podKey string) ([]ContainerSpan, []ContainerMark) {
	p := s.eng.Pod(podKey)
	now := s.eng.Now()
	init := map[string]bool{}
	if p != nil {
		for _, c := range p.Spec.InitContainers {
			init[c.Name] = true
		}
	}
	var spans []ContainerSpan
	var marks []ContainerMark
	open := map[string]int{} // container → index of its open span
	closeSpan := func(name string, at api.Time) {
		if i, ok := open[name]; ok {
			spans[i].To, spans[i].Open = at, false
			delete(open, name)
		}
	}
	for _, ev := range podEvents(s.eng.Events(), podKey) {
		switch ev.Reason {
		case engine.ReasonStarted:
			name, ok := strings.CutPrefix(ev.Message, "Started container ")
			if !ok {
				continue
			}
			closeSpan(name, ev.Time)
			kind := "run"
			if init[name] {
				kind = "init"
			}
			open[name] = len(spans)
			spans = append(spans, ContainerSpan{Container: name, Kind: kind, From: ev.Time, Open: true})
		case engine.ReasonBackOff:
			rest, ok := strings.CutPrefix(ev.Message, "Back-off restarting failed container ")
			if !ok {
				continue
			}
			name, _, _ := strings.Cut(rest, " ")
			closeSpan(name, ev.Time)
			open[name] = len(spans)
			spans = append(spans, ContainerSpan{Container: name, Kind: "back-off", From: ev.Time, Open: true})
		case engine.ReasonUnhealthy, engine.ReasonKilling:
			marks = append(marks, ContainerMark{At: ev.Time, Reason: ev.Reason, Message: ev.Message})
		}
	}
	if p != nil {
		for _, list := range [][]api.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
			for _, cs := range list {
				if t := cs.State.Terminated; t != nil {
					closeSpan(cs.Name, t.FinishedAt)
				}
			}
		}
	}
	for _, i := range open {
		spans[i].To = now
	}
	return spans, marks
}
