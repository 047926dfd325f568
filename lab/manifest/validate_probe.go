package manifest

import "podlab.dev/podlab/engine/api"

// validateProbes is validateProbe / validateLivenessProbe /
// validateStartupProbe (pkg/apis/core/validation): timing fields are not
// negative, a probe-level terminationGracePeriodSeconds is positive, and
// liveness and startup probes need successThreshold 1.
func validateProbes(c *api.Container, path string) []fieldError {
	var out []fieldError
	for _, pr := range []struct {
		field    string
		probe    *api.Probe
		mustOne  bool
		hasGrace bool
	}{
		{"startupProbe", c.StartupProbe, true, true},
		{"readinessProbe", c.ReadinessProbe, false, false},
		{"livenessProbe", c.LivenessProbe, true, true},
	} {
		if pr.probe == nil {
			continue
		}
		p := join(path, pr.field)
		out = append(out, nonNegative(join(p, "initialDelaySeconds"), int64(pr.probe.InitialDelaySeconds))...)
		out = append(out, nonNegative(join(p, "timeoutSeconds"), int64(pr.probe.TimeoutSeconds))...)
		out = append(out, nonNegative(join(p, "periodSeconds"), int64(pr.probe.PeriodSeconds))...)
		out = append(out, nonNegative(join(p, "successThreshold"), int64(pr.probe.SuccessThreshold))...)
		out = append(out, nonNegative(join(p, "failureThreshold"), int64(pr.probe.FailureThreshold))...)
		if pr.mustOne && pr.probe.SuccessThreshold > 1 {
			out = append(out, invalid(join(p, "successThreshold"), pr.probe.SuccessThreshold, "must be 1").
				withHint("a "+pr.field+" succeeds once; only readiness probes take a higher successThreshold"))
		}
		// the liveness probe's positive grace is checked with the
		// container (validate_pod.go); a startup probe's likewise here
		if g := pr.probe.TerminationGracePeriodSeconds; g != nil {
			switch {
			case !pr.hasGrace:
				out = append(out, invalid(join(p, "terminationGracePeriodSeconds"), *g, "must not be set for readinessProbes"))
			case pr.field == "startupProbe" && *g <= 0:
				out = append(out, invalid(join(p, "terminationGracePeriodSeconds"), *g, "must be greater than 0"))
			}
		}
	}
	return out
}
