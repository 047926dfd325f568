package admission

import "podlab.dev/podlab/engine/api"

// mergeAffinityLabelKeys is mutatePodAffinity of
// pkg/registry/core/pod/strategy.go (MatchLabelKeysInPodAffinity, GA in
// 1.33): for every pod (anti-)affinity term with a labelSelector, each
// matchLabelKeys key the pod has a label for becomes `key In (value)` and
// each mismatchLabelKeys key `key NotIn (value)`, appended to the term's
// matchExpressions. Keys the pod lacks are skipped; a nil labelSelector
// stays nil (it matches nothing anyway).
//
// The selector is copied before it is extended, so pods stamped from one
// template never share a mutated selector; a requirement already present
// is not added twice, which keeps AdmitPod idempotent.
func mergeAffinityLabelKeys(pod *api.Pod) {
	a := pod.Spec.Affinity
	if a == nil {
		return
	}
	if pa := a.PodAffinity; pa != nil {
		mergeTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, pod.Labels)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		mergeTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, pod.Labels)
	}
}

func mergeTerms(req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm, labels map[string]string) {
	for i := range pref {
		mergeTerm(&pref[i].PodAffinityTerm, labels)
	}
	for i := range req {
		mergeTerm(&req[i], labels)
	}
}

func mergeTerm(t *api.PodAffinityTerm, labels map[string]string) {
	if (len(t.MatchLabelKeys) == 0 && len(t.MismatchLabelKeys) == 0) || t.LabelSelector == nil {
		return
	}
	var add []api.LabelSelectorRequirement
	for _, k := range t.MatchLabelKeys {
		if v, ok := labels[k]; ok {
			add = append(add, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpIn, Values: []string{v}})
		}
	}
	for _, k := range t.MismatchLabelKeys {
		if v, ok := labels[k]; ok {
			add = append(add, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpNotIn, Values: []string{v}})
		}
	}
	if len(add) == 0 {
		return
	}
	sel := cloneSelector(t.LabelSelector)
	for _, r := range add {
		if !hasRequirement(sel.MatchExpressions, r) {
			sel.MatchExpressions = append(sel.MatchExpressions, r)
		}
	}
	t.LabelSelector = sel
}

func hasRequirement(rs []api.LabelSelectorRequirement, r api.LabelSelectorRequirement) bool {
	for _, x := range rs {
		if x.Key == r.Key && x.Operator == r.Operator && len(x.Values) == 1 && x.Values[0] == r.Values[0] {
			return true
		}
	}
	return false
}

func cloneSelector(s *api.LabelSelector) *api.LabelSelector {
	c := &api.LabelSelector{}
	if s.MatchLabels != nil {
		c.MatchLabels = make(map[string]string, len(s.MatchLabels))
		for k, v := range s.MatchLabels {
			c.MatchLabels[k] = v
		}
	}
	for _, r := range s.MatchExpressions {
		r.Values = append([]string(nil), r.Values...)
		c.MatchExpressions = append(c.MatchExpressions, r)
	}
	return c
}
