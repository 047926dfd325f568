package api

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Selector is a compiled label selector. The zero value matches nothing
// (as labels.Nothing(), what a nil metav1.LabelSelector converts to);
// Everything() matches all label sets.
type Selector struct {
	valid bool
	reqs  []requirement
}

type requirement struct {
	key    string
	op     string
	values []string // sorted
}

// Everything returns a selector that matches every label set.
func Everything() Selector { return Selector{valid: true} }

// Nothing returns a selector that matches no label set.
func Nothing() Selector { return Selector{} }

// Empty reports a selector that matches everything (no requirements).
func (s Selector) Empty() bool { return s.valid && len(s.reqs) == 0 }

// IsNothing reports the selector that matches nothing.
func (s Selector) IsNothing() bool { return !s.valid }

// CompileSelector converts a metav1.LabelSelector as
// metav1.LabelSelectorAsSelector does: nil matches nothing, an empty
// selector matches everything.
func CompileSelector(ls *LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	s := Selector{valid: true}
	keys := make([]string, 0, len(ls.MatchLabels))
	for k := range ls.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s.reqs = append(s.reqs, requirement{key: k, op: LabelSelectorOpIn, values: []string{ls.MatchLabels[k]}})
	}
	for _, e := range ls.MatchExpressions {
		switch e.Operator {
		case LabelSelectorOpIn, LabelSelectorOpNotIn:
			if len(e.Values) == 0 {
				return Nothing(), fmt.Errorf("matchExpressions key %q: operator %s needs at least one value", e.Key, e.Operator)
			}
		case LabelSelectorOpExists, LabelSelectorOpDoesNotExist:
			if len(e.Values) != 0 {
				return Nothing(), fmt.Errorf("matchExpressions key %q: operator %s takes no values", e.Key, e.Operator)
			}
		default:
			return Nothing(), fmt.Errorf("matchExpressions key %q: unknown operator %q (use In, NotIn, Exists or DoesNotExist)", e.Key, e.Operator)
		}
		vals := append([]string(nil), e.Values...)
		sort.Strings(vals)
		s.reqs = append(s.reqs, requirement{key: e.Key, op: e.Operator, values: vals})
	}
	return s, nil
}

// MustCompileSelector compiles a selector known to be valid (tests,
// selectors built by the engine itself).
func MustCompileSelector(ls *LabelSelector) Selector {
	s, err := CompileSelector(ls)
	if err != nil {
		panic(err)
	}
	return s
}

// SelectorFromSet returns a selector requiring every key=value of set.
func SelectorFromSet(set map[string]string) Selector {
	return MustCompileSelector(&LabelSelector{MatchLabels: set})
}

// AddEquals returns a copy of s that also requires key=value (used for
// matchLabelKeys, which AND the pod's own values into the selector).
func (s Selector) AddEquals(key, value string) Selector {
	if !s.valid {
		return s
	}
	out := Selector{valid: true, reqs: make([]requirement, len(s.reqs), len(s.reqs)+1)}
	copy(out.reqs, s.reqs)
	out.reqs = append(out.reqs, requirement{key: key, op: LabelSelectorOpIn, values: []string{value}})
	return out
}

// AddNotIn returns a copy of s that also requires key notin (value)
// (used for mismatchLabelKeys).
func (s Selector) AddNotIn(key, value string) Selector {
	if !s.valid {
		return s
	}
	out := Selector{valid: true, reqs: make([]requirement, len(s.reqs), len(s.reqs)+1)}
	copy(out.reqs, s.reqs)
	out.reqs = append(out.reqs, requirement{key: key, op: LabelSelectorOpNotIn, values: []string{value}})
	return out
}

// Matches reports whether the labels satisfy every requirement.
func (s Selector) Matches(labels map[string]string) bool {
	if !s.valid {
		return false
	}
	for i := range s.reqs {
		r := &s.reqs[i]
		v, ok := labels[r.key]
		switch r.op {
		case LabelSelectorOpIn:
			if !ok || !containsSorted(r.values, v) {
				return false
			}
		case LabelSelectorOpNotIn:
			if ok && containsSorted(r.values, v) {
				return false
			}
		case LabelSelectorOpExists:
			if !ok {
				return false
			}
		case LabelSelectorOpDoesNotExist:
			if ok {
				return false
			}
		}
	}
	return true
}

