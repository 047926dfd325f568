package manifest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// HighestUserDefinablePriority is scheduling.HighestUserDefinablePriority.
const HighestUserDefinablePriority = 1000000000

// validatePriorityClass is ValidatePriorityClass of
// pkg/apis/scheduling/validation.
func validatePriorityClass(pc *api.PriorityClass) []fieldError {
	var out []fieldError
	if strings.HasPrefix(pc.Name, "system-") {
		if err := knownSystemClass(pc); err != "" {
			out = append(out, forbidden("metadata.name", "priority class names with 'system-' prefix are reserved for system use only. error: "+err))
		}
	} else if pc.Value > HighestUserDefinablePriority {
		out = append(out, forbidden("value", fmt.Sprintf("maximum allowed value of a user defined priority is %d", HighestUserDefinablePriority)).
			withHint("values above 1000000000 are reserved for system-cluster-critical and system-node-critical"))
	}
	if pc.PreemptionPolicy != nil {
		out = append(out, validatePreemptionPolicy(*pc.PreemptionPolicy, "preemptionPolicy")...)
	}
	return out
}

// knownSystemClass is schedulingapiv1.IsKnownSystemPriorityClass.
func knownSystemClass(pc *api.PriorityClass) string {
	want := map[string]int32{
		api.SystemClusterCritical: api.SystemCriticalPriority,
		api.SystemNodeCritical:    api.SystemCriticalPriority + 1000,
	}
	v, ok := want[pc.Name]
	switch {
	case !ok:
		return fmt.Sprintf("%v is not a known system priority class", pc.Name)
	case pc.Value != v:
		return fmt.Sprintf("value of %v PriorityClass must be %v", pc.Name, v)
	case pc.GlobalDefault:
		return fmt.Sprintf("globalDefault of %v PriorityClass must be false", pc.Name)
	}
	return ""
}

// validatePDBSpec is ValidatePodDisruptionBudgetSpec of
// pkg/apis/policy/validation.
func validatePDBSpec(s *api.PDBSpec, path string) []fieldError {
	var out []fieldError
	if s.MinAvailable != nil && s.MaxUnavailable != nil {
		// upstream prints the internal spec type (no JSON tags)
		spec := struct {
			MinAvailable               any
			Selector                   any
			MaxUnavailable             any
			UnhealthyPodEvictionPolicy *string
		}{intOrStringJSON(s.MinAvailable), nil, intOrStringJSON(s.MaxUnavailable), s.UnhealthyPodEvictionPolicy}
		if s.Selector != nil {
			spec.Selector = internalSelector(s.Selector)
		}
		out = append(out, invalid(path, spec, "minAvailable and maxUnavailable cannot be both set").
			withHint("a PodDisruptionBudget takes one of them"))
	}
	if s.MinAvailable != nil {
		out = append(out, validateIntOrPercent(*s.MinAvailable, join(path, "minAvailable"), true)...)
	}
	if s.MaxUnavailable != nil {
		out = append(out, validateIntOrPercent(*s.MaxUnavailable, join(path, "maxUnavailable"), true)...)
	}
	out = append(out, validateLabelSelector(s.Selector, join(path, "selector"))...)
	if p := s.UnhealthyPodEvictionPolicy; p != nil && *p != "AlwaysAllow" && *p != "IfHealthyBudget" {
		out = append(out, notSupported(join(path, "unhealthyPodEvictionPolicy"), *p, "AlwaysAllow", "IfHealthyBudget"))
	}
	return out
}

// validateIntOrPercent is apps ValidatePositiveIntOrPercent (non-negative
// integers or "N%") plus, with max100, IsNotMoreThan100Percent.
func validateIntOrPercent(v api.IntOrString, path string, max100 bool) []fieldError {
	if !v.IsString {
		return nonNegative(path, int64(v.IntVal))
	}
	pct, ok := parsePercent(v.StrVal)
	if !ok {
		return []fieldError{invalid(path, v.StrVal, regexError("a valid percent string must be a numeric string followed by an ending '%'", "[0-9]+%", "1%", "93%"))}
	}
	if max100 && pct > 100 {
		return []fieldError{invalid(path, v.StrVal, "must not be greater than 100%")}
	}
	return nil
}

func parsePercent(s string) (int, bool) {
	if !strings.HasSuffix(s, "%") || len(s) < 2 {
		return 0, false
	}
	digits := s[:len(s)-1]
	for _, r := range digits {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}

// internalSelector renders a selector as metav1.LabelSelector's JSON.
func internalSelector(s *api.LabelSelector) any { return json.RawMessage(renderValue(s)) }
