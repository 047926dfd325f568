package lab

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/textsafe"
)

// ungate runs `ungate pod NAME [GATE]...`: the named scheduling gates
// (none named: all) leave the pod's spec.schedulingGates, as a client's
// update would; with none left the scheduler queues the pod (see
// engine.RemoveSchedulingGates).
func (s *Session) ungate(c command.Ungate) (string, error) {
	ns, name, err := s.resolve("pod", trimPodPrefix(c.Pod))
	if err != nil {
		return "", err
	}
	key := ns + "/" + name
	if err := s.eng.RemoveSchedulingGates(key, c.Gates...); err != nil {
		var ge *engine.GateError
		if errors.As(err, &ge) {
			return "", gateError(name, ge)
		}
		return "", err
	}
	left := s.eng.Pod(key).Spec.SchedulingGates
	if len(left) > 0 {
		return fmt.Sprintf("pod/%s ungated; still waiting for scheduling gates: %s", name, textsafe.Line(strings.Join(left, ", "))), nil
	}
	return fmt.Sprintf("pod/%s ungated; no scheduling gates left", name), nil
}

// gateError says what the pod's gates are when the command names one it
// does not have.
func gateError(pod string, ge *engine.GateError) error {
	if len(ge.Gates) == 0 {
		return fmt.Errorf("pod %s has no scheduling gates", pod)
	}
	return fmt.Errorf("pod %s has no scheduling gate %q; its gates are %s", pod, textsafe.Line(ge.Gate), textsafe.Line(strings.Join(ge.Gates, ", ")))
}

func trimPodPrefix(name string) string { return strings.TrimPrefix(name, "pod/") }

// podRef is how a command names the pod with this namespace/name key:
// its name in the default namespace, else NAMESPACE/NAME (a bare name may
// be in several namespaces).
func podRef(key string) string {
	if ns, name, ok := strings.Cut(key, "/"); ok && ns == "default" {
		return name
	}
	return key
}

// kubectlUngate is the kubectl command that removes the gates: a
// strategic-merge patch deleting each named gate (schedulingGates merges
// on name), or a merge patch clearing the list when none is named.
func kubectlUngate(c command.Ungate) string {
	target := c.Pod
	if ns, name, ok := strings.Cut(c.Pod, "/"); ok {
		target = name + " -n " + ns
	}
	if len(c.Gates) == 0 {
		return "kubectl patch pod " + target + ` --type=merge -p '{"spec":{"schedulingGates":null}}'`
	}
	parts := make([]string, len(c.Gates))
	for i, g := range c.Gates {
		parts[i] = `{"$patch":"delete","name":"` + g + `"}`
	}
	return "kubectl patch pod " + target + ` -p '{"spec":{"schedulingGates":[` + strings.Join(parts, ",") + `]}}'`
}

// podExistsError refuses to apply a pod that exists. When the new object
// drops scheduling gates — the one spec change a real API server takes
// for them — it says which command does that here.
func podExistsError(old, applied *api.Pod) error {
	var dropped []string
	for _, g := range old.Spec.SchedulingGates {
		if !slices.Contains(applied.Spec.SchedulingGates, g) {
			dropped = append(dropped, g)
		}
	}
	if len(dropped) > 0 {
		return fmt.Errorf("pod %s exists; to remove its scheduling gates use `ungate pod %s %s` (pods are otherwise immutable here: delete it first)",
			old.Key(), podRef(old.Key()), textsafe.Line(strings.Join(dropped, " ")))
	}
	return fmt.Errorf("pod %s exists; pods are immutable: delete it first", old.Key())
}
