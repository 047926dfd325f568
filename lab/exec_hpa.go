package lab

import (
	"fmt"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/lab/command"
)

// autoscale is kubectl autoscale: an autoscaling/v2 HPA named after the
// target (or --name), cpu utilization when --cpu-percent is given.
func (s *Session) autoscale(c command.Autoscale) (string, error) {
	ns, name, err := s.resolve(c.Kind, c.Name)
	if err != nil {
		return "", err
	}
	hpaName := c.HPAName
	if hpaName == "" {
		hpaName = name
	}
	if s.ctl.HPA(ns, hpaName) != nil {
		return "", fmt.Errorf(`horizontalpodautoscalers.autoscaling %q already exists`, hpaName)
	}
	h := &api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: hpaName, Namespace: ns},
		Spec: api.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: api.CrossVersionObjectReference{Kind: controllerKind(c.Kind), Name: name, APIVersion: "apps/v1"},
			MaxReplicas:    c.Max,
		}}
	if c.Min > 0 {
		m := c.Min
		h.Spec.MinReplicas = &m
	}
	if c.CPUPercent > 0 {
		p := c.CPUPercent
		h.Spec.Metrics = []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{
			Name: api.ResourceCPU, Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: &p}}}}
	}
	if err := s.ctl.Do(func(m *controllers.Manager) error { _, e := m.AddHPA(h); return e }); err != nil {
		return "", err
	}
	return fmt.Sprintf("horizontalpodautoscaler.autoscaling/%s autoscaled", hpaName), nil
}

// applyHPA creates an HPA or replaces the spec of an existing one (kubectl
// apply).
func (s *Session) applyHPA(h *api.HorizontalPodAutoscaler) (string, error) {
	what := "horizontalpodautoscaler.autoscaling/" + h.Name
	if s.ctl.HPA(h.Namespace, h.Name) != nil {
		return what + " configured", s.ctl.Do(func(m *controllers.Manager) error { return m.UpdateHPA(h) })
	}
	return what + " created", s.ctl.Do(func(m *controllers.Manager) error { _, e := m.AddHPA(h); return e })
}

// usageCPU is `usage … cpu=`: a pod's own cpu use, or a workload's load
// (now, or from a virtual time on).
func (s *Session) usageCPU(c command.Usage) (string, error) {
	ns, name, err := s.resolve(c.Kind, c.Name)
	if err != nil {
		return "", err
	}
	if c.Kind == "pod" {
		p := s.eng.Pod(ns + "/" + name)
		if p == nil {
			return "", fmt.Errorf("unknown pod %q", name)
		}
		milli, err := controllers.ParseCPUUsage(p, c.CPU)
		if err != nil {
			return "", fmt.Errorf("usage pod/%s: %w", name, err)
		}
		s.ctl.SetPodCPU(p, milli)
		return fmt.Sprintf("pod/%s cpu usage %s", name, api.FormatCPU(api.Milli(milli))), nil
	}
	step := controllers.LoadStep{At: s.Now()}
	if c.At != nil {
		step.At = api.Time(*c.At)
	}
	if strings.HasSuffix(c.CPU, "%") {
		var f float64
		if _, err := fmt.Sscanf(strings.TrimSuffix(c.CPU, "%"), "%g", &f); err != nil {
			return "", fmt.Errorf("usage %s/%s: cpu %q: give a percentage like 80%%", c.Kind, name, c.CPU)
		}
		step.Percent = f
		if f == 0 {
			step.Percent, step.MilliCPU = 0, 0
		}
	} else {
		q, err := api.ParseQuantity(c.CPU)
		if err != nil || q < 0 {
			return "", fmt.Errorf("usage %s/%s: cpu %q: give a quantity (2, 800m) or a percentage (80%%)", c.Kind, name, c.CPU)
		}
		if q.MilliValue() > api.MaxCPUUsage || q.MilliValue() < 0 {
			return "", fmt.Errorf("usage %s/%s: cpu %q is more than the lab models", c.Kind, name, c.CPU)
		}
		step.MilliCPU = q.MilliValue()
	}
	if err := s.ctl.Do(func(m *controllers.Manager) error { return m.SetLoad(controllerKind(c.Kind), ns, name, step) }); err != nil {
		return "", err
	}
	when := "from now on"
	if c.At != nil && step.At > s.Now() {
		when = "from " + formatAt(step.At)
	}
	if step.Percent > 0 {
		return fmt.Sprintf("%s/%s cpu load %s of its pods' requests %s, shared by its ready pods", c.Kind, name, c.CPU, when), nil
	}
	return fmt.Sprintf("%s/%s cpu load %s %s, shared by its ready pods", c.Kind, name, api.FormatCPU(api.Milli(step.MilliCPU)), when), nil
}

// formatAt prints a virtual time as people type it ("2m", "1h30m").
func formatAt(t api.Time) string {
	s := time.Duration(t).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
