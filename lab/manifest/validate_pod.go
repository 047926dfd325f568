package manifest

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// validatePodSpec follows ValidatePodSpec of
// pkg/apis/core/validation/validation.go for the fields the lab decodes.
// It runs on the object as written (before defaulting), so an unset
// terminationGracePeriodSeconds counts as the default 30 s. labels are the
// pod's (or template's): matchLabelKeys are checked as after the API
// server merged them.
func validatePodSpec(s *api.PodSpec, path string, labels map[string]string) []fieldError {
	var out []fieldError
	grace := api.DefaultTerminationGracePeriodSeconds
	if s.TerminationGracePeriodSeconds != nil {
		grace = *s.TerminationGracePeriodSeconds
		if grace < 0 {
			// api/pod/warnings.go: a warning, and conversion makes it 1.
			out = append(out, fieldError{path: join(path, "terminationGracePeriodSeconds"), warning: true,
				msg: "must be >= 0; negative values are invalid and will be treated as 1"})
		}
	}
	if len(s.Containers) == 0 {
		out = append(out, required(join(path, "containers"), "").withHint("a pod needs at least one container"))
	}
	names := map[string]bool{}
	out = append(out, validateContainers(s.Containers, join(path, "containers"), grace, names)...)
	out = append(out, validateContainers(s.InitContainers, join(path, "initContainers"), grace, names)...)
	if s.Resources != nil {
		out = append(out, validateResourceRequirements(s.Resources, join(path, "resources"))...)
	}
	// validateOverhead checks the overhead as the limits of a requirement,
	// hence upstream's "spec.overhead.limits[cpu]".
	for _, e := range validateResourceList(s.Overhead, join(path, "overhead.limits")) {
		e.at = join(path, "overhead") + e.path[len(join(path, "overhead.limits")):]
		out = append(out, e)
	}
	switch s.RestartPolicy {
	case "", "Always", "OnFailure", "Never":
	default:
		out = append(out, notSupported(join(path, "restartPolicy"), s.RestartPolicy, "Always", "OnFailure", "Never"))
	}
	out = append(out, validateLabels(join(path, "nodeSelector"), s.NodeSelector)...)
	if s.ActiveDeadlineSeconds != nil && (*s.ActiveDeadlineSeconds < 1 || *s.ActiveDeadlineSeconds > 2147483647) {
		out = append(out, invalid(join(path, "activeDeadlineSeconds"), *s.ActiveDeadlineSeconds, "must be between 1 and 2147483647, inclusive"))
	}
	if s.PreemptionPolicy != nil {
		out = append(out, validatePreemptionPolicy(*s.PreemptionPolicy, join(path, "preemptionPolicy"))...)
	}
	out = append(out, validateSchedulingGates(s.SchedulingGates, join(path, "schedulingGates"))...)
	out = append(out, validateTolerations(s.Tolerations, join(path, "tolerations"))...)
	out = append(out, validateAffinity(s.Affinity, join(path, "affinity"), labels)...)
	out = append(out, validateSpreadConstraints(s.TopologySpreadConstraints, join(path, "topologySpreadConstraints"), labels)...)
	return append(out, podSpecWarnings(s, path)...)
}

