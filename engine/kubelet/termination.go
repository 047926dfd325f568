package kubelet

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine/api"
)

// ContainerKill is what happens to one container when its pod is killed.
type ContainerKill struct {
	Name    string
	Sidecar bool
	// HasPreStop: the preStop hook ran from the kill start to PreStopEnd.
	HasPreStop bool
	PreStopEnd api.Time
	// StopTimeout is the grace (seconds) passed to the runtime's
	// StopContainer: SIGTERM at Term, SIGKILL StopTimeout later if still up.
	StopTimeout int64
	Term        api.Time
	// Killed: the container outlived StopTimeout and got SIGKILL at Exit.
	Killed bool
	Exit   api.Time
}

// KillPlan is the termination of a pod's running containers.
type KillPlan struct {
	Start api.Time
	// Grace is the pod worker's effective grace period (seconds).
	Grace int64
	// Containers: main containers, then sidecars, in declaration order.
	Containers []ContainerKill
	// Gone is when the last container exited.
	Gone api.Time
}

// secs saturates: a --grace-period of 9223372036854775807 must not wrap
// round to a kill before the SIGTERM.
func secs(n int64) time.Duration { return api.SecondsDuration(n) }

// PlanKill works out the termination of a pod whose containers all run,
// killed at start with the pod worker's effective grace period (see
// EffectiveGracePeriod), following v1.36 killContainersWithSyncResult and
// killContainer for every container at once:
//
//  1. the preStop hook runs and consumes the grace period (the hook gets at
//     most the whole grace period; the time it took is subtracted in whole
//     seconds, as executePreStopHook returns int64 seconds);
//  2. a sidecar (restartable init container) then waits for every main
//     container and every sidecar declared after it to exit, at most for
//     what remains of its grace period, and that wait is subtracted too
//     (kuberuntime_termination_order.go);
//  3. what remains is raised to at least MinimumGracePeriodSeconds;
//  4. SIGTERM; the container exits after its modelled shutdown time
//     (AnnotationTerminateAfter) or gets SIGKILL when the remainder runs out.
func PlanKill(pod *api.Pod, start api.Time, grace int64) (KillPlan, error) {
	shutdown, err := ShutdownTime(pod)
	if err != nil {
		return KillPlan{}, err
	}
	plan := KillPlan{Start: start, Grace: grace, Gone: start}
	stop := func(k *ContainerKill, term api.Time, remaining int64) {
		if remaining < MinimumGracePeriodSeconds {
			remaining = MinimumGracePeriodSeconds
		}
		k.StopTimeout = remaining
		k.Term = term
		if shutdown == Never || shutdown > secs(remaining) {
			k.Killed = true
			k.Exit = term.Add(secs(remaining))
		} else {
			k.Exit = term.Add(shutdown)
		}
		if k.Exit > plan.Gone {
			plan.Gone = k.Exit
		}
	}
	// preStop: returns when the hook ended and the grace left.
	preStop := func(c *api.Container, k *ContainerKill) (api.Time, int64) {
		d, ok := PreStopDuration(c)
		if !ok || grace <= 0 {
			return start, grace
		}
		k.HasPreStop = true
		if d > secs(grace) {
			d = secs(grace)
		}
		k.PreStopEnd = start.Add(d)
		return k.PreStopEnd, grace - int64(d/time.Second)
	}
	var mainExit api.Time = start
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		k := ContainerKill{Name: c.Name, PreStopEnd: start}
		end, remaining := preStop(c, &k)
		stop(&k, end, remaining)
		if k.Exit > mainExit {
			mainExit = k.Exit
		}
		plan.Containers = append(plan.Containers, k)
	}
	// Sidecars in reverse declaration order: each waits for the main
	// containers and for the sidecar declared after it.
	var sidecars []ContainerKill
	laterExit := mainExit
	for i := len(pod.Spec.InitContainers) - 1; i >= 0; i-- {
		c := &pod.Spec.InitContainers[i]
		if !c.IsSidecar() {
			continue
		}
		k := ContainerKill{Name: c.Name, Sidecar: true, PreStopEnd: start}
		end, remaining := preStop(c, &k)
		term := end
		if remaining > 0 && laterExit > end {
			wait := laterExit.Sub(end)
			if wait > secs(remaining) {
				wait = secs(remaining)
			}
			term = end.Add(wait)
			remaining -= int64(wait / time.Second)
		}
		stop(&k, term, remaining)
		if k.Exit > laterExit {
			laterExit = k.Exit
		}
		sidecars = append(sidecars, k)
	}
	for i := len(sidecars) - 1; i >= 0; i-- {
		plan.Containers = append(plan.Containers, sidecars[i])
	}
	return plan, nil
}

