package manifest

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// Validation of tolerations, taints, affinity, selectors and topology
// spread constraints, after pkg/apis/core/validation/validation.go
// (ValidateTolerations, validateNodeTaints, validateAffinity,
// validateTopologySpreadConstraints) and apimachinery's
// ValidateLabelSelector.

func validateTaintEffect(effect, path string, allowEmpty bool) []fieldError {
	switch effect {
	case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		return nil
	case "":
		if allowEmpty {
			return nil
		}
		return []fieldError{required(path, "")}
	}
	return []fieldError{notSupported(path, effect, api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute)}
}

func validateTaints(taints []api.Taint, path string) []fieldError {
	var out []fieldError
	seen := map[string]bool{}
	for i, t := range taints {
		p := index(path, i)
		out = append(out, validateLabelName(join(p, "key"), t.Key)...)
		if msgs := labelValueErrors(t.Value); len(msgs) > 0 {
			out = append(out, invalid(join(p, "value"), t.Value, strings.Join(msgs, ";")))
		}
		out = append(out, validateTaintEffect(t.Effect, join(p, "effect"), false)...)
		if seen[t.Effect+"\x00"+t.Key] {
			e := duplicate(p, taintJSON(t))
			e.msg += ": taints must be unique by key and effect pair"
			out = append(out, e)
			continue
		}
		seen[t.Effect+"\x00"+t.Key] = true
	}
	return out
}

// taintJSON renders a taint as upstream's message does: the internal
// core.Taint has no JSON tags, so its Go field names show.
func taintJSON(t api.Taint) any {
	return struct {
		Key, Value, Effect string
		TimeAdded          *string
	}{Key: t.Key, Value: t.Value, Effect: t.Effect}
}

