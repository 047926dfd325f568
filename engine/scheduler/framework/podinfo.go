package framework

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

var nonZeroDefaults = api.ResourceList{
	api.ResourceCPU:    api.Milli(api.DefaultMilliCPURequest),
	api.ResourceMemory: api.Units(api.DefaultMemoryRequest),
}

// NewPodInfo computes the scheduler's per-pod data. The pod must already be
// defaulted and admitted (api.DefaultPod, admission), so matchLabelKeys of
// affinity terms are merged into their selectors by the API server's rule;
// NewPodInfo merges them again only if the selector lacks them (idempotent).
func NewPodInfo(pod *api.Pod) *PodInfo {
	pi := &PodInfo{Pod: pod, Priority: pod.PriorityValue()}
	pi.Requests = api.ResourcesOf(api.PodRequests(pod, api.PodRequestsOptions{}))
	nz := api.ResourcesOf(api.PodRequests(pod, api.PodRequestsOptions{NonMissingContainerRequests: nonZeroDefaults}))
	pi.NonZeroRequests = api.Resources{MilliCPU: nz.MilliCPU, Memory: nz.Memory}
	pi.ScoreRequests = pi.NonZeroRequests
	if pod.Spec.Resources != nil && len(pod.Spec.Resources.Requests) > 0 {
		sc := api.ResourcesOf(api.PodRequests(pod, api.PodRequestsOptions{NonMissingContainerRequests: nonZeroDefaults, SkipPodLevelResources: true}))
		pi.ScoreRequests = api.Resources{MilliCPU: sc.MilliCPU, Memory: sc.Memory}
	}
	if a := pod.Spec.Affinity; a != nil {
		if a.PodAffinity != nil {
			pi.RequiredAffinityTerms = pi.compileTerms(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
			pi.PreferredAffinityTerms = pi.compileWeighted(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
		}
		if a.PodAntiAffinity != nil {
			pi.RequiredAntiAffinityTerms = pi.compileTerms(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
			pi.PreferredAntiAffinityTerms = pi.compileWeighted(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
		}
	}
	return pi
}

func (pi *PodInfo) compileTerms(terms []api.PodAffinityTerm) []AffinityTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]AffinityTerm, 0, len(terms))
	for i := range terms {
		t, err := CompileAffinityTerm(pi.Pod, &terms[i])
		if err != nil {
			pi.ParseError = err
			continue
		}
		out = append(out, t)
	}
	return out
}

func (pi *PodInfo) compileWeighted(terms []api.WeightedPodAffinityTerm) []WeightedAffinityTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]WeightedAffinityTerm, 0, len(terms))
	for i := range terms {
		t, err := CompileAffinityTerm(pi.Pod, &terms[i].PodAffinityTerm)
		if err != nil {
			pi.ParseError = err
			continue
		}
		out = append(out, WeightedAffinityTerm{AffinityTerm: t, Weight: terms[i].Weight})
	}
	return out
}

// CompileAffinityTerm compiles a PodAffinityTerm as framework.newAffinityTerm:
// an empty namespaces list with a nil namespaceSelector means the pod's own
// namespace; a non-nil empty namespaceSelector means all namespaces.
func CompileAffinityTerm(pod *api.Pod, t *api.PodAffinityTerm) (AffinityTerm, error) {
	sel, err := api.CompileSelector(t.LabelSelector)
	if err != nil {
		return AffinityTerm{}, fmt.Errorf("pod affinity term (topologyKey %q): %w", t.TopologyKey, err)
	}
	// matchLabelKeys / mismatchLabelKeys: merged into the selector with the
	// incoming pod's values (the API server does this at creation; a nil
	// labelSelector stays nil-matching-nothing upstream, so we skip it).
	if t.LabelSelector != nil {
		for _, k := range t.MatchLabelKeys {
			if v, ok := pod.Labels[k]; ok {
				sel = sel.AddEquals(k, v)
			}
		}
		for _, k := range t.MismatchLabelKeys {
			if v, ok := pod.Labels[k]; ok {
				sel = sel.AddNotIn(k, v)
			}
		}
	}
	term := AffinityTerm{Selector: sel, TopologyKey: t.TopologyKey}
	nsSel, err := api.CompileSelector(t.NamespaceSelector)
	if err != nil {
		return AffinityTerm{}, fmt.Errorf("pod affinity term namespaceSelector: %w", err)
	}
	term.NamespaceSelector = nsSel
	term.Namespaces = map[string]struct{}{}
	for _, ns := range t.Namespaces {
		term.Namespaces[ns] = struct{}{}
	}
	if len(t.Namespaces) == 0 && t.NamespaceSelector == nil {
		term.Namespaces[pod.Namespace] = struct{}{}
	}
	return term, nil
}

// Matches reports whether a pod (with its namespace's labels) matches the
// term, as AffinityTerm.Matches upstream.
func (t *AffinityTerm) Matches(pod *api.Pod, nsLabels map[string]string) bool {
	if _, ok := t.Namespaces[pod.Namespace]; ok || t.NamespaceSelector.Matches(nsLabels) {
		return t.Selector.Matches(pod.Labels)
	}
	return false
}