// Timeline phases.
const (
	PhasePending           = "Pending"
	PhaseContainerCreating = "ContainerCreating"
	PhaseRunning           = "Running"
	PhasePreStop           = "PreStop"
	PhaseSIGTERM           = "SIGTERM"
	PhaseSIGKILL           = "SIGKILL"
	PhaseGone              = "Gone"
)

// Span is one phase of a timeline; SIGKILL and Gone are instants
// (Start == End). An open span (still going on) has End == Start and Open.
type Span struct {
	Phase string
	Start api.Time
	End   api.Time
	Open  bool
}

func (s Span) String() string {
	if s.Open {
		return fmt.Sprintf("%s[%s…]", s.Phase, s.Start)
	}
	if s.Start == s.End {
		return fmt.Sprintf("%s@%s", s.Phase, s.Start)
	}
	return fmt.Sprintf("%s[%s,%s)", s.Phase, s.Start, s.End)
}

// ContainerTimeline is one container's phases.
type ContainerTimeline struct {
	Name    string
	Sidecar bool
	Spans   []Span
}

// Timeline is a pod's phases (the Gantt bar the UI draws) and its
// containers'.
type Timeline struct {
	Pod        []Span
	Containers []ContainerTimeline
}

// ContainerSpans returns a container's termination phases after it ran
// since runningSince.
func (k ContainerKill) ContainerSpans(start, runningSince api.Time) []Span {
	var out []Span
	out = append(out, Span{Phase: PhaseRunning, Start: runningSince, End: start})
	if k.HasPreStop {
		out = append(out, Span{Phase: PhasePreStop, Start: start, End: k.PreStopEnd})
		if k.Term > k.PreStopEnd { // a sidecar waiting for its turn still runs
			out = append(out, Span{Phase: PhaseRunning, Start: k.PreStopEnd, End: k.Term})
		}
	} else if k.Term > start {
		out[0].End = k.Term
	}
	if k.Killed {
		kill := k.Term.Add(secs(k.StopTimeout))
		out = append(out, Span{Phase: PhaseSIGTERM, Start: k.Term, End: kill},
			Span{Phase: PhaseSIGKILL, Start: kill, End: kill})
	} else {
		out = append(out, Span{Phase: PhaseSIGTERM, Start: k.Term, End: k.Exit})
	}
	return append(out, Span{Phase: PhaseGone, Start: k.Exit, End: k.Exit})
}

// PodSpans summarises the plan for the pod bar: Running until the kill,
// PreStop until the first SIGTERM (when any container has a hook),
// SIGTERM until the pod is gone, a SIGKILL instant at the first kill, Gone.
func (p KillPlan) PodSpans(runningSince api.Time) []Span {
	out := []Span{{Phase: PhaseRunning, Start: runningSince, End: p.Start}}
	if len(p.Containers) == 0 {
		return append(out, Span{Phase: PhaseGone, Start: p.Gone, End: p.Gone})
	}
	firstTerm := p.Containers[0].Term
	hook := false
	var firstKill *api.Time
	for i := range p.Containers {
		k := &p.Containers[i]
		if k.Term < firstTerm {
			firstTerm = k.Term
		}
		hook = hook || k.HasPreStop
		if k.Killed && (firstKill == nil || k.Exit < *firstKill) {
			e := k.Exit
			firstKill = &e
		}
	}
	if hook && firstTerm > p.Start {
		out = append(out, Span{Phase: PhasePreStop, Start: p.Start, End: firstTerm})
	}
	out = append(out, Span{Phase: PhaseSIGTERM, Start: firstTerm, End: p.Gone})
	if firstKill != nil {
		out = append(out, Span{Phase: PhaseSIGKILL, Start: *firstKill, End: *firstKill})
	}
	return append(out, Span{Phase: PhaseGone, Start: p.Gone, End: p.Gone})
}

// Timeline returns the whole timeline of a pod that ran since runningSince.
func (p KillPlan) Timeline(runningSince api.Time) Timeline {
	t := Timeline{Pod: p.PodSpans(runningSince)}
	for _, k := range p.Containers {
		t.Containers = append(t.Containers, ContainerTimeline{Name: k.Name, Sidecar: k.Sidecar, Spans: k.ContainerSpans(p.Start, runningSince)})
	}
	return t
}
