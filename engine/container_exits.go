package engine

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// How containers of the container model (containers.go) end: a probe
// kill, an exit, the restart decision and CrashLoopBackOff, the pod's
// terminal phase.

// killContainer is the kubelet killing a container whose liveness or
// startup probe failed, through the graceful path (kuberuntime_container.go
// killContainer): the grace period is the failing probe's
// terminationGracePeriodSeconds, else the pod's (ContainerGracePeriod);
// the preStop hook runs first and uses it up; SIGTERM then gets what is
// left, at least 2 s; the app exits after lab.podlab.dev/terminate-after
// (143) or is killed when the time is up (137). A readiness failure never
// kills.
func (e *Engine) killContainer(ps *podState, c *containerRT, why string) {
	ps = e.owned(ps)
	now := e.Now()
	e.record(EventNormal, ReasonKilling, podObject(ps.pod.Key()), fmt.Sprintf("Container %s %s, will be restarted", c.name, why))
	reason := kubelet.ReasonLivenessProbe
	if !c.started {
		reason = kubelet.ReasonStartupProbe
	}
	grace := kubelet.ContainerGracePeriod(ps.pod, c.spec, reason, nil)
	if reason == kubelet.ReasonStartupProbe && c.spec.StartupProbe != nil && c.spec.StartupProbe.TerminationGracePeriodSeconds != nil {
		grace = *c.spec.StartupProbe.TerminationGracePeriodSeconds
	}
	term := now
	remaining := grace
	if d, ok := kubelet.PreStopDuration(c.spec); ok && grace > 0 {
		d = min(d, time.Duration(grace)*time.Second)
		term = now.Add(d)
		remaining = grace - int64(d/time.Second)
	}
	remaining = max(remaining, kubelet.MinimumGracePeriodSeconds)
	exit, _ := kubelet.ShutdownTime(ps.pod)
	c.killing, c.ready = true, false
	if exit == kubelet.Never || exit > time.Duration(remaining)*time.Second {
		c.killAt, c.killCode = term.Add(time.Duration(remaining)*time.Second), 137
	} else {
		c.killAt, c.killCode = term.Add(exit), 143
	}
}

// containerExited handles a container that ended: restart per policy
// (with CrashLoopBackOff), or stay terminated.
func (e *Engine) containerExited(ps *podState, c *containerRT, code int32, reason string) {
	ps = e.owned(ps)
	now := e.Now()
	c.term = &api.ContainerStateTerminated{ExitCode: code, Reason: reason, StartedAt: c.start, FinishedAt: now}
	c.running, c.ready, c.killing = false, false, false
	if !restarts(ps.pod.Spec.RestartPolicy, c, code) {
		c.done = true
		return
	}
	at, b := c.backoff.RestartAt(now)
	c.backoff = b
	if at <= now {
		e.startContainer(ps, c)
		return
	}
	c.waiting, c.restartAt = "CrashLoopBackOff", at
	p := ps.pod
	e.record(EventWarning, ReasonBackOff, podObject(p.Key()), fmt.Sprintf("Back-off restarting failed container %s in pod %s_%s(%s)", c.name, p.Name, p.Namespace, p.UID))
}

// restarts is the kubelet's restart decision: a sidecar always restarts;
// other containers per the pod's restartPolicy (an init container under
// Always restarts on failure only, it must complete).
func restarts(policy string, c *containerRT, code int32) bool {
	if c.sidecar {
		return true
	}
	switch policy {
	case "Never":
		return false
	case "OnFailure":
		return code != 0
	}
	if c.init {
		return code != 0
	}
	return true
}

// runtimeTerminal ends a pod whose containers are all done for good
// (restartPolicy Never/OnFailure, or an init container that failed under
// Never): Succeeded when every regular container exited 0, else Failed.
func (e *Engine) runtimeTerminal(ps *podState) bool {
	rt := ps.rt
	failedInit := false
	allDone, anyFailed := true, false
	for _, c := range rt.containers {
		if c.init && !c.sidecar {
			if c.done && c.term != nil && c.term.ExitCode != 0 {
				failedInit = true
			}
			continue
		}
		if c.sidecar {
			continue
		}
		if !c.done {
			allDone = false
		} else if c.term != nil && c.term.ExitCode != 0 {
			anyFailed = true
		}
	}
	if !failedInit && (!rt.mainStarted || !allDone) {
		return false
	}
	e.publishRuntime(ps)
	phase := api.PodSucceeded
	if failedInit || anyFailed {
		phase = api.PodFailed
	}
	e.markTerminated(ps, phase, "", "PodCompleted")
	return true
}
