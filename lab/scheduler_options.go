package lab

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

// The scenario header's scheduler.percentageOfNodesToScore:
//
//	scheduler:
//	  percentageOfNodesToScore: adaptive   # as a default kube-scheduler
//	  percentageOfNodesToScore: 30         # that percentage (1..100)
//
// Absent (the lab's default), every node is filtered and scored, so a
// decision is the best over the whole cluster. With a value the scheduler
// looks for upstream's numFeasibleNodesToFind feasible nodes from a
// rotating start and scores only those (engine/scheduler/sample.go);
// `explain` still evaluates every node.

// percentageKey is the header key.
const percentageKey = "percentageOfNodesToScore"

// percentageOfNodesToScore parses the value: "adaptive" is upstream's 0
// (50 − nodes/125 %, at least 5 %); a whole number 1..100 is that
// percentage. 0 is refused so that "adaptive" is always spelt out.
func (p *scenarioParser) percentageOfNodesToScore(v *yaml.Node) *int32 {
	if v.Kind == yaml.ScalarNode && v.Value == "adaptive" {
		adaptive := int32(0)
		return &adaptive
	}
	if v.Kind != yaml.ScalarNode {
		p.errorf(v, "scheduler.%s must be adaptive or a whole number from 1 to 100", percentageKey, "")
		return nil
	}
	n := p.integer(v, "scheduler."+percentageKey, 1, 100)
	if n == 0 {
		return nil
	}
	pct := int32(n)
	return &pct
}

// applySchedulerOptions copies the scenario's scheduler options that are
// plain scheduler.Config fields into cfg.
func applySchedulerOptions(cfg *scheduler.Config, percentage *int32) {
	cfg.PercentageOfNodesToScore = percentage
}

// percentageValue is the header value that parses back to p, for saving a
// scenario ("adaptive" or the number).
func percentageValue(p *int32) any {
	if *p == 0 {
		return "adaptive"
	}
	return int(*p)
}

// schedulerConfig maps the scenario's scheduler settings (sc may be nil)
// and the --tie-break override ("" ⇒ the scenario's; random by default)
// to a scheduler.Config, for the running lab and the timeless commands
// alike. The callers add their hooks (PDBs, SpreadSelectors, …).
func schedulerConfig(sc *Scenario, seed int64, tieBreak string) (scheduler.Config, error) {
	cfg := scheduler.Config{Seed: seed}
	if sc != nil {
		if tieBreak == "" {
			tieBreak = sc.Scheduler.TieBreak
		}
		cfg.DefaultingType = sc.Scheduler.DefaultingType
		applySchedulerOptions(&cfg, sc.Scheduler.PercentageOfNodesToScore)
		for _, dc := range sc.Scheduler.DefaultConstraints {
			cfg.DefaultConstraints = append(cfg.DefaultConstraints, api.TopologySpreadConstraint{
				MaxSkew: dc.MaxSkew, TopologyKey: dc.TopologyKey, WhenUnsatisfiable: dc.WhenUnsatisfiable})
		}
	}
	switch tieBreak {
	case "", "random":
		cfg.TieBreak = scheduler.TieBreakRandom
	case "name":
		cfg.TieBreak = scheduler.TieBreakByName
	default:
		return cfg, fmt.Errorf("--tie-break must be random or name, not %q", tieBreak)
	}
	return cfg, nil
}
