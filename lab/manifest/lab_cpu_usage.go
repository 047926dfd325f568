package manifest

import (
	"strconv"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// annotationCPUUsage is the lab's modelled cpu use of a pod
// (engine/controllers.AnnotationCPUUsage; this package may not import the
// controllers).
const annotationCPUUsage = "lab.podlab.dev/cpu-usage"

// validateCPUUsageAnnotation checks lab.podlab.dev/cpu-usage on a pod or a
// pod template: a quantity ("250m", "1.5") or a percentage of the cpu
// request ("80%"). A bad value would otherwise leave the pod without a
// cpu sample, which the HPA reports as missing metrics.
func validateCPUUsageAnnotation(ann map[string]string, path string) []fieldError {
	v, ok := ann[annotationCPUUsage]
	if !ok {
		return nil
	}
	p := keyed(path, annotationCPUUsage)
	hint := `give a quantity ("250m", "1.5") or a percentage of the cpu request ("80%")`
	if pct, isPct := strings.CutSuffix(strings.TrimSpace(v), "%"); isPct {
		if f, err := strconv.ParseFloat(pct, 64); err != nil || !(f >= 0 && f <= api.MaxUsagePercent) { // NaN too
			return []fieldError{invalid(p, v, "not a percentage from 0% to 10000%").withHint(hint)}
		}
		return nil
	}
	if q, err := api.ParseQuantity(strings.TrimSpace(v)); err != nil || q < 0 {
		return []fieldError{invalid(p, v, "not a non-negative quantity").withHint(hint)}
	}
	if q, _ := api.ParseQuantity(strings.TrimSpace(v)); q.MilliValue() > api.MaxCPUUsage || q.MilliValue() < 0 {
		return []fieldError{invalid(p, v, "more than the lab models").withHint(hint)}
	}
	return nil
}
