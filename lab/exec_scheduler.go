package lab

import (
	"fmt"
	"strconv"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// setScheduler applies `set scheduler`: it edits a copy of the policy in
// force (the scenario's KubeSchedulerConfiguration, or the default one),
// validates it as a file would be, and restarts the scheduler with it
// (engine.SetScheduler). Undo replays from the scenario's policy; save
// keeps the command in the timeline, so a saved lab replays it.
func (s *Session) setScheduler(c command.SetScheduler) (string, error) {
	var next *manifest.SchedulerConfiguration
	if c.Action == "reset" {
		next = s.file.SchedulerConfig
	} else {
		next = s.policy.Clone()
		if next == nil {
			next = manifest.DefaultSchedulerConfiguration()
		}
		if c.Action == "add-profile" {
			// validation reports a name that exists (Duplicate value)
			next.Profiles = append(next.Profiles, manifest.SchedulerProfile{SchedulerName: c.Profile})
		} else {
			prof, err := profileNamed(next, c.Profile)
			if err != nil {
				return "", err
			}
			if err := editProfile(prof, c); err != nil {
				return "", err
			}
		}
		if err := manifest.ValidateSchedulerConfiguration(next); err != nil {
			return "", fmt.Errorf("set scheduler: %w", err)
		}
		if _, err := scheduler.Build(scheduler.Config{Profiles: profilesOf(next, nil)}, framework.NewSnapshot()); err != nil {
			return "", fmt.Errorf("set scheduler: %w", err)
		}
	}
	s.policy = next
	cfg := s.schedBase
	applySchedulerConfiguration(&cfg, s.policy)
	s.eng.SetScheduler(s.schedulerFactory(cfg))
	s.use(s.eng, s.ctl) // the new scheduler explains from now on
	if c.Action == "reset" {
		return "scheduler policy reset to the scenario's", nil
	}
	return "scheduler: " + strings.TrimPrefix(c.String(), "set scheduler "), nil
}

// profileNamed finds a profile by scheduler name ("" ⇒ the first).
func profileNamed(cfg *manifest.SchedulerConfiguration, name string) (*manifest.SchedulerProfile, error) {
	if name == "" {
		return &cfg.Profiles[0], nil
	}
	var names []string
	for i := range cfg.Profiles {
		if cfg.Profiles[i].SchedulerName == name {
			return &cfg.Profiles[i], nil
		}
		names = append(names, cfg.Profiles[i].SchedulerName)
	}
	return nil, fmt.Errorf("no profile %q: profiles are %s", name, strings.Join(names, ", "))
}

// editProfile applies one `set scheduler` change to a profile.
func editProfile(p *manifest.SchedulerProfile, c command.SetScheduler) error {
	switch c.Action {
	case "weight":
		if !scheduler.IsScorePlugin(c.Plugin) {
			return fmt.Errorf("%s is not a score plugin: weights are for %s", c.Plugin, strings.Join(scorePlugins(), ", "))
		}
		// an entry naming a default plugin replaces it in place
		// (mergePluginSet); a score-point entry takes precedence, so
		// update one if the profile has it
		setWeight(p.Set("multiPoint"), c.Plugin, c.Weight)
		if sc := p.Plugins["score"]; sc != nil {
			for i := range sc.Enabled {
				if sc.Enabled[i].Name == c.Plugin {
					sc.Enabled[i].Weight = c.Weight
				}
			}
		}
	case "disable":
		if err := knownPlugin(c.Plugin); err != nil {
			return err
		}
		mp := p.Set("multiPoint")
		mp.Disabled = appendOnce(mp.Disabled, c.Plugin)
		for _, set := range p.Plugins {
			set.Enabled = withoutPlugin(set.Enabled, c.Plugin)
		}
	case "enable":
		if err := knownPlugin(c.Plugin); err != nil {
			return err
		}
		wasDisabled := false
		for _, set := range p.Plugins {
			before := len(set.Disabled)
			set.Disabled = withoutName(set.Disabled, c.Plugin)
			wasDisabled = wasDisabled || len(set.Disabled) != before
		}
		if !wasDisabled && !inDefaultProfile(c.Plugin) {
			mp := p.Set("multiPoint")
			if len(withoutPlugin(mp.Enabled, c.Plugin)) == len(mp.Enabled) {
				mp.Enabled = append(mp.Enabled, manifest.SchedulerPlugin{Name: c.Plugin})
			}
		}
	default:
		for _, kv := range c.Fields {
			if err := setSchedulerField(p, kv.Key, kv.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

func setSchedulerField(p *manifest.SchedulerProfile, key, value string) error {
	switch key {
	case "scoringStrategy":
		fit := p.Args("NodeResourcesFit").NodeResourcesFit
		fit.ScoringStrategy.Type = value
		if value != "RequestedToCapacityRatio" {
			fit.ScoringStrategy.HasRatio, fit.ScoringStrategy.Shape = false, nil
		}
	case "shape":
		fit := p.Args("NodeResourcesFit").NodeResourcesFit
		shape, err := parseShape(value)
		if err != nil {
			return err
		}
		fit.ScoringStrategy.Shape, fit.ScoringStrategy.HasRatio = shape, true
	case "resources":
		fit := p.Args("NodeResourcesFit").NodeResourcesFit
		rs, err := parseResourceWeights(value)
		if err != nil {
			return err
		}
		fit.ScoringStrategy.Resources = rs
	case "hardPodAffinityWeight":
		n, err := strconv.ParseInt(value, 10, 32)
		if err != nil {
			return fmt.Errorf("hardPodAffinityWeight=%q: give a whole number", value)
		}
		p.Args("InterPodAffinity").InterPodAffinity.HardPodAffinityWeight = int32(n)
	case "ignorePreferredTermsOfExistingPods":
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("ignorePreferredTermsOfExistingPods=%q: give true or false", value)
		}
		p.Args("InterPodAffinity").InterPodAffinity.IgnorePreferredTermsOfExistingPods = b
	case "percentageOfNodesToScore":
		n := int64(0)
		if value != "adaptive" {
			var err error
			if n, err = strconv.ParseInt(value, 10, 32); err != nil {
				return fmt.Errorf("percentageOfNodesToScore=%q: give adaptive or a whole number 1..100", value)
			}
		}
		pct := int32(n)
		p.PercentageOfNodesToScore = &pct
	}
	return nil
}

// parseShape reads "U:S,U:S" (utilization 0..100 : score 0..10).
func parseShape(v string) ([]manifest.UtilizationShapePoint, error) {
	var out []manifest.UtilizationShapePoint
	for _, pt := range strings.Split(v, ",") {
		u, sc, ok := strings.Cut(pt, ":")
		un, err1 := strconv.ParseInt(u, 10, 32)
		sn, err2 := strconv.ParseInt(sc, 10, 32)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("shape %q: give utilization:score points, e.g. shape=0:0,100:10", v)
		}
		out = append(out, manifest.UtilizationShapePoint{Utilization: int32(un), Score: int32(sn)})
	}
	return out, nil
}

// parseResourceWeights reads "cpu:W,memory:W".
func parseResourceWeights(v string) ([]manifest.ResourceSpec, error) {
	var out []manifest.ResourceSpec
	for _, r := range strings.Split(v, ",") {
		name, w, ok := strings.Cut(r, ":")
		if !ok {
			name, w = r, "1"
		}
		n, err := strconv.ParseInt(w, 10, 64)
		if name == "" || err != nil {
			return nil, fmt.Errorf("resources %q: give name:weight pairs, e.g. resources=cpu:2,memory:1", v)
		}
		out = append(out, manifest.ResourceSpec{Name: name, Weight: n})
	}
	return out, nil
}

func setWeight(set *manifest.SchedulerPluginSet, plugin string, w int32) {
	for i := range set.Enabled {
		if set.Enabled[i].Name == plugin {
			set.Enabled[i].Weight = w
			return
		}
	}
	set.Enabled = append(set.Enabled, manifest.SchedulerPlugin{Name: plugin, Weight: w})
	set.Disabled = withoutName(set.Disabled, plugin)
}

func knownPlugin(name string) error {
	for _, n := range scheduler.RegisteredPlugins() {
		if n == name {
			return nil
		}
	}
	return fmt.Errorf("unknown plugin %q: plugins are %s", name, strings.Join(scheduler.RegisteredPlugins(), ", "))
}

func inDefaultProfile(name string) bool {
	for _, n := range scheduler.DefaultProfilePlugins() {
		if n == name {
			return true
		}
	}
	return false
}

func scorePlugins() []string {
	var out []string
	for _, n := range scheduler.RegisteredPlugins() {
		if scheduler.IsScorePlugin(n) {
			out = append(out, n)
		}
	}
	return out
}

func appendOnce(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

func withoutName(list []string, v string) []string {
	out := list[:0:0]
	for _, x := range list {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}

func withoutPlugin(list []manifest.SchedulerPlugin, v string) []manifest.SchedulerPlugin {
	out := list[:0:0]
	for _, x := range list {
		if x.Name != v {
			out = append(out, x)
		}
	}
	return out
}

// applyScheduling is `apply -f` of what only the scheduler reads: a
// Service (its selector feeds the spreading defaults) or a
// KubeSchedulerConfiguration (it replaces the policy, as restarting
// kube-scheduler with a new --config would).
func (s *Session) applyScheduling(obj any) (string, error) {
	switch v := obj.(type) {
	case *api.Service:
		key := v.Namespace + "/" + v.Name
		_, exists := s.services[key]
		s.services[key] = v
		if exists {
			return "service/" + v.Name + " configured", nil
		}
		return "service/" + v.Name + " created", nil
	case *manifest.SchedulerConfiguration:
		if _, err := scheduler.Build(scheduler.Config{Profiles: profilesOf(v, nil)}, framework.NewSnapshot()); err != nil {
			return "", fmt.Errorf("apply: %w", err)
		}
		s.policy = v
		cfg := s.schedBase
		applySchedulerConfiguration(&cfg, s.policy)
		s.eng.SetScheduler(s.schedulerFactory(cfg))
		s.use(s.eng, s.ctl)
		return "kubeschedulerconfiguration configured", nil
	}
	return "", fmt.Errorf("%T: not a scheduling object", obj)
}
