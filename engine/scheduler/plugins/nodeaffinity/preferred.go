package nodeaffinity

import (
	"errors"
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

type weightedTerm struct {
	term
	weight int64
}

// preferredTerms are the pod's compiled preferred node affinity terms
// (component-helpers nodeaffinity.PreferredSchedulingTerms).
type preferredTerms struct {
	terms []weightedTerm
}

// compilePreferred compiles preferred terms as NewPreferredSchedulingTerms:
// weight-0 and empty terms are dropped, any parse error fails the whole list.
func compilePreferred(terms []api.PreferredSchedulingTerm) (*preferredTerms, error) {
	out := &preferredTerms{}
	var errs []error
	for i := range terms {
		t := &terms[i]
		if t.Weight == 0 || isEmptyTerm(&t.Preference) {
			continue
		}
		ct, termErrs := compileTerm(&t.Preference, fmt.Sprintf("[%d]", i))
		if len(termErrs) > 0 {
			errs = append(errs, termErrs...)
			continue
		}
		out.terms = append(out.terms, weightedTerm{term: ct, weight: int64(t.Weight)})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func (p *preferredTerms) bind(snap *framework.Snapshot) {
	for i := range p.terms {
		p.terms[i].bind(snap)
	}
}

// score sums the weights of the terms the node matches.
func (p *preferredTerms) score(ni *framework.NodeInfo) int64 {
	var s int64
	for i := range p.terms {
		if p.terms[i].matches(ni) {
			s += p.terms[i].weight
		}
	}
	return s
}

// scoreAt is score for a node whose snapshot position is probably k (the
// runtime's NodeScore.Index; the bound tables check it by pointer, so a
// wrong guess only costs the slower lookup).
func (p *preferredTerms) scoreAt(k int32, ni *framework.NodeInfo) int64 {
	var s int64
	for i := range p.terms {
		if p.terms[i].matchesAt(k, ni) {
			s += p.terms[i].weight
		}
	}
	return s
}
