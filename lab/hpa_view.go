package lab

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
)

// HPARow is one line of `kubectl get hpa`, plus the conditions `kubectl
// describe hpa` shows; the UI and `podlab run` print it.
type HPARow struct {
	Namespace  string         `json:"namespace"`
	Name       string         `json:"name"`
	Reference  string         `json:"reference"`
	Targets    string         `json:"targets"`
	MinPods    int32          `json:"minPods"`
	MaxPods    int32          `json:"maxPods"`
	Replicas   int32          `json:"replicas"`
	Desired    int32          `json:"desired"`
	Age        string         `json:"age"`
	Conditions []HPACondition `json:"conditions"`
}

// HPACondition is one row of kubectl describe hpa's Conditions.
type HPACondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// HPARows lists the autoscalers as kubectl get hpa does, sorted by
// namespace/name.
func (s *Session) HPARows() []HPARow {
	var out []HPARow
	for _, h := range s.ctl.HPAs() {
		r := HPARow{Namespace: h.Namespace, Name: h.Name, Reference: h.TargetRef(), Targets: HPATargets(h),
			MinPods: *h.Spec.MinReplicas, MaxPods: h.Spec.MaxReplicas, Replicas: h.Status.CurrentReplicas,
			Desired: h.Status.DesiredReplicas, Age: kubectlAge(s.Now().Sub(h.CreationTimestamp))}
		for _, c := range h.Status.Conditions {
			r.Conditions = append(r.Conditions, HPACondition{c.Type, c.Status, c.Reason, c.Message})
		}
		out = append(out, r)
	}
	return out
}

// HPATargets is kubectl's TARGETS column (v1.36 printer): "cpu: 40%/50%"
// per metric, "<unknown>" for a metric the controller could not compute.
func HPATargets(h *controllers.HorizontalPodAutoscaler) string {
	var parts []string
	for i, m := range h.Spec.Metrics {
		if m.Resource == nil {
			continue
		}
		cur := "<unknown>"
		var st *controllers.MetricStatus
		if i < len(h.Status.CurrentMetrics) && h.Status.CurrentMetrics[i].Type != "" {
			st = &h.Status.CurrentMetrics[i]
		}
		t := m.Resource.Target
		var want string
		if t.AverageUtilization != nil && t.Type == api.UtilizationMetricType {
			want = strconv.Itoa(int(*t.AverageUtilization)) + "%"
			if st != nil && st.AverageUtilization != nil {
				cur = strconv.Itoa(int(*st.AverageUtilization)) + "%"
			}
		} else if t.AverageValue != nil {
			want = formatMetricQuantity(m.Resource.Name, *t.AverageValue)
			if st != nil && st.AverageValue != nil {
				cur = formatMetricQuantity(m.Resource.Name, *st.AverageValue)
			}
		}
		parts = append(parts, m.Resource.Name+": "+cur+"/"+want)
	}
	if len(parts) == 0 {
		return "<none>"
	}
	return strings.Join(parts, ", ")
}

func formatMetricQuantity(res string, q api.Quantity) string {
	if res == api.ResourceMemory {
		return api.HumanBytes(q)
	}
	return api.FormatCPU(q)
}

// kubectlAge is kubectl's AGE (duration.HumanDuration, coarse).
func kubectlAge(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d / time.Second)
	switch {
	case s < 120:
		return strconv.Itoa(s) + "s"
	case s < 600:
		if s%60 == 0 {
			return strconv.Itoa(s/60) + "m"
		}
		return fmt.Sprintf("%dm%ds", s/60, s%60)
	case s < 3*3600:
		return strconv.Itoa(s/60) + "m"
	}
	return strconv.Itoa(s/3600) + "h"
}

// writeHPATable prints rows as kubectl get hpa, then each one's
// conditions as kubectl describe hpa does.
func writeHPATable(w io.Writer, rows []HPARow, indent string) {
	fmt.Fprintf(w, "%s%-16s %-22s %-24s %-8s %-8s %-9s %s\n", indent, "NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE")
	for _, r := range rows {
		fmt.Fprintf(w, "%s%-16s %-22s %-24s %-8d %-8d %-9d %s\n", indent, r.Name, r.Reference, r.Targets, r.MinPods, r.MaxPods, r.Replicas, r.Age)
	}
	for _, r := range rows {
		if len(r.Conditions) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s%s conditions:\n", indent, r.Name)
		fmt.Fprintf(w, "%s  %-15s %-6s %-28s %s\n", indent, "TYPE", "STATUS", "REASON", "MESSAGE")
		for _, c := range r.Conditions {
			fmt.Fprintf(w, "%s  %-15s %-6s %-28s %s\n", indent, c.Type, c.Status, c.Reason, c.Message)
		}
	}
}

// HPAOf returns the row of the autoscaler whose target is the workload
// (command-language kind: "deployment", "statefulset", "replicaset"), for
// a workload panel's "autoscaled 3–12 · cpu: 40%/50%" line.
func (s *Session) HPAOf(kind, namespace, name string) (HPARow, bool) {
	want := controllerKind(kind)
	for _, r := range s.HPARows() {
		h := s.ctl.HPA(r.Namespace, r.Name)
		if h != nil && r.Namespace == namespace && h.Spec.ScaleTargetRef.Kind == want && h.Spec.ScaleTargetRef.Name == name {
			return r, true
		}
	}
	return HPARow{}, false
}
