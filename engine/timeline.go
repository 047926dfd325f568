package engine

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// Timeline returns a pod's phases for the UI's Gantt bar: Pending,
// ContainerCreating, Running, then (once it is being killed) PreStop,
// SIGTERM, SIGKILL and Gone per container and for the pod. The kill is
// planned when it starts, so spans may lie after Now; the phase going on
// now has Open set. A pod's timeline stays available after it is removed.
func (e *Engine) Timeline(key string) (kubelet.Timeline, bool) {
	tl := e.timelines.Get(key)
	if tl == nil {
		return kubelet.Timeline{}, false
	}
	now := e.Now()
	var out kubelet.Timeline
	end := now
	if tl.gone != nil {
		end = *tl.gone
	}
	open := func(phase string, start api.Time) kubelet.Span {
		if tl.gone != nil {
			return kubelet.Span{Phase: phase, Start: start, End: end}
		}
		return kubelet.Span{Phase: phase, Start: start, End: now, Open: true}
	}
	if tl.scheduled == nil {
		out.Pod = append(out.Pod, open(kubelet.PhasePending, tl.created))
		return withGone(out, tl), true
	}
	if *tl.scheduled > tl.created {
		out.Pod = append(out.Pod, kubelet.Span{Phase: kubelet.PhasePending, Start: tl.created, End: *tl.scheduled})
	}
	if tl.running == nil {
		out.Pod = append(out.Pod, open(kubelet.PhaseContainerCreating, *tl.scheduled))
		return withGone(out, tl), true
	}
	if *tl.running > *tl.scheduled {
		out.Pod = append(out.Pod, kubelet.Span{Phase: kubelet.PhaseContainerCreating, Start: *tl.scheduled, End: *tl.running})
	}
	if n := len(tl.plans); n > 0 && (tl.killGen != 0 || tl.gone != nil) {
		full := mergePlans(tl.plans, *tl.running)
		out.Pod = append(out.Pod, beforeClockEnd(full.Pod, now)...)
		for i := range full.Containers {
			full.Containers[i].Spans = beforeClockEnd(full.Containers[i].Spans, now)
		}
		out.Containers = full.Containers
		return out, true
	}
	out.Pod = append(out.Pod, open(kubelet.PhaseRunning, *tl.running))
	pod := e.Pod(key)
	if pod != nil {
		for _, c := range pod.Spec.Containers {
			out.Containers = append(out.Containers, kubelet.ContainerTimeline{Name: c.Name, Spans: []kubelet.Span{open(kubelet.PhaseRunning, *tl.running)}})
		}
	}
	return withGone(out, tl), true
}

func withGone(t kubelet.Timeline, tl *podTimeline) kubelet.Timeline {
	if tl.gone != nil {
		t.Pod = append(t.Pod, kubelet.Span{Phase: kubelet.PhaseGone, Start: *tl.gone, End: *tl.gone})
	}
	return t
}

// mergePlans joins the kills of a pod whose grace period was shortened
// while it terminated: each earlier kill's phases up to the moment the
// next one started, then the last kill.
func mergePlans(plans []kubelet.KillPlan, running api.Time) kubelet.Timeline {
	last := plans[len(plans)-1].Timeline(running)
	if len(plans) == 1 {
		return last
	}
	clip := func(spans []kubelet.Span, until api.Time) []kubelet.Span {
		var out []kubelet.Span
		for _, sp := range spans {
			if sp.Start >= until {
				break
			}
			if sp.End > until {
				sp.End = until
			}
			out = append(out, sp)
		}
		return out
	}
	// drop the leading Running span of a later kill
	tail := func(spans []kubelet.Span) []kubelet.Span {
		if len(spans) > 0 && spans[0].Phase == kubelet.PhaseRunning {
			return spans[1:]
		}
		return spans
	}
	var out kubelet.Timeline
	for i, plan := range plans[:len(plans)-1] {
		t := plan.Timeline(running)
		next := plans[i+1].Start
		pod := clip(t.Pod, next)
		if i > 0 {
			pod = tail(pod)
		}
		out.Pod = append(out.Pod, pod...)
		for j, c := range t.Containers {
			spans := clip(c.Spans, next)
			if i > 0 {
				spans = tail(spans)
			}
			if i == 0 {
				out.Containers = append(out.Containers, kubelet.ContainerTimeline{Name: c.Name, Sidecar: c.Sidecar})
			}
			if j < len(out.Containers) {
				out.Containers[j].Spans = append(out.Containers[j].Spans, spans...)
			}
		}
	}
	out.Pod = compact(append(out.Pod, tail(last.Pod)...))
	for j, c := range last.Containers {
		if j < len(out.Containers) {
			out.Containers[j].Spans = compact(append(out.Containers[j].Spans, tail(c.Spans)...))
		}
	}
	return out
}

// compact joins adjacent spans of the same phase.
func compact(spans []kubelet.Span) []kubelet.Span {
	var out []kubelet.Span
	for _, sp := range spans {
		if n := len(out); n > 0 && out[n-1].Phase == sp.Phase && out[n-1].End == sp.Start && out[n-1].Start != out[n-1].End {
			out[n-1].End = sp.End
			continue
		}
		out = append(out, sp)
	}
	return out
}

// beforeClockEnd drops the planned phases that start past the clock's end
// (MaxClock) and leaves the one that reaches it open: a grace period of
// 9223372036854775807 s is a SIGTERM that never ends, not a SIGKILL and a
// Gone at the saturated api.MaxTime.
func beforeClockEnd(spans []kubelet.Span, now api.Time) []kubelet.Span {
	for i, sp := range spans {
		if sp.End > MaxClock {
			return append(spans[:i], kubelet.Span{Phase: sp.Phase, Start: sp.Start, End: max(now, sp.Start), Open: true})
		}
	}
	return spans
}