func containsSorted(vals []string, v string) bool {
	if len(vals) == 1 {
		return vals[0] == v
	}
	i := sort.SearchStrings(vals, v)
	return i < len(vals) && vals[i] == v
}

// String renders the selector in kubectl's syntax ("app=web,tier in (a,b)"),
// stable for a given selector; it doubles as a cache key.
func (s Selector) String() string {
	if !s.valid {
		return "<none>"
	}
	parts := make([]string, 0, len(s.reqs))
	for _, r := range s.reqs {
		switch r.op {
		case LabelSelectorOpIn:
			if len(r.values) == 1 {
				parts = append(parts, r.key+"="+r.values[0])
			} else {
				parts = append(parts, r.key+" in ("+strings.Join(r.values, ",")+")")
			}
		case LabelSelectorOpNotIn:
			parts = append(parts, r.key+" notin ("+strings.Join(r.values, ",")+")")
		case LabelSelectorOpExists:
			parts = append(parts, r.key)
		case LabelSelectorOpDoesNotExist:
			parts = append(parts, "!"+r.key)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// MatchNodeSelectorTerms reports whether a node matches any of the terms
// (component-helpers nodeaffinity): an empty term matches nothing; matchFields
// supports metadata.name only.
func MatchNodeSelectorTerms(node *Node, terms []NodeSelectorTerm) bool {
	for i := range terms {
		if MatchNodeSelectorTerm(node, &terms[i]) {
			return true
		}
	}
	return false
}

// MatchNodeSelectorTerm reports whether a node matches one term (its
// expressions and fields ANDed). A term with no requirements matches nothing.
func MatchNodeSelectorTerm(node *Node, term *NodeSelectorTerm) bool {
	if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		return false
	}
	for i := range term.MatchExpressions {
		if !matchNodeRequirement(node.Labels, &term.MatchExpressions[i]) {
			return false
		}
	}
	for i := range term.MatchFields {
		r := &term.MatchFields[i]
		if r.Key != "metadata.name" {
			return false
		}
		if !matchNodeRequirement(map[string]string{"metadata.name": node.Name}, r) {
			return false
		}
	}
	return true
}

func matchNodeRequirement(labels map[string]string, r *NodeSelectorRequirement) bool {
	v, ok := labels[r.Key]
	switch r.Operator {
	case NodeSelectorOpIn:
		if !ok {
			return false
		}
		for _, x := range r.Values {
			if x == v {
				return true
			}
		}
		return false
	case NodeSelectorOpNotIn:
		if !ok {
			return true
		}
		for _, x := range r.Values {
			if x == v {
				return false
			}
		}
		return true
	case NodeSelectorOpExists:
		return ok
	case NodeSelectorOpDoesNotExist:
		return !ok
	case NodeSelectorOpGt, NodeSelectorOpLt:
		if !ok || len(r.Values) != 1 {
			return false
		}
		lv, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		rv, err := strconv.ParseInt(r.Values[0], 10, 64)
		if err != nil {
			return false
		}
		if r.Operator == NodeSelectorOpGt {
			return lv > rv
		}
		return lv < rv
	}
	return false
}

// MatchNodeSelectorMap reports whether node labels contain every key=value
// of a pod's spec.nodeSelector.
func MatchNodeSelectorMap(node *Node, sel map[string]string) bool {
	for k, v := range sel {
		if lv, ok := node.Labels[k]; !ok || lv != v {
			return false
		}
	}
	return true
}

// PodMatchesNodeSelectorAndAffinityTerms reports whether the node satisfies
// the pod's nodeSelector and required node affinity, as
// component-helpers' GetRequiredNodeAffinity(pod).Match(node).
func PodMatchesNodeSelectorAndAffinityTerms(pod *Pod, node *Node) bool {
	if !MatchNodeSelectorMap(node, pod.Spec.NodeSelector) {
		return false
	}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		return MatchNodeSelectorTerms(node, a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms)
	}
	return true
}
