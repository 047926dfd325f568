package engine

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// The prober's side of the container model (containers.go): outcome
// segments, the workers' next changes, and `break pod` / `heal pod`.

// segments are a probe's outcomes over the container's current run.
func (rt *podRuntime) segments(c *containerRT, kind probeKind) []kubelet.Segment {
	up := c.start.Add(c.behave.ReadyAfter)
	var failAt *api.Time
	if kind == probeLiveness && c.behave.LivenessFailsAt != nil {
		t := c.start.Add(*c.behave.LivenessFailsAt)
		failAt = &t
	}
	outcome := func(t api.Time) bool {
		for i := len(rt.overrides) - 1; i >= 0; i-- {
			// an override issued at T acts on probe runs after T: the
			// runs due at T ran before the command (actions first)
			if o := rt.overrides[i]; o.At < t && (o.Kind == kind || !o.Broken) {
				if o.Broken {
					return false
				}
				break
			}
		}
		if t < up {
			return false
		}
		return failAt == nil || t < *failAt
	}
	points := []api.Time{c.start, up}
	if failAt != nil {
		points = append(points, *failAt)
	}
	for _, o := range rt.overrides {
		points = append(points, o.At+1)
	}
	for i := 1; i < len(points); i++ { // a handful of points: insertion sort
		for j := i; j > 0 && points[j] < points[j-1]; j-- {
			points[j], points[j-1] = points[j-1], points[j]
		}
	}
	var segs []kubelet.Segment
	for _, p := range points {
		if p < c.start {
			p = c.start
		}
		o := outcome(p)
		if n := len(segs); n > 0 && (segs[n-1].At == p || segs[n-1].Success == o) {
			if segs[n-1].At == p {
				segs[n-1].Success = o
			}
			continue
		}
		segs = append(segs, kubelet.Segment{At: p, Success: o})
	}
	return segs
}

// workerSegments returns a worker's outcome segments, from its cache
// when nothing they depend on changed.
func (rt *podRuntime) workerSegments(c *containerRT, kind probeKind, w *probeWorker) []kubelet.Segment {
	if w.segs != nil && w.segStart == c.start && w.segAnchor == w.anchor && w.segOverrides == len(rt.overrides) {
		return w.segs
	}
	segs := rt.segments(c, kind)
	if len(segs) > 0 && segs[0].At > w.anchor {
		segs[0].At = w.anchor
	}
	w.segs, w.segStart, w.segAnchor, w.segOverrides = segs, c.start, w.anchor, len(rt.overrides)
	return segs
}

// nextTransition is a worker's next published change after its cursor.
func (rt *podRuntime) nextTransition(c *containerRT, kind probeKind) (api.Time, bool, bool) {
	w := c.workers[kind]
	if w == nil || w.anchor < 0 {
		return 0, false, false
	}
	segs := rt.workerSegments(c, kind, w)
	at, res, ok := kubelet.NextProbeTransition(w.timing, w.anchor, w.initial, segs, w.cursor)
	if kind == probeStartup && !c.started {
		// a failure run reaching failureThreshold kills the container
		// before any success: ask again with success assumed
		fat, fres, fok := kubelet.NextProbeTransition(w.timing, w.anchor, true, segs, w.cursor)
		if fok && !fres && (!ok || fat < at) {
			return fat, false, true
		}
	}
	return at, res, ok
}

// nextFailureStreak is when a worker's next streak of failed runs starts
// (an Unhealthy event), after its failCursor.
func (rt *podRuntime) nextFailureStreak(c *containerRT, kind probeKind) (api.Time, bool) {
	w := c.workers[kind]
	if w == nil || w.anchor < 0 || (kind == probeStartup && c.started) {
		return 0, false
	}
	segs := rt.workerSegments(c, kind, w)
	return kubelet.NextFailureStreak(w.timing, w.anchor, segs, w.failCursor)
}

// BreakProbe makes a running pod's readiness or liveness probe fail from
// now on (`break pod NAME readiness|liveness`).
func (e *Engine) BreakProbe(key, probe string) error {
	ps, kind, err := e.probeTarget(key, probe)
	if err != nil {
		return err
	}
	ps = e.mut(ps)
	ps.rt.overrides = append(ps.rt.overrides, probeOverride{At: e.Now(), Kind: kind, Broken: true})
	e.rescheduleRuntime(ps)
	return nil
}

// HealProbes makes a pod's probes behave as annotated again (`heal pod
// NAME`).
func (e *Engine) HealProbes(key string) error {
	ps := e.pods.Get(key)
	if ps == nil {
		return fmt.Errorf("pod %s not found", key)
	}
	if ps.rt == nil || len(ps.rt.overrides) == 0 {
		return fmt.Errorf("pod %s has no broken probe to heal", key)
	}
	ps = e.mut(ps)
	ps.rt.overrides = append(ps.rt.overrides, probeOverride{At: e.Now(), Broken: false})
	e.rescheduleRuntime(ps)
	return nil
}

func (e *Engine) probeTarget(key, probe string) (*podState, probeKind, error) {
	ps := e.pods.Get(key)
	if ps == nil {
		return nil, 0, fmt.Errorf("pod %s not found", key)
	}
	var kind probeKind
	switch probe {
	case "readiness":
		kind = probeReadiness
	case "liveness":
		kind = probeLiveness
	default:
		return nil, 0, fmt.Errorf("probe %q: use readiness or liveness", probe)
	}
	if ps.state != StateRunning || ps.rt == nil {
		if ps.state == StateRunning && !hasProbe(ps.pod, kind) {
			return nil, 0, fmt.Errorf("pod %s has no %s probe: without one its containers count as %s (add a %sProbe to the template)", key, probe, map[probeKind]string{probeReadiness: "ready once started", probeLiveness: "alive until they exit"}[kind], probe)
		}
		return nil, 0, fmt.Errorf("pod %s is not running (%s)", key, ps.state)
	}
	if !hasProbe(ps.pod, kind) {
		return nil, 0, fmt.Errorf("pod %s has no %s probe: without one its containers count as %s (add a %sProbe to the template)", key, probe, map[probeKind]string{probeReadiness: "ready once started", probeLiveness: "alive until they exit"}[kind], probe)
	}
	return ps, kind, nil
}

func hasProbe(p *api.Pod, kind probeKind) bool {
	for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			c := &cs[i]
			if (kind == probeReadiness && c.ReadinessProbe != nil) || (kind == probeLiveness && c.LivenessProbe != nil) {
				return true
			}
		}
	}
	return false
}

// rescheduleRuntime re-plans a pod after its probe outcomes changed.
func (e *Engine) rescheduleRuntime(ps *podState) {
	ps = e.owned(ps)
	ps.rt.scheduled = false
	e.advanceRuntime(ps)
	e.settle()
}