func validateContainers(cs []api.Container, path string, grace int64, names map[string]bool) []fieldError {
	var out []fieldError
	for i := range cs {
		c := &cs[i]
		p := index(path, i)
		if c.Name == "" {
			out = append(out, required(join(p, "name"), ""))
		} else {
			for _, msg := range dnsLabelErrors(c.Name) {
				out = append(out, invalid(join(p, "name"), c.Name, msg))
			}
			if names[c.Name] {
				out = append(out, duplicate(join(p, "name"), c.Name))
			}
			names[c.Name] = true
		}
		if c.Image == "" {
			out = append(out, required(join(p, "image"), ""))
		}
		out = append(out, validatePorts(c.Ports, join(p, "ports"))...)
		out = append(out, validateProbes(c, p)...)
		out = append(out, validateResourceRequirements(&c.Resources, join(p, "resources"))...)
		switch c.RestartPolicy {
		case "", "Always", "OnFailure", "Never":
			// per-container restart policies: ContainerRestartRules (beta, on by default since 1.35)
		default:
			out = append(out, notSupported(join(p, "restartPolicy"), c.RestartPolicy, "Always", "Never", "OnFailure"))
		}
		if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.SleepSeconds != nil {
			// validateSleepAction with PodLifecycleSleepActionAllowZero (GA, 1.34).
			secs := *c.Lifecycle.PreStop.SleepSeconds
			if secs < 0 || secs > grace {
				e := invalid(join(p, "lifecycle.preStop.sleep"), secs,
					fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", grace)).
					withHint("raise terminationGracePeriodSeconds or shorten the sleep")
				e.at = join(p, "lifecycle.preStop.sleep.seconds")
				out = append(out, e)
			}
		}
		if g := c.ProbeTerminationGracePeriodSeconds; g != nil && *g <= 0 {
			out = append(out, invalid(join(p, "livenessProbe.terminationGracePeriodSeconds"), *g, "must be greater than 0"))
		}
	}
	return out
}

func validatePorts(ports []api.ContainerPort, path string) []fieldError {
	var out []fieldError
	for i, pt := range ports {
		p := index(path, i)
		if pt.ContainerPort == 0 {
			out = append(out, required(join(p, "containerPort"), ""))
		} else if pt.ContainerPort < 1 || pt.ContainerPort > 65535 {
			out = append(out, invalid(join(p, "containerPort"), pt.ContainerPort, "must be between 1 and 65535, inclusive"))
		}
		if pt.HostPort != 0 && (pt.HostPort < 1 || pt.HostPort > 65535) {
			out = append(out, invalid(join(p, "hostPort"), pt.HostPort, "must be between 1 and 65535, inclusive"))
		}
		switch pt.Protocol {
		case "", "TCP", "UDP", "SCTP":
		default:
			out = append(out, notSupported(join(p, "protocol"), pt.Protocol, "SCTP", "TCP", "UDP"))
		}
	}
	return out
}

// validateResourceRequirements is validateResourceRequirements: no
// negative quantities, requests at most limits.
func validateResourceRequirements(r *api.ResourceRequirements, path string) []fieldError {
	out := validateResourceList(r.Limits, join(path, "limits"))
	out = append(out, validateResourceList(r.Requests, join(path, "requests"))...)
	for _, name := range sortedKeys(r.Requests) {
		req := r.Requests[name]
		if lim, ok := r.Limits[name]; ok && req > lim {
			e := invalid(join(path, "requests"), formatQuantity(name, req),
				fmt.Sprintf("must be less than or equal to %s limit of %s", name, formatQuantity(name, lim)))
			e.at = keyed(join(path, "requests"), name)
			out = append(out, e)
		}
	}
	return out
}

func validateResourceList(rl api.ResourceList, path string) []fieldError {
	var out []fieldError
	for _, name := range sortedKeys(rl) {
		if rl[name] < 0 {
			out = append(out, invalid(keyed(path, name), formatQuantity(name, rl[name]), msgNegative))
		}
	}
	return out
}

// formatQuantity prints a quantity close to resource.Quantity.String():
// cpu in cores or millicores, other resources with the largest exact
// binary suffix, else the largest exact decimal one ("1G").
func formatQuantity(name string, q api.Quantity) string {
	if name == api.ResourceCPU || q%1000 != 0 {
		return api.FormatCPU(q)
	}
	v := int64(q) / 1000
	if v%1024 == 0 {
		return api.FormatBytes(q)
	}
	for _, s := range []struct {
		suffix string
		mult   int64
	}{{"E", 1e18}, {"P", 1e15}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if v != 0 && v%s.mult == 0 {
			return fmt.Sprintf("%d%s", v/s.mult, s.suffix)
		}
	}
	return fmt.Sprint(v)
}

func validatePreemptionPolicy(policy, path string) []fieldError {
	switch policy {
	case api.PreemptLowerPriority, api.PreemptNever:
		return nil
	case "":
		return []fieldError{required(path, "")}
	}
	return []fieldError{notSupported(path, policy, api.PreemptLowerPriority, api.PreemptNever)}
}

func validateSchedulingGates(gates []string, path string) []fieldError {
	var out []fieldError
	seen := map[string]bool{}
	for i, g := range gates {
		for _, msg := range qualifiedNameErrors(g) {
			out = append(out, invalid(index(path, i), g, msg))
		}
		if seen[g] {
			out = append(out, duplicate(index(path, i), g))
		}
		seen[g] = true
	}
	return out
}
