package nodeaffinity

import (
	"fmt"
	"sort"
	"strconv"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// labelRequirement is one compiled node label requirement, matching as
// apimachinery labels.Requirement does (In/NotIn/Exists/DoesNotExist and
// the integer comparisons Gt/Lt).
//
// bind precomputes the verdict for every value of the key in the
// snapshot (framework.Topology), so matching a snapshot node is one array
// read instead of a label map lookup.
type labelRequirement struct {
	key    string
	op     string
	values []string
	num    int64 // Gt/Lt operand

	nodes       []*framework.NodeInfo // the snapshot's nodes when bound
	domainOf    []int32
	domainMatch []bool
	missing     bool // verdict for a node without the key
}

// newLabelRequirement validates a requirement as labels.NewRequirement
// does (value counts per operator, integer operand for Gt/Lt).
func newLabelRequirement(key, op string, values []string) (labelRequirement, error) {
	r := labelRequirement{key: key, op: op, values: values}
	if err := validateLabelKey(key); err != nil {
		return r, err
	}
	switch op {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if len(values) == 0 {
			return r, fmt.Errorf("values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty")
		}
	case api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist:
		if len(values) != 0 {
			return r, fmt.Errorf("values: Invalid value: %v: values set must be empty for exists and does not exist", values)
		}
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if len(values) != 1 {
			return r, fmt.Errorf("values: Invalid value: %v: for 'Gt', 'Lt' operators, exactly one value is required", values)
		}
		n, err := strconv.ParseInt(values[0], 10, 64)
		if err != nil {
			return r, fmt.Errorf("values[0]: Invalid value: %q: for 'Gt', 'Lt' operators, the value must be an integer", values[0])
		}
		r.num = n
	default:
		return r, fmt.Errorf("operator: Unsupported value: %q: supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"", op)
	}
	for _, v := range values {
		if err := validateLabelValue(v); err != nil {
			return r, err
		}
	}
	r.missing = r.matchValue("", false)
	return r, nil
}

// matchValue is labels.Requirement.Matches for one label (present or not).
func (r *labelRequirement) matchValue(v string, present bool) bool {
	switch r.op {
	case api.NodeSelectorOpIn:
		return present && contains(r.values, v)
	case api.NodeSelectorOpNotIn:
		return !present || !contains(r.values, v)
	case api.NodeSelectorOpExists:
		return present
	case api.NodeSelectorOpDoesNotExist:
		return !present
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if !present {
			return false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		if r.op == api.NodeSelectorOpGt {
			return n > r.num
		}
		return n < r.num
	}
	return false
}

func contains(vals []string, v string) bool {
	for _, x := range vals {
		if x == v {
			return true
		}
	}
	return false
}

// bind precomputes the requirement's verdict for every domain of its key
// in the snapshot. In and NotIn only look up their values (binary search
// in the sorted domains); the other operators evaluate every domain.
func (r *labelRequirement) bind(snap *framework.Snapshot) {
	if snap == nil {
		return
	}
	t := snap.Topology(r.key)
	match := make([]bool, len(t.Domains))
	switch r.op {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		in := r.op == api.NodeSelectorOpIn
		if !in {
			for i := range match {
				match[i] = true
			}
		}
		for _, v := range r.values {
			if i := sort.SearchStrings(t.Domains, v); i < len(t.Domains) && t.Domains[i] == v {
				match[i] = in
			}
		}
	default:
		for i, v := range t.Domains {
			match[i] = r.matchValue(v, true)
		}
	}
	r.nodes, r.domainOf, r.domainMatch = snap.Nodes(), t.DomainOf, match
}

// matches reports whether the node satisfies the requirement: from the
// bound table when the NodeInfo is the snapshot's own (a preemption dry
// run may pass a copy), else from the node's labels.
func (r *labelRequirement) matches(ni *framework.NodeInfo) bool {
	if i := ni.Index; i >= 0 && i < len(r.nodes) && r.nodes[i] == ni {
		if d := r.domainOf[i]; d >= 0 {
			return r.domainMatch[d]
		}
		return r.missing
	}
	v, ok := ni.Node.Labels[r.key]
	return r.matchValue(v, ok)
}

// matchesAt is matches for nodes[k]: when k is the node's position in the
// bound snapshot (the runtime passes the snapshot's node list), the table
// is read without touching the NodeInfo.
func (r *labelRequirement) matchesAt(k int32, ni *framework.NodeInfo) bool {
	if int(k) < len(r.nodes) && r.nodes[k] == ni {
		if d := r.domainOf[k]; d >= 0 {
			return r.domainMatch[d]
		}
		return r.missing
	}
	return r.matches(ni)
}

// fieldRequirement is a matchFields requirement: In or NotIn with exactly
// one value, compared with the node's fields (only metadata.name exists,
// so any other key reads as "", as fields.Set.Get does).
type fieldRequirement struct {
	key   string
	in    bool
	value string
}

func newFieldRequirement(r *api.NodeSelectorRequirement) (fieldRequirement, error) {
	switch r.Operator {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if len(r.Values) != 1 {
			return fieldRequirement{}, fmt.Errorf("values: Invalid value: %v: must have one element", r.Values)
		}
		return fieldRequirement{key: r.Key, in: r.Operator == api.NodeSelectorOpIn, value: r.Values[0]}, nil
	}
	return fieldRequirement{}, fmt.Errorf("operator: Unsupported value: %q: supported values: \"In\", \"NotIn\"", r.Operator)
}

func (f *fieldRequirement) matches(node *api.Node) bool {
	var v string
	if f.key == metadataName {
		v = node.Name
	}
	return (v == f.value) == f.in
}

const metadataName = "metadata.name"

// term is a compiled NodeSelectorTerm (component-helpers nodeaffinity
// nodeSelectorTerm): expressions and fields ANDed; a term that failed to
// parse never matches.
type term struct {
	exprs    []labelRequirement
	fields   []fieldRequirement
	hasExprs bool
	invalid  bool
}

// compileTerm parses a term; errors name the offending path.
func compileTerm(t *api.NodeSelectorTerm, path string) (term, []error) {
	var out term
	var errs []error
	out.hasExprs = len(t.MatchExpressions) > 0
	for i := range t.MatchExpressions {
		e := &t.MatchExpressions[i]
		r, err := newLabelRequirement(e.Key, e.Operator, e.Values)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s.matchExpressions[%d].%w", path, i, err))
			continue
		}
		out.exprs = append(out.exprs, r)
	}
	for i := range t.MatchFields {
		f, err := newFieldRequirement(&t.MatchFields[i])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s.matchFields[%d].%w", path, i, err))
			continue
		}
		out.fields = append(out.fields, f)
	}
	out.invalid = len(errs) > 0
	return out, errs
}

func isEmptyTerm(t *api.NodeSelectorTerm) bool {
	return len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0
}

func (t *term) bind(snap *framework.Snapshot) {
	for i := range t.exprs {
		t.exprs[i].bind(snap)
	}
}

func (t *term) matches(ni *framework.NodeInfo) bool { return t.matchesAt(-1, ni) }

// matchesAt is matches for nodes[k] (k < 0: position unknown).
func (t *term) matchesAt(k int32, ni *framework.NodeInfo) bool {
	if t.invalid {
		return false
	}
	if t.hasExprs {
		for i := range t.exprs {
			r := &t.exprs[i]
			if k >= 0 {
				if !r.matchesAt(k, ni) {
					return false
				}
			} else if !r.matches(ni) {
				return false
			}
		}
	}
	if len(t.fields) > 0 && ni.Node.Name != "" {
		for i := range t.fields {
			if !t.fields[i].matches(ni.Node) {
				return false
			}
		}
	}
	return true
}
