package manifest

import (
	"podlab.dev/podlab/engine/api"
)

// validateHPASpec is pkg/apis/autoscaling/validation
// validateHorizontalPodAutoscalerSpec for what the lab decodes (messages as
// upstream; HPAScaleToZero is off in v1.36, so minReplicas ≥ 1).
func validateHPASpec(s *api.HorizontalPodAutoscalerSpec, path string) []fieldError {
	var out []fieldError
	ref := join(path, "scaleTargetRef")
	if s.ScaleTargetRef.Kind == "" {
		out = append(out, required(join(ref, "kind"), "").withHint("Deployment, StatefulSet or ReplicaSet"))
	}
	if s.ScaleTargetRef.Name == "" {
		out = append(out, required(join(ref, "name"), ""))
	}
	if s.MinReplicas != nil && *s.MinReplicas < 1 {
		out = append(out, invalid(join(path, "minReplicas"), *s.MinReplicas, "must be greater than or equal to 1"))
	}
	if s.MaxReplicas < 1 {
		out = append(out, invalid(join(path, "maxReplicas"), s.MaxReplicas, "must be greater than 0").withHint("set maxReplicas"))
	} else if s.MinReplicas != nil && s.MaxReplicas < *s.MinReplicas {
		out = append(out, invalid(join(path, "maxReplicas"), s.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	for i, m := range s.Metrics {
		p := index(join(path, "metrics"), i)
		if m.Type == "" {
			out = append(out, required(join(p, "type"), "must specify a metric source type"))
			continue
		}
		if m.Type != api.ResourceMetricSourceType {
			out = append(out, notSupported(join(p, "type"), m.Type, "ContainerResource", "External", "Object", "Pods", "Resource"))
			continue
		}
		if m.Resource == nil {
			out = append(out, required(join(p, "resource"), "must populate information for the given metric source"))
			continue
		}
		rp := join(p, "resource")
		if m.Resource.Name == "" {
			out = append(out, required(join(rp, "name"), "must specify a resource name"))
		}
		out = append(out, validateMetricTarget(m.Resource.Target, join(rp, "target"))...)
	}
	if b := s.Behavior; b != nil {
		out = append(out, validateScalingRules(b.ScaleUp, join(join(path, "behavior"), "scaleUp"))...)
		out = append(out, validateScalingRules(b.ScaleDown, join(join(path, "behavior"), "scaleDown"))...)
	}
	return out
}

// validateMetricTarget is validateMetricTarget plus validateResourceSource's
// rule that a Resource metric has exactly one of averageUtilization and
// averageValue.
func validateMetricTarget(t api.MetricTarget, path string) []fieldError {
	var out []fieldError
	switch t.Type {
	case "":
		out = append(out, required(join(path, "type"), "must specify a metric target type"))
	case api.UtilizationMetricType, api.AverageValueMetricType, "Value":
	default:
		out = append(out, invalid(join(path, "type"), t.Type, "must be either Utilization, Value, or AverageValue"))
	}
	if t.AverageValue != nil && *t.AverageValue <= 0 {
		out = append(out, invalid(join(path, "averageValue"), api.FormatCPU(*t.AverageValue), "must be positive"))
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		out = append(out, invalid(join(path, "averageUtilization"), *t.AverageUtilization, "must be greater than 0"))
	}
	if t.AverageUtilization == nil && t.AverageValue == nil {
		out = append(out, required(join(path, "averageUtilization"), "must set either a target raw value or a target utilization").
			withHint("e.g. type: Utilization with averageUtilization: 50"))
	}
	if t.AverageUtilization != nil && t.AverageValue != nil {
		out = append(out, forbidden(join(path, "averageValue"), "may not set both a target raw value and a target utilization"))
	}
	if t.Type == api.UtilizationMetricType && t.AverageUtilization == nil && t.AverageValue != nil {
		out = append(out, required(join(path, "averageUtilization"), "type Utilization takes averageUtilization").withHint("or use type: AverageValue"))
	}
	return out
}

// validateScalingRules is validateScalingRules (v1.36 limits:
// stabilization at most one hour, periods at most 30 minutes).
func validateScalingRules(r *api.HPAScalingRules, path string) []fieldError {
	if r == nil {
		return nil
	}
	var out []fieldError
	if w := r.StabilizationWindowSeconds; w != nil {
		if *w < 0 {
			out = append(out, invalid(join(path, "stabilizationWindowSeconds"), *w, "must be greater than or equal to zero"))
		} else if *w > 3600 {
			out = append(out, invalid(join(path, "stabilizationWindowSeconds"), *w, "must be less than or equal to 3600"))
		}
	}
	if sp := r.SelectPolicy; sp != nil && *sp != api.MaxChangePolicySelect && *sp != api.MinChangePolicySelect && *sp != api.DisabledPolicySelect {
		out = append(out, notSupported(join(path, "selectPolicy"), *sp, api.DisabledPolicySelect, api.MaxChangePolicySelect, api.MinChangePolicySelect))
	}
	if r.Policies != nil && len(r.Policies) == 0 {
		out = append(out, required(join(path, "policies"), "must specify at least one Policy"))
	}
	for i, p := range r.Policies {
		pp := index(join(path, "policies"), i)
		if p.Type != api.PodsScalingPolicy && p.Type != api.PercentScalingPolicy {
			out = append(out, notSupported(join(pp, "type"), p.Type, api.PercentScalingPolicy, api.PodsScalingPolicy))
		}
		if p.Value <= 0 {
			out = append(out, invalid(join(pp, "value"), p.Value, "must be greater than zero"))
		}
		if p.PeriodSeconds <= 0 {
			out = append(out, invalid(join(pp, "periodSeconds"), p.PeriodSeconds, "must be greater than zero"))
		} else if p.PeriodSeconds > 1800 {
			out = append(out, invalid(join(pp, "periodSeconds"), p.PeriodSeconds, "must be less than or equal to 1800"))
		}
	}
	return out
}
