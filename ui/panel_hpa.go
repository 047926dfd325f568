package ui

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/lab"
)

// hpaLines is the selected workload's HorizontalPodAutoscaler in one line
// (lab.Session.HPAOf), drawn above its spread: "hpa/web: 3 → 6 of 3–12 ·
// cpu: 80%/50%" (replicas → desired of min–max, the targets), then each
// condition that holds the scaling back with its reason. Nothing when no
// HPA targets the workload. The box around the panel cuts what is wider
// than it.
func (v *clusterView) hpaLines() []string {
	m := v.m
	wl, ok := m.selectedWorkload()
	if !ok || wl.Bare() {
		return nil
	}
	r, ok := m.sess.HPAOf(wl.Kind, wl.Namespace, wl.Name)
	if !ok {
		return nil
	}
	// short enough for the 80-column panel: replicas (→ desired) of the
	// range, then the targets
	line := fmt.Sprintf("hpa/%s: %d", safe(r.Name), r.Replicas)
	if r.Desired != r.Replicas {
		line += fmt.Sprintf(" → %d", r.Desired)
	}
	line += fmt.Sprintf(" of %d–%d · %s", r.MinPods, r.MaxPods, safe(r.Targets))
	out := []string{m.st.Accent.Render(line)}
	for _, c := range r.Conditions {
		if holdsBack(c) {
			out = append(out, m.st.Warn.Render("  "+safe(c.Type)+": "+safe(c.Reason)+" — "+safe(strings.TrimSpace(c.Message))))
		}
	}
	return out
}

// holdsBack reports a condition that keeps the HPA from following its
// metrics (kubectl describe hpa's conditions): ScalingLimited True (the
// desired count was clamped to min/max or by a rate policy), AbleToScale
// or ScalingActive False (backoff, no scale target, no metrics).
func holdsBack(c lab.HPACondition) bool {
	if c.Type == "ScalingLimited" {
		return c.Status == "True"
	}
	return c.Status == "False"
}
