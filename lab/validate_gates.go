package lab

import (
	"fmt"
	"slices"
	"strings"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// Scheduling gates in `podlab validate`'s look at the commands: an
// `ungate pod NAME GATE` for a gate the pod does not have will fail. Gates
// can only be removed (validateOnlyDeletedSchedulingGates), so a gate the
// pod lacks at t=0, or one an earlier command of the same sequence
// removed, is missing for sure. Only bare pods of the scenario are
// followed: a controller may re-create its pod under the same name
// (a StatefulSet's web-0) with the template's gates again.

// startGates returns the scheduling gates of the scenario's bare pods at
// t=0, by namespace/name.
func (s *Session) startGates() map[string][]string {
	out := map[string][]string{}
	for _, p := range s.eng.Pods() {
		if p.ControllerRef() == nil && p.Spec.NodeName == "" {
			out[p.Key()] = p.Spec.SchedulingGates
		}
	}
	return out
}

// gatePod is the key of the followed pod an ungate names ("" if none),
// found as the session's lookup finds it: NAMESPACE/NAME exactly, a bare
// name in default, else in the one namespace that has it.
func (x *objectIndex) gatePod(c command.Ungate) string {
	followed := func(k string) string {
		if _, ok := x.gates[k]; ok {
			return k
		}
		return ""
	}
	if strings.Contains(c.Pod, "/") {
		return followed(c.Pod)
	}
	if x.keys["pod"]["default/"+c.Pod] {
		return followed("default/" + c.Pod)
	}
	found := ""
	for k := range x.keys["pod"] {
		if strings.HasSuffix(k, "/"+c.Pod) {
			if found != "" {
				return "" // several namespaces: the run-time lookup says so
			}
			found = k
		}
	}
	return followed(found)
}

// gateMissing reports an ungate that names a gate the pod no longer has.
func (x *objectIndex) gateMissing(c command.Command) (string, bool) {
	u, ok := c.(command.Ungate)
	if !ok || x.opaque {
		return "", false
	}
	key := x.gatePod(u)
	if key == "" {
		return "", false
	}
	have := x.gates[key]
	name := key[strings.IndexByte(key, '/')+1:]
	if len(have) == 0 {
		return fmt.Sprintf("pod %s has no scheduling gates left", name), true
	}
	for _, g := range u.Gates {
		if !slices.Contains(have, g) {
			// the message the run gives (exec_ungate.go)
			return gateError(name, &engine.GateError{Gate: g, Gates: have}).Error(), true
		}
	}
	return "", false
}

// ungated records the gates an ungate removes (the map's slices are
// replaced, never changed: clones share them).
func (x *objectIndex) ungated(c command.Command) {
	u, ok := c.(command.Ungate)
	if !ok {
		return
	}
	key := x.gatePod(u)
	if key == "" {
		return
	}
	var left []string
	if len(u.Gates) > 0 {
		for _, g := range x.gates[key] {
			if !slices.Contains(u.Gates, g) {
				left = append(left, g)
			}
		}
	}
	x.gates[key] = left
}

// podsApplied follows the bare pods a manifest applied in the sequence
// creates (a pod deleted and applied again, as a saved session records a
// file applied in the lab): their gates are the new object's. A command
// of the other sequence may or may not have run by then, so a pod it
// applies is no longer followed.
func (x *objectIndex) podsApplied(objs *manifest.Objects) {
	for _, p := range objs.Pods {
		key := p.Key()
		switch {
		case x.adding || p.ControllerRef() != nil || p.Spec.NodeName != "":
			delete(x.gates, key)
		default:
			x.gates[key] = p.Spec.SchedulingGates
		}
	}
}
