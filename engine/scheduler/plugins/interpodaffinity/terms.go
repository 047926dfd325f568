package interpodaffinity

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// incomingTerm is one of the incoming pod's terms with its
// namespaceSelector resolved against the namespaces the snapshot knows, as
// mergeAffinityTermNamespacesIfNotEmpty does upstream: a selector matching
// everything is kept, any other is unrolled into Namespaces. Pods in a
// namespace the snapshot has not recorded are matched against the labels
// the API server gives every namespace (Snapshot.NamespaceLabelsOf).
type incomingTerm struct {
	framework.AffinityTerm
	Weight int32
	// unknownNS is the original namespaceSelector, consulted only for
	// namespaces absent from the snapshot.
	unknownNS api.Selector
	known     map[string]map[string]string
}

func resolveTerm(snap *framework.Snapshot, t framework.AffinityTerm, weight int32) incomingTerm {
	out := incomingTerm{AffinityTerm: t, Weight: weight, known: snap.NamespaceLabels}
	if t.NamespaceSelector.Empty() || t.NamespaceSelector.IsNothing() {
		return out
	}
	ns := make(map[string]struct{}, len(t.Namespaces))
	for n := range t.Namespaces {
		ns[n] = struct{}{}
	}
	for n, labels := range snap.NamespaceLabels {
		if t.NamespaceSelector.Matches(labels) {
			ns[n] = struct{}{}
		}
	}
	out.Namespaces = ns
	out.unknownNS = t.NamespaceSelector
	out.NamespaceSelector = api.Nothing()
	return out
}

func resolveTerms(snap *framework.Snapshot, terms []framework.AffinityTerm) []incomingTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]incomingTerm, len(terms))
	for i := range terms {
		out[i] = resolveTerm(snap, terms[i], 0)
	}
	return out
}

func resolveWeighted(snap *framework.Snapshot, terms []framework.WeightedAffinityTerm) []incomingTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]incomingTerm, len(terms))
	for i := range terms {
		out[i] = resolveTerm(snap, terms[i].AffinityTerm, terms[i].Weight)
	}
	return out
}

// matches reports whether an existing pod matches the term
// (AffinityTerm.Matches with the namespaces already merged).
func (t *incomingTerm) matches(pod *api.Pod) bool {
	if _, ok := t.Namespaces[pod.Namespace]; ok || t.NamespaceSelector.Empty() {
		return t.Selector.Matches(pod.Labels)
	}
	if t.unknownNS.IsNothing() {
		return false
	}
	if _, known := t.known[pod.Namespace]; known {
		return false
	}
	return t.unknownNS.Matches(map[string]string{api.LabelMetadataName: pod.Namespace}) && t.Selector.Matches(pod.Labels)
}

// matchesAll reports whether the pod matches every term; false for no terms
// (podMatchesAllAffinityTerms).
func matchesAll(terms []incomingTerm, pod *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !terms[i].matches(pod) {
			return false
		}
	}
	return true
}
