package ui

import (
	"fmt"
	"strings"
)

// hpaLines is the selected workload's HorizontalPodAutoscaler in one line
// (lab.Session.HPAOf), drawn above its spread: "autoscaled by hpa/web
// 3–12 · cpu: 80%/50% · 3 → 6 replicas", and a condition that holds the
// scaling back (ScalingLimited True, AbleToScale or ScalingActive False)
// with its reason. Nothing when no HPA targets the workload. The box
// around the panel cuts what is wider than it.
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
	line := fmt.Sprintf("autoscaled by hpa/%s %d–%d · %s · %d", safe(r.Name), r.MinPods, r.MaxPods, safe(r.Targets), r.Replicas)
	if r.Desired != r.Replicas {
		line += fmt.Sprintf(" → %d", r.Desired)
	}
	line += " replicas"
	out := []string{m.st.Accent.Render(line)}
	for _, c := range r.Conditions {
		held := (c.Type == "ScalingLimited" && c.Status == "True") || (c.Type != "ScalingLimited" && c.Status == "False")
		if held {
			out = append(out, m.st.Warn.Render("  "+safe(c.Type)+": "+safe(c.Reason)+" — "+safe(strings.TrimSpace(c.Message))))
		}
	}
	return out
}
