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
	tl := e.timelines[key]
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
		plan := tl.plans[n-1]
		full := plan.Timeline(*tl.running)
		out.Pod = append(out.Pod, full.Pod...)
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
