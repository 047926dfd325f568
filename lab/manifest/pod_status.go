package manifest

import (
	"slices"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

// podPhases are v1.PodPhase's values.
var podPhases = []string{api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed, api.PodUnknown}

// podStatus decodes a pod's status. A scenario is a cluster as it is, so
// the engine keeps what is recorded here for bound pods (engine
// RestorePod): phase, startTime, conditions and their lastTransitionTime,
// container and init container statuses. Timestamps map to lab time like
// every other (see resolveTimes).
func (d *decoder) podStatus(n *yaml.Node, path string, s *api.PodStatus) {
	d.fields(n, path, schemaPodStatus, func(key string, v *yaml.Node, p string) {
		switch key {
		case "phase":
			s.Phase = d.str(v, p)
			if s.Phase != "" && !slices.Contains(podPhases, s.Phase) {
				d.found = append(d.found, notSupported(p, s.Phase, podPhases...).withHint("a pod's phase is Pending, Running, Succeeded, Failed or Unknown"))
				s.Phase = ""
			}
		case "conditions":
			s.Conditions = d.conditions(v, p, schemaPodCondition)
		case "reason":
			s.Reason = d.str(v, p)
		case "message":
			s.Message = d.str(v, p)
		case "nominatedNodeName":
			s.NominatedNodeName = d.str(v, p)
		case "startTime":
			d.timestamp(v, p, true, func(t api.Time) { s.StartTime = &t })
		case "qosClass":
			s.QOSClass = d.str(v, p)
		case "containerStatuses":
			s.ContainerStatuses = d.containerStatuses(v, p)
		case "initContainerStatuses":
			s.InitContainerStatuses = d.containerStatuses(v, p)
		}
	})
}

// containerStatuses decodes a list of v1.ContainerStatus. The slice is
// complete before timestamps are resolved, so setters index into it.
func (d *decoder) containerStatuses(n *yaml.Node, path string) []api.ContainerStatus {
	var out []api.ContainerStatus
	d.seq(n, path, func(i int, e *yaml.Node, p string) {
		out = append(out, api.ContainerStatus{})
		d.fields(e, p, schemaContainerStatus, func(key string, v *yaml.Node, p string) {
			cs := func() *api.ContainerStatus { return &out[i] }
			switch key {
			case "name":
				cs().Name = d.str(v, p)
			case "ready":
				cs().Ready = d.boolean(v, p)
			case "started":
				b := d.boolean(v, p)
				cs().Started = &b
			case "restartCount":
				cs().RestartCount, _ = d.int32(v, p)
				if cs().RestartCount < 0 {
					d.found = append(d.found, invalid(p, cs().RestartCount, msgNegative))
					cs().RestartCount = 0
				}
			case "state":
				d.containerState(v, p, func() *api.ContainerState { return &out[i].State })
			case "lastState":
				d.containerState(v, p, func() *api.ContainerState { return &out[i].LastState })
			}
		})
	})
	return out
}

// containerState decodes v1.ContainerState; at most one of waiting,
// running and terminated may be set (validation.go validateContainerStateTransition
// aside, the API documents them as exclusive).
func (d *decoder) containerState(n *yaml.Node, path string, st func() *api.ContainerState) {
	set := 0
	d.fields(n, path, schemaContainerState, func(key string, v *yaml.Node, p string) {
		if isNull(v) {
			return
		}
		set++
		if set > 1 {
			d.found = append(d.found, forbidden(p, "may not specify more than 1 container state").withHint("keep one of waiting, running, terminated"))
			return
		}
		switch key {
		case "waiting":
			w := &api.ContainerStateWaiting{}
			d.fields(v, p, schemaStateWaiting, func(key string, v *yaml.Node, p string) {
				switch key {
				case "reason":
					w.Reason = d.str(v, p)
				case "message":
					w.Message = d.str(v, p)
				}
			})
			st().Waiting = w
		case "running":
			r := &api.ContainerStateRunning{}
			st().Running = r
			d.fields(v, p, schemaStateRunning, func(_ string, v *yaml.Node, p string) {
				d.timestamp(v, p, true, func(t api.Time) { st().Running.StartedAt = t })
			})
		case "terminated":
			t := &api.ContainerStateTerminated{}
			st().Terminated = t
			d.fields(v, p, schemaStateTerminated, func(key string, v *yaml.Node, p string) {
				switch key {
				case "exitCode":
					t.ExitCode, _ = d.int32(v, p)
				case "signal":
					t.Signal, _ = d.int32(v, p)
				case "reason":
					t.Reason = d.str(v, p)
				case "message":
					t.Message = d.str(v, p)
				case "startedAt":
					d.timestamp(v, p, true, func(at api.Time) { st().Terminated.StartedAt = at })
				case "finishedAt":
					d.timestamp(v, p, true, func(at api.Time) { st().Terminated.FinishedAt = at })
				}
			})
		}
	})
}
