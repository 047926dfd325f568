package nodeaffinity

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// ErrReasonEnforced rejects a node that fails the profile's addedAffinity
// (node_affinity.go errReasonEnforced).
const ErrReasonEnforced = "node(s) didn't match scheduler-enforced node affinity"

// Args are NodeAffinityArgs: AddedAffinity applies to every pod of the
// profile on top of its own — required terms as a filter
// (UnschedulableAndUnresolvable), preferred terms added to the score.
type Args struct {
	AddedAffinity *api.NodeAffinity
}

// NewWithArgs returns the plugin with the profile's added affinity, or
// the parse error NewNodeSelector / NewPreferredSchedulingTerms give
// (node_affinity.go New).
func NewWithArgs(args Args) (*Plugin, error) {
	p := New()
	a := args.AddedAffinity
	if a == nil {
		return p, nil
	}
	if ns := a.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
		r := &requiredAffinity{hasAffinity: true}
		for i := range ns.NodeSelectorTerms {
			t := &ns.NodeSelectorTerms[i]
			if isEmptyTerm(t) {
				continue
			}
			ct, errs := compileTerm(t, fmt.Sprintf("nodeSelectorTerms[%d]", i))
			if len(errs) > 0 {
				return nil, fmt.Errorf("parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: %w", errs[0])
			}
			r.terms = append(r.terms, ct)
		}
		p.addedRequired = r
	}
	if terms := a.PreferredDuringSchedulingIgnoredDuringExecution; len(terms) != 0 {
		pt, err := compilePreferred(terms)
		if err != nil {
			return nil, fmt.Errorf("parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: %w", err)
		}
		p.addedPreferred = pt
	}
	p.args = args
	return p, nil
}

// Args returns the plugin's arguments.
func (p *Plugin) Args() Args { return p.args }
