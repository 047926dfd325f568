package manifest

import (
	"strconv"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// annotationMemoryUsage is the lab's modelled memory use of a pod
// (engine/kubelet.AnnotationMemoryUsage).
const annotationMemoryUsage = "lab.podlab.dev/memory-usage"

// validateMemoryUsageAnnotation checks lab.podlab.dev/memory-usage on a
// pod or a pod template where the file says it (file:line:col): a
// quantity up to 1Pi or a percentage from 0% to 10000% of the request
// (else the limit), the bounds the `usage` command and the kubelet model
// keep (api.MaxUsagePercent, api.MaxMemoryUsage). 1e30% was accepted and
// wrapped round to a negative use.
func validateMemoryUsageAnnotation(ann map[string]string, path string) []fieldError {
	v, ok := ann[annotationMemoryUsage]
	if !ok {
		return nil
	}
	p := keyed(path, annotationMemoryUsage)
	hint := `give a quantity ("900Mi") or a percentage of the memory request ("120%")`
	if pct, isPct := strings.CutSuffix(strings.TrimSpace(v), "%"); isPct {
		if f, err := strconv.ParseFloat(pct, 64); err != nil || !(f >= 0 && f <= api.MaxUsagePercent) {
			return []fieldError{invalid(p, v, "not a percentage from 0% to 10000%").withHint(hint)}
		}
		return nil
	}
	q, err := api.ParseQuantity(strings.TrimSpace(v))
	if err != nil || q < 0 {
		return []fieldError{invalid(p, v, "not a non-negative quantity").withHint(hint)}
	}
	if q.Value() > api.MaxMemoryUsage {
		return []fieldError{invalid(p, v, "more than the lab models (at most 1Pi)").withHint(hint)}
	}
	return nil
}
