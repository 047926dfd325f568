package lab

import (
	"time"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine"
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

// instant is duration for a point on the virtual clock (a timeline
// entry's at, fork.at, clock.resumeAt): one past the clock's end
// (engine.MaxClock, 100 years) would never come.
func (p *scenarioParser) instant(n *yaml.Node, what string) time.Duration {
	d := p.duration(n, what)
	if err := engine.CheckClock(0, d); d > 0 && err != nil {
		p.errorf(n, "%s: %v", what, err, "")
	}
	return d
}
