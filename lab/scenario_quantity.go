package lab

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

// nonNegativeQuantity is quantity for a node's capacity, which
// ValidateNodeResources keeps ≥ 0 (a node of cpu "-1" fits nothing).
func (p *scenarioParser) nonNegativeQuantity(n *yaml.Node, what string) string {
	s := p.quantity(n, what)
	if q, err := api.ParseQuantity(s); err == nil && q < 0 {
		p.errorf(n, "%s: Invalid value: %q: must be greater than or equal to 0", what, s, "")
	}
	return s
}
