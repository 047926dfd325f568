package manifest

import (
	"fmt"

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
			out = append(out, invalid(join(p, "value"), t.Value, joinMsgs(msgs)))
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

func joinMsgs(msgs []string) string {
	s := ""
	for i, m := range msgs {
		if i > 0 {
			s += ";"
		}
		s += m
	}
	return s
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
				out = append(out, invalid(join(p, "operator"), t.Value, joinMsgs(msgs)))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				out = append(out, invalid(join(p, "operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			out = append(out, notSupported(join(p, "operator"), t.Operator, api.TolerationOpEqual, api.TolerationOpExists))
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

func validateAffinity(a *api.Affinity, path string) []fieldError {
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
		out = append(out, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, join(path, "podAffinity"))...)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		out = append(out, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, join(path, "podAntiAffinity"))...)
	}
	return out
}

func validatePodAffinityTerms(req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm, path string) []fieldError {
	var out []fieldError
	for i, t := range req {
		out = append(out, validatePodAffinityTerm(t, index(join(path, "requiredDuringSchedulingIgnoredDuringExecution"), i))...)
	}
	for i, w := range pref {
		p := index(join(path, "preferredDuringSchedulingIgnoredDuringExecution"), i)
		if w.Weight <= 0 || w.Weight > 100 {
			out = append(out, invalid(join(p, "weight"), w.Weight, "must be in the range 1-100"))
		}
		out = append(out, validatePodAffinityTerm(w.PodAffinityTerm, join(p, "podAffinityTerm"))...)
	}
	return out
}

// validatePodAffinityTerm is validatePodAffinityTerm. matchLabelKeys and
// mismatchLabelKeys are checked as ValidateMatchLabelKeysAndMismatchLabelKeys
// would after the API server merged them (MatchLabelKeysInPodAffinity): a
// key may not also appear in labelSelector, nor in both lists.
func validatePodAffinityTerm(t api.PodAffinityTerm, path string) []fieldError {
	out := validateLabelSelector(t.LabelSelector, join(path, "labelSelector"))
	out = append(out, validateLabelSelector(t.NamespaceSelector, join(path, "namespaceSelector"))...)
	for _, ns := range t.Namespaces {
		for _, msg := range dnsLabelErrors(ns) {
			out = append(out, invalid(join(path, "namespace"), ns, msg))
		}
	}
	out = append(out, validateLabelKeys(join(path, "matchLabelKeys"), t.MatchLabelKeys, t.LabelSelector)...)
	out = append(out, validateLabelKeys(join(path, "mismatchLabelKeys"), t.MismatchLabelKeys, t.LabelSelector)...)
	if t.LabelSelector != nil {
		inSelector := selectorKeys(t.LabelSelector)
		for i, k := range t.MatchLabelKeys {
			if inSelector[k] {
				out = append(out, invalid(index(path, i), k, "exists in both matchLabelKeys and labelSelector").
					withHint("the key's value is added to labelSelector automatically; drop it from one of them"))
			}
		}
	}
	mismatch := map[string]bool{}
	for _, k := range t.MismatchLabelKeys {
		mismatch[k] = true
	}
	for i, k := range t.MatchLabelKeys {
		if mismatch[k] {
			out = append(out, invalid(index(join(path, "matchLabelKeys"), i), k, "exists in both matchLabelKeys and mismatchLabelKeys"))
		}
	}
	if t.TopologyKey == "" {
		out = append(out, required(join(path, "topologyKey"), "can not be empty").withHint("e.g. topologyKey: kubernetes.io/hostname"))
	}
	return append(out, validateLabelName(join(path, "topologyKey"), t.TopologyKey)...)
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

func selectorKeys(s *api.LabelSelector) map[string]bool {
	keys := map[string]bool{}
	for k := range s.MatchLabels {
		keys[k] = true
	}
	for _, r := range s.MatchExpressions {
		keys[r.Key] = true
	}
	return keys
}

// validateSpreadConstraints is validateTopologySpreadConstraints, with
// matchLabelKeys checked by ValidateMatchLabelKeysInTopologySpread.
func validateSpreadConstraints(cs []api.TopologySpreadConstraint, path string) []fieldError {
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
		if len(c.MatchLabelKeys) > 0 {
			mp := join(p, "matchLabelKeys")
			if c.LabelSelector == nil {
				out = append(out, forbidden(mp, "must not be specified when labelSelector is not set"))
			}
			inSelector := map[string]bool{}
			if c.LabelSelector != nil {
				inSelector = selectorKeys(c.LabelSelector)
			}
			for j, k := range c.MatchLabelKeys {
				out = append(out, validateLabelName(index(mp, j), k)...)
				if inSelector[k] {
					out = append(out, invalid(index(mp, j), k, "exists in both matchLabelKeys and labelSelector"))
				}
			}
		}
		out = append(out, validateLabelSelector(c.LabelSelector, join(p, "labelSelector"))...)
	}
	return out
}
