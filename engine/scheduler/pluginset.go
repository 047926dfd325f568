package scheduler

import "podlab.dev/podlab/engine/scheduler/framework"

// Score plugins of the default profile that the lab does not model: with
// no volumes or resource claims they score 0 on every node upstream, and
// they are listed (with their weights) so totals and weights match a real
// scheduler's output.
const (
	VolumeBindingName    = "VolumeBinding"
	DynamicResourcesName = "DynamicResources"
)

// profile is one scheduling profile: the plugins of each extension point
// in configuration order (upstream frameworkImpl's per-point lists, filled
// from the MultiPoint list by interface).
type profile struct {
	// preEnqueue run when the pod enters activeQ (the queue's gate).
	preEnqueue []framework.PreEnqueuePlugin
	preFilter  []framework.PreFilterPlugin
	filter     []framework.FilterPlugin
	preScore   []framework.PreScorePlugin
	score      []weightedScorePlugin
	explainers []framework.Explainer
	// weights holds every score plugin of the profile, including the
	// unmodelled ones that always score 0.
	weights map[string]int64
	// scoreNames lists every score plugin name (modelled or not) in
	// profile order, for explain output.
	scoreNames []string
	// filterIndex maps a filter plugin name to its position in filter.
	filterIndex map[string]int

	// name is the profile's scheduler name; config what it was built
	// from (nil for test profiles).
	name   string
	config *ProfileConfig
	// policy describes how the profile differs from the default one
	// (describeProfile).
	policy []string
	// percentage is the profile's percentageOfNodesToScore in force.
	percentage *int32
	// postFilter runs preemption for an unschedulable pod (nil: none).
	postFilter postFilterFunc
}

// assembleProfile lays the modelled plugins out per extension point in the
// expanded profile's order. Plugins the lab does not model are left out
// (they pass every node and score 0) but keep their score weights. The
// lab's plugins that compute state in a PreFilter (or PreScore) upstream
// does not have run it whenever their Filter (Score) runs: PreFilters
// first, as they only prepare, PreScores last.
func assembleProfile(ep *expandedProfile, plugins map[string]framework.Plugin) *profile {
	p := &profile{weights: map[string]int64{}, filterIndex: map[string]int{}}
	seen := map[string]bool{}
	explain := func(pl framework.Plugin) {
		if x, ok := pl.(framework.Explainer); ok && !seen[pl.Name()] {
			seen[pl.Name()] = true
			p.explainers = append(p.explainers, x)
		}
	}
	for _, name := range ep.points[ptPreEnqueue] {
		if x, ok := plugins[name].(framework.PreEnqueuePlugin); ok {
			p.preEnqueue = append(p.preEnqueue, x)
		}
	}
	for _, name := range ep.points[ptFilter] {
		if x, ok := plugins[name].(framework.PreFilterPlugin); ok && registry[name]&ptPreFilter == 0 {
			p.preFilter = append(p.preFilter, x)
		}
	}
	for _, name := range ep.points[ptPreFilter] {
		if x, ok := plugins[name].(framework.PreFilterPlugin); ok {
			p.preFilter = append(p.preFilter, x)
		}
	}
	for _, name := range ep.points[ptFilter] {
		if x, ok := plugins[name].(framework.FilterPlugin); ok {
			p.filterIndex[name] = len(p.filter)
			p.filter = append(p.filter, x)
			explain(plugins[name])
		}
	}
	for _, name := range ep.points[ptPreScore] {
		if x, ok := plugins[name].(framework.PreScorePlugin); ok {
			p.preScore = append(p.preScore, x)
		}
	}
	for _, name := range ep.points[ptScore] {
		if x, ok := plugins[name].(framework.PreScorePlugin); ok && registry[name]&ptPreScore == 0 {
			p.preScore = append(p.preScore, x)
		}
	}
	for _, name := range ep.points[ptScore] {
		w := ep.weights[name]
		p.weights[name] = w
		p.scoreNames = append(p.scoreNames, name)
		if x, ok := plugins[name].(framework.ScorePlugin); ok {
			p.score = append(p.score, weightedScorePlugin{ScorePlugin: x, weight: w})
			explain(plugins[name])
		}
	}
	return p
}

type weightedScorePlugin struct {
	framework.ScorePlugin
	weight int64
}

// newProfile sorts plugins into extension points by the interfaces they
// implement, keeping their order, as frameworkImpl.expandMultiPointPlugins
// does. weights names the score plugins' weights; a score plugin without
// one gets weight 1 (upstream's default for an unset MultiPoint weight).
// Names in weights without a plugin are unmodelled score plugins.
func newProfile(plugins []framework.Plugin, weights map[string]int64, scoreOrder []string) *profile {
	p := &profile{weights: map[string]int64{}, filterIndex: map[string]int{}}
	for _, pl := range plugins {
		if x, ok := pl.(framework.PreEnqueuePlugin); ok {
			p.preEnqueue = append(p.preEnqueue, x)
		}
		if x, ok := pl.(framework.PreFilterPlugin); ok {
			p.preFilter = append(p.preFilter, x)
		}
		if x, ok := pl.(framework.FilterPlugin); ok {
			p.filterIndex[pl.Name()] = len(p.filter)
			p.filter = append(p.filter, x)
		}
		if x, ok := pl.(framework.PreScorePlugin); ok {
			p.preScore = append(p.preScore, x)
		}
		if x, ok := pl.(framework.ScorePlugin); ok {
			w, ok := weights[pl.Name()]
			if !ok || w == 0 {
				w = 1
			}
			p.score = append(p.score, weightedScorePlugin{ScorePlugin: x, weight: w})
			p.weights[pl.Name()] = w
		}
		if x, ok := pl.(framework.Explainer); ok {
			p.explainers = append(p.explainers, x)
		}
	}
	for name, w := range weights {
		if _, ok := p.weights[name]; !ok {
			p.weights[name] = w
		}
	}
	seen := map[string]bool{}
	for _, name := range scoreOrder {
		if _, ok := p.weights[name]; ok && !seen[name] {
			p.scoreNames = append(p.scoreNames, name)
			seen[name] = true
		}
	}
	for _, sp := range p.score {
		if !seen[sp.Name()] {
			p.scoreNames = append(p.scoreNames, sp.Name())
			seen[sp.Name()] = true
		}
	}
	return p
}
