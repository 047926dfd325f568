package nodeaffinity

import (
	"fmt"
	"sort"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// requiredAffinity is the pod's spec.nodeSelector plus its required node
// affinity, compiled (component-helpers nodeaffinity.RequiredNodeAffinity).
type requiredAffinity struct {
	// selector holds nodeSelector's key=value pairs, sorted by key.
	selector []labelRequirement
	// hasAffinity: required node affinity is set; then at least one of
	// terms must match (no terms ⇒ nothing matches).
	hasAffinity bool
	terms       []term
}

// compileRequired compiles the pod's required node constraints, as
// GetRequiredNodeAffinity: empty terms are dropped, terms that fail to
// parse never match (the lazy-error selector).
func compileRequired(pod *api.Pod) *requiredAffinity {
	r := &requiredAffinity{}
	if len(pod.Spec.NodeSelector) > 0 {
		keys := make([]string, 0, len(pod.Spec.NodeSelector))
		for k := range pod.Spec.NodeSelector {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			r.selector = append(r.selector, labelRequirement{
				key: k, op: api.NodeSelectorOpIn, values: []string{pod.Spec.NodeSelector[k]},
			})
		}
	}
	if ns := requiredSelector(pod); ns != nil {
		r.hasAffinity = true
		for i := range ns.NodeSelectorTerms {
			t := &ns.NodeSelectorTerms[i]
			if isEmptyTerm(t) {
				continue
			}
			ct, _ := compileTerm(t, fmt.Sprintf("nodeSelectorTerms[%d]", i))
			r.terms = append(r.terms, ct)
		}
	}
	return r
}

func requiredSelector(pod *api.Pod) *api.NodeSelector {
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		return a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	return nil
}

func (r *requiredAffinity) bind(snap *framework.Snapshot) {
	for i := range r.selector {
		r.selector[i].bind(snap)
	}
	for i := range r.terms {
		r.terms[i].bind(snap)
	}
}

// matches reports whether the node satisfies nodeSelector and the
// required terms (RequiredNodeAffinity.Match).
func (r *requiredAffinity) matches(ni *framework.NodeInfo) bool { return r.matchesAt(-1, ni) }

// matchesAt is matches for nodes[k] (k < 0: position unknown).
func (r *requiredAffinity) matchesAt(k int32, ni *framework.NodeInfo) bool {
	for i := range r.selector {
		s := &r.selector[i]
		if k >= 0 {
			if !s.matchesAt(k, ni) {
				return false
			}
		} else if !s.matches(ni) {
			return false
		}
	}
	if !r.hasAffinity {
		return true
	}
	for i := range r.terms {
		if r.terms[i].matchesAt(k, ni) {
			return true
		}
	}
	return false
}

// requiredNodeNames returns the node names the required terms can match
// through matchFields metadata.name In, as NodeAffinity.PreFilter: per term
// the intersection of its name sets, across terms the union; nil when some
// term does not pin names (every node may match).
func requiredNodeNames(terms []api.NodeSelectorTerm) map[string]struct{} {
	var names map[string]struct{}
	for i := range terms {
		var termNames map[string]struct{}
		for _, r := range terms[i].MatchFields {
			if r.Key != metadataName || r.Operator != api.NodeSelectorOpIn {
				continue
			}
			s := make(map[string]struct{}, len(r.Values))
			for _, v := range r.Values {
				s[v] = struct{}{}
			}
			if termNames == nil {
				termNames = s
			} else {
				for n := range termNames {
					if _, ok := s[n]; !ok {
						delete(termNames, n)
					}
				}
			}
		}
		if termNames == nil {
			return nil
		}
		if names == nil {
			names = map[string]struct{}{}
		}
		for n := range termNames {
			names[n] = struct{}{}
		}
	}
	return names
}