func validateTolerations(ts []api.Toleration, path string) []fieldError {
	var out []fieldError
	for i, t := range ts {
		p := index(path, i)
		if t.Key != "" {
			out = append(out, validateLabelName(join(p, "key"), t.Key)...)
		}
		if t.Key == "" && t.Operator != api.TolerationOpExists {
			out = append(out, invalid(join(p, "operator"), t.Operator,
				"operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			out = append(out, invalid(join(p, "effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case api.TolerationOpEqual, "":
			if msgs := labelValueErrors(t.Value); len(msgs) > 0 {
				out = append(out, invalid(join(p, "operator"), t.Value, strings.Join(msgs, ";")))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				out = append(out, invalid(join(p, "operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			// Lt and Gt exist behind TaintTolerationComparisonOperators (off).
			out = append(out, notSupported(join(p, "operator"), t.Operator, api.TolerationOpEqual, api.TolerationOpExists, "Lt", "Gt"))
		}
		if t.Effect != "" {
			out = append(out, validateTaintEffect(t.Effect, join(p, "effect"), true)...)
		}
	}
	return out
}

// validateLabelSelector is metav1validation.ValidateLabelSelector.
func validateLabelSelector(s *api.LabelSelector, path string) []fieldError {
	if s == nil {
		return nil
	}
	out := validateLabels(join(path, "matchLabels"), s.MatchLabels)
	for i, r := range s.MatchExpressions {
		p := index(join(path, "matchExpressions"), i)
		switch r.Operator {
		case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
			if len(r.Values) == 0 {
				out = append(out, required(join(p, "values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
			if len(r.Values) > 0 {
				out = append(out, forbidden(join(p, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			out = append(out, invalid(join(p, "operator"), r.Operator, "not a valid selector operator").
				withHint("use In, NotIn, Exists or DoesNotExist"))
		}
		out = append(out, validateLabelName(join(p, "key"), r.Key)...)
		for j, v := range r.Values {
			out = append(out, validateLabelValue(index(join(p, "values"), j), v)...)
		}
	}
	return out
}

// validateNodeSelectorRequirement is ValidateNodeSelectorRequirement.
func validateNodeSelectorRequirement(r api.NodeSelectorRequirement, path string, checkValues bool) []fieldError {
	var out []fieldError
	switch r.Operator {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if len(r.Values) == 0 {
			out = append(out, required(join(path, "values"), "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			out = append(out, forbidden(join(path, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if len(r.Values) != 1 {
			out = append(out, required(join(path, "values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
		}
	default:
		out = append(out, invalid(join(path, "operator"), r.Operator, "not a valid selector operator").
			withHint("use In, NotIn, Exists, DoesNotExist, Gt or Lt"))
	}
	out = append(out, validateLabelName(join(path, "key"), r.Key)...)
	if checkValues {
		for i, v := range r.Values {
			out = append(out, validateLabelValue(index(join(path, "values"), i), v)...)
		}
	}
	return out
}

// validateNodeFieldSelectorRequirement is ValidateNodeFieldSelectorRequirement:
// only metadata.name, with In/NotIn and one value.
func validateNodeFieldSelectorRequirement(r api.NodeSelectorRequirement, path string) []fieldError {
	var out []fieldError
	switch r.Operator {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if len(r.Values) != 1 {
			out = append(out, required(join(path, "values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
		}
	default:
		out = append(out, invalid(join(path, "operator"), r.Operator, "not a valid selector operator"))
	}
	if r.Key != "metadata.name" {
		out = append(out, invalid(join(path, "key"), r.Key, "not a valid field selector key"))
	}
	return out
}

func validateNodeSelectorTerm(t api.NodeSelectorTerm, path string, checkValues bool) []fieldError {
	var out []fieldError
	for i, r := range t.MatchExpressions {
		out = append(out, validateNodeSelectorRequirement(r, index(join(path, "matchExpressions"), i), checkValues)...)
	}
	for i, r := range t.MatchFields {
		out = append(out, validateNodeFieldSelectorRequirement(r, index(join(path, "matchFields"), i))...)
	}
	return out
}

func validateAffinity(a *api.Affinity, path string, labels map[string]string) []fieldError {
	if a == nil {
		return nil
	}
	var out []fieldError
	if na := a.NodeAffinity; na != nil {
		p := join(path, "nodeAffinity")
		if req := na.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
			rp := join(join(p, "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms")
			if len(req.NodeSelectorTerms) == 0 {
				out = append(out, required(rp, "must have at least one node selector term"))
			}
			for i, t := range req.NodeSelectorTerms {
				out = append(out, validateNodeSelectorTerm(t, index(rp, i), true)...)
			}
		}
		pp := join(p, "preferredDuringSchedulingIgnoredDuringExecution")
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			if t.Weight <= 0 || t.Weight > 100 {
				out = append(out, invalid(join(index(pp, i), "weight"), t.Weight, "must be in the range 1-100"))
			}
			// preferred terms may use invalid label values (upstream allows it)
			out = append(out, validateNodeSelectorTerm(t.Preference, join(index(pp, i), "preference"), false)...)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		out = append(out, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, join(path, "podAffinity"), labels)...)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		out = append(out, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, join(path, "podAntiAffinity"), labels)...)
	}
	return out
}

func validatePodAffinityTerms(req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm, path string, labels map[string]string) []fieldError {
	var out []fieldError
	for i, t := range req {
		out = append(out, validatePodAffinityTerm(t, index(join(path, "requiredDuringSchedulingIgnoredDuringExecution"), i), labels)...)
	}
	for i, w := range pref {
		p := index(join(path, "preferredDuringSchedulingIgnoredDuringExecution"), i)
		if w.Weight <= 0 || w.Weight > 100 {
			out = append(out, invalid(join(p, "weight"), w.Weight, "must be in the range 1-100"))
		}
		out = append(out, validatePodAffinityTerm(w.PodAffinityTerm, join(p, "podAffinityTerm"), labels)...)
	}
	return out
}

// validatePodAffinityTerm is validatePodAffinityTerm.
func validatePodAffinityTerm(t api.PodAffinityTerm, path string, labels map[string]string) []fieldError {
	out := validateLabelSelector(t.LabelSelector, join(path, "labelSelector"))
	out = append(out, validateLabelSelector(t.NamespaceSelector, join(path, "namespaceSelector"))...)
	for _, ns := range t.Namespaces {
		for _, msg := range dnsLabelErrors(ns) {
			out = append(out, invalid(join(path, "namespace"), ns, msg))
		}
	}
	out = append(out, validateMergedLabelKeys(path, t.MatchLabelKeys, t.MismatchLabelKeys, t.LabelSelector, labels)...)
	if t.TopologyKey == "" {
		out = append(out, required(join(path, "topologyKey"), "can not be empty").withHint("e.g. topologyKey: kubernetes.io/hostname"))
	}
	return append(out, validateLabelName(join(path, "topologyKey"), t.TopologyKey)...)
}

// validateMergedLabelKeys is ValidateMatchLabelKeysAndMismatchLabelKeys run,
// as the API server runs it, on the selector after PrepareForCreate merged
// the pod's values for matchLabelKeys (In) and mismatchLabelKeys (NotIn)
// into it: a matchLabelKeys key the pod carries may not already be in the
// labelSelector, and no key may be in both lists. Its quirks are kept: the
// duplicate is reported at path[i], and a key the pod lacks is not merged,
// so it is not a duplicate.
func validateMergedLabelKeys(path string, matchKeys, mismatchKeys []string, sel *api.LabelSelector, labels map[string]string) []fieldError {
	out := validateLabelKeys(join(path, "matchLabelKeys"), matchKeys, sel)
	out = append(out, validateLabelKeys(join(path, "mismatchLabelKeys"), mismatchKeys, sel)...)
	if sel != nil {
		exprKeys := make([]string, 0, len(sel.MatchExpressions)+len(matchKeys)+len(mismatchKeys))
		for _, r := range sel.MatchExpressions {
			exprKeys = append(exprKeys, r.Key)
		}
		for _, keys := range [][]string{matchKeys, mismatchKeys} {
			for _, k := range keys {
				if _, ok := labels[k]; ok {
					exprKeys = append(exprKeys, k)
				}
			}
		}
		matchIndex := map[string]int{}
		for i, k := range matchKeys {
			matchIndex[k] = i
		}
		seen := map[string]bool{}
		for k := range sel.MatchLabels {
			seen[k] = true
		}
		for _, k := range exprKeys {
			if i, ok := matchIndex[k]; ok && seen[k] {
				e := invalid(index(path, i), k, "exists in both matchLabelKeys and labelSelector").
					withHint("the pod's value for a matchLabelKeys key is added to labelSelector; drop the key from one of them")
				e.at = index(join(path, "matchLabelKeys"), i)
				out = append(out, e)
			}
			seen[k] = true
		}
	}
	mismatch := map[string]bool{}
	for _, k := range mismatchKeys {
		mismatch[k] = true
	}
	for i, k := range matchKeys {
		if mismatch[k] {
			out = append(out, invalid(index(join(path, "matchLabelKeys"), i), k, "exists in both matchLabelKeys and mismatchLabelKeys"))
		}
	}
	return out
}

func validateLabelKeys(path string, keys []string, sel *api.LabelSelector) []fieldError {
	if len(keys) == 0 {
		return nil
	}
	if sel == nil {
		return []fieldError{forbidden(path, "must not be specified when labelSelector is not set")}
	}
	var out []fieldError
	for i, k := range keys {
		out = append(out, validateLabelName(index(path, i), k)...)
	}
	return out
}

// validateSpreadConstraints is validateTopologySpreadConstraints as it
// runs on a create in 1.36 (MatchLabelKeysInPodTopologySpreadSelectorMerge,
// beta and on): matchLabelKeys are checked by
// ValidateMatchLabelKeysAndMismatchLabelKeys after the merge.
func validateSpreadConstraints(cs []api.TopologySpreadConstraint, path string, labels map[string]string) []fieldError {
	var out []fieldError
	for i, c := range cs {
		p := index(path, i)
		out = append(out, positive(join(p, "maxSkew"), int64(c.MaxSkew))...)
		if c.TopologyKey == "" {
			out = append(out, required(join(p, "topologyKey"), "can not be empty").withHint("e.g. topologyKey: topology.kubernetes.io/zone"))
		}
		switch c.WhenUnsatisfiable {
		case api.DoNotSchedule, api.ScheduleAnyway:
		default:
			out = append(out, notSupported(join(p, "whenUnsatisfiable"), c.WhenUnsatisfiable, api.DoNotSchedule, api.ScheduleAnyway))
		}
		for _, rest := range cs[i+1:] {
			if c.TopologyKey == rest.TopologyKey && c.WhenUnsatisfiable == rest.WhenUnsatisfiable {
				e := duplicate(join(p, "{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable))
				e.at = p
				out = append(out, e.withHint("merge the two constraints or give them different topologyKeys"))
				break
			}
		}
		if c.MinDomains != nil {
			out = append(out, positive(join(p, "minDomains"), int64(*c.MinDomains))...)
			if c.WhenUnsatisfiable != api.DoNotSchedule {
				out = append(out, invalid(join(p, "minDomains"), *c.MinDomains,
					fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", api.DoNotSchedule, c.WhenUnsatisfiable)))
			}
		}
		for _, pol := range []struct {
			name string
			v    *string
		}{{"nodeAffinityPolicy", c.NodeAffinityPolicy}, {"nodeTaintsPolicy", c.NodeTaintsPolicy}} {
			if pol.v != nil && *pol.v != api.PolicyHonor && *pol.v != api.PolicyIgnore {
				out = append(out, notSupported(join(p, pol.name), *pol.v, api.PolicyHonor, api.PolicyIgnore))
			}
		}
		out = append(out, validateMergedLabelKeys(p, c.MatchLabelKeys, nil, c.LabelSelector, labels)...)
		out = append(out, validateLabelSelector(c.LabelSelector, join(p, "labelSelector"))...)
	}
	return out
}
