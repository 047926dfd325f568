package lab

import (
	"fmt"
	"path/filepath"
	"podlab.dev/podlab/lab/textsafe"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
	"podlab.dev/podlab/lab/manifest"
)

// A scenario's scheduler policy is a KubeSchedulerConfiguration
// (kubescheduler.config.k8s.io/v1), the file a cluster operator passes to
// kube-scheduler --config. It comes from, in order of precedence:
//
//   - `--scheduler-config FILE` on the command line (File.UseSchedulerConfigFile);
//   - `scheduler.configFile: FILE` in the lab header, relative to the scenario;
//   - a KubeSchedulerConfiguration document in the scenario itself.
//
// Without one the lab runs the default profile with the header's
// PodTopologySpread defaults, as before.

// configFileKey is the header key naming a configuration file.
const configFileKey = "configFile"

// schedulerConfigOf picks the file's KubeSchedulerConfiguration document
// (at most one).
func schedulerConfigOf(name string, objs *manifest.Objects) (*manifest.SchedulerConfiguration, error) {
	switch len(objs.SchedulerConfigs) {
	case 0:
		return nil, nil
	case 1:
		cfg := objs.SchedulerConfigs[0]
		if err := checkSchedulerConfig(cfg, objs.PosOf(cfg)); err != nil {
			return nil, err
		}
		return cfg, nil
	}
	pos := objs.PosOf(objs.SchedulerConfigs[1])
	return nil, &manifest.Error{Diagnostics: []manifest.Diagnostic{{File: pos.File, Line: pos.Line, Col: pos.Col,
		Severity: manifest.SeverityError, Message: "a scenario holds at most one " + manifest.SchedulerConfigKind,
		Hint: "merge the profiles into one document"}}}
}

// UseSchedulerConfigFile loads a KubeSchedulerConfiguration file (relative
// to the working directory) and makes it the file's policy, replacing the
// one the scenario has (`--scheduler-config`).
func (f *File) UseSchedulerConfigFile(path string) error {
	cfg, err := loadSchedulerConfigFile(path)
	if err != nil {
		return err
	}
	if err := checkSchedulerConfig(cfg, manifest.Position{File: filepath.Base(path), Line: 1, Col: 1}); err != nil {
		return err
	}
	f.SchedulerConfig = cfg
	return nil
}

// loadSchedulerConfigFile reads a file holding exactly one
// KubeSchedulerConfiguration document.
func loadSchedulerConfigFile(path string) (*manifest.SchedulerConfiguration, error) {
	data, name, err := ReadFile(path, nil)
	if err != nil {
		return nil, fmt.Errorf("scheduler configuration: %w", err)
	}
	objs, err := manifest.Load(name, data, manifest.Options{})
	if err != nil {
		return nil, err
	}
	cfg, err := schedulerConfigOf(name, objs)
	if err != nil {
		return nil, err
	}
	if cfg == nil || len(objs.Order) != 1 {
		return nil, fmt.Errorf("%s: want exactly one %s document (apiVersion: %s)", name, manifest.SchedulerConfigKind, manifest.SchedulerConfigAPIVersion)
	}
	return cfg, nil
}

// resolveSchedulerConfig loads the header's scheduler.configFile relative
// to the scenario's directory (Open calls it once Dir is known).
func (f *File) resolveSchedulerConfig() error {
	sc := f.Scenario
	if sc == nil || sc.Scheduler.ConfigFile == "" {
		return nil
	}
	if f.SchedulerConfig != nil {
		p := sc.Scheduler.ConfigFilePos
		return &manifest.Error{Diagnostics: []manifest.Diagnostic{{File: p.File, Line: p.Line, Col: p.Col, Severity: manifest.SeverityError,
			Message: "scheduler.configFile and a " + manifest.SchedulerConfigKind + " document in the scenario: give one",
			Hint:    "drop one of them"}}}
	}
	path := sc.Scheduler.ConfigFile
	if !filepath.IsAbs(path) && f.Dir != "" {
		path = filepath.Join(f.Dir, path)
	}
	cfg, err := loadSchedulerConfigFile(path)
	if err != nil {
		return err
	}
	if err := checkSchedulerConfig(cfg, sc.Scheduler.ConfigFilePos); err != nil {
		return err
	}
	f.SchedulerConfig = cfg
	return nil
}

// checkSchedulerConfig builds the profiles once over an empty cluster, so
// what only the framework's construction finds (a plugin at an extension
// point it does not implement, a plugin registered twice) is reported when
// the file loads rather than when the lab starts.
func checkSchedulerConfig(cfg *manifest.SchedulerConfiguration, at manifest.Position) error {
	if cfg == nil {
		return nil
	}
	c := scheduler.Config{Profiles: profilesOf(cfg, nil)}
	if _, err := scheduler.Build(c, framework.NewSnapshot()); err != nil {
		return &manifest.Error{Diagnostics: []manifest.Diagnostic{{File: at.File, Line: at.Line, Col: at.Col, Severity: manifest.SeverityError,
			Message: manifest.SchedulerConfigKind + ": " + err.Error(), Hint: "see the profile's plugins"}}}
	}
	return nil
}

// applySchedulerConfiguration puts the configuration's profiles into cfg.
// The header's PodTopologySpread defaults apply to profiles that give no
// PodTopologySpread args; the header's percentageOfNodesToScore wins over
// the configuration's global one.
func applySchedulerConfiguration(cfg *scheduler.Config, c *manifest.SchedulerConfiguration) {
	if c == nil {
		return
	}
	header := &scheduler.SpreadArgs{DefaultConstraints: cfg.DefaultConstraints, DefaultingType: cfg.DefaultingType}
	cfg.Profiles = profilesOf(c, header)
	if cfg.PercentageOfNodesToScore == nil && c.PercentageOfNodesToScore != nil {
		p := *c.PercentageOfNodesToScore
		cfg.PercentageOfNodesToScore = &p
	}
}

// profilesOf converts the decoded profiles to the engine's; spread is the
// PodTopologySpread args of profiles without their own (nil: System).
func profilesOf(c *manifest.SchedulerConfiguration, spread *scheduler.SpreadArgs) []scheduler.ProfileConfig {
	out := make([]scheduler.ProfileConfig, 0, len(c.Profiles))
	for i := range c.Profiles {
		mp := &c.Profiles[i]
		pc := scheduler.ProfileConfig{SchedulerName: mp.SchedulerName, PercentageOfNodesToScore: mp.PercentageOfNodesToScore}
		if mp.Plugins != nil {
			pc.Plugins = &scheduler.Plugins{}
			for point, set := range mp.Plugins {
				to := pc.Plugins.Set(point)
				if to == nil || set == nil {
					continue
				}
				for _, p := range set.Enabled {
					to.Enabled = append(to.Enabled, scheduler.PluginRef{Name: p.Name, Weight: p.Weight})
				}
				to.Disabled = append(to.Disabled, set.Disabled...)
			}
		}
		if spread != nil && (len(spread.DefaultConstraints) > 0 || spread.DefaultingType != "") {
			pc.Args.PodTopologySpread = spread
		}
		for _, arg := range mp.PluginConfig {
			setArgs(&pc.Args, &arg)
		}
		out = append(out, pc)
	}
	return out
}

// setArgs converts one plugin's args.
func setArgs(to *scheduler.PluginArgs, pc *manifest.PluginConfig) {
	switch {
	case pc.NodeResourcesFit != nil:
		a := pc.NodeResourcesFit
		s := a.ScoringStrategy
		fit := noderesources.FitArgs{
			IgnoredResources:      append([]string(nil), a.IgnoredResources...),
			IgnoredResourceGroups: append([]string(nil), a.IgnoredResourceGroups...),
			ScoringStrategy:       noderesources.ScoringStrategy{Type: s.Type, Resources: resourceSpecs(s.Resources)},
		}
		for _, pt := range s.Shape {
			fit.ScoringStrategy.Shape = append(fit.ScoringStrategy.Shape, noderesources.ShapePoint{Utilization: pt.Utilization, Score: pt.Score})
		}
		to.NodeResourcesFit = &fit
	case pc.NodeResourcesBalancedAllocation != nil:
		to.NodeResourcesBalancedAllocation = &noderesources.BalancedAllocationArgs{Resources: resourceSpecs(pc.NodeResourcesBalancedAllocation.Resources)}
	case pc.PodTopologySpread != nil:
		a := pc.PodTopologySpread
		to.PodTopologySpread = &scheduler.SpreadArgs{DefaultingType: a.DefaultingType, DefaultConstraints: append([]api.TopologySpreadConstraint(nil), a.DefaultConstraints...)}
	case pc.InterPodAffinity != nil:
		to.InterPodAffinity = &interpodaffinity.Args{HardPodAffinityWeight: pc.InterPodAffinity.HardPodAffinityWeight,
			IgnorePreferredTermsOfExistingPods: pc.InterPodAffinity.IgnorePreferredTermsOfExistingPods}
	case pc.NodeAffinity != nil:
		to.NodeAffinity = &nodeaffinity.Args{AddedAffinity: pc.NodeAffinity.AddedAffinity}
	case pc.DefaultPreemption != nil:
		to.DefaultPreemption = &scheduler.PreemptionArgs{MinCandidateNodesPercentage: pc.DefaultPreemption.MinCandidateNodesPercentage,
			MinCandidateNodesAbsolute: pc.DefaultPreemption.MinCandidateNodesAbsolute}
	}
}

func resourceSpecs(rs []manifest.ResourceSpec) []noderesources.ResourceSpec {
	out := make([]noderesources.ResourceSpec, len(rs))
	for i, r := range rs {
		out[i] = noderesources.ResourceSpec{Name: r.Name, Weight: r.Weight}
	}
	return out
}

// SchedulerProfiles converts a KubeSchedulerConfiguration's profiles to
// the engine's (nil for nil: the default profile), for tools that build a
// scheduler themselves (the conformance harness).
func SchedulerProfiles(c *manifest.SchedulerConfiguration) []scheduler.ProfileConfig {
	if c == nil {
		return nil
	}
	return profilesOf(c, nil)
}

// SchedulerPolicy names the policy in force for the header: the profiles'
// scheduler names when a KubeSchedulerConfiguration (or `set scheduler`)
// is in force, nil with the built-in default profile.
func (s *Session) SchedulerPolicy() []string {
	if s.policy == nil {
		return nil
	}
	out := make([]string, len(s.policy.Profiles))
	for i, p := range s.policy.Profiles {
		out[i] = p.SchedulerName
	}
	return out
}

// PolicyLabel is the header's note of the scheduler policy: "" with the
// built-in default profile, else "profiles a, b" (sanitized).
func (s *Session) PolicyLabel() string {
	names := s.SchedulerPolicy()
	if len(names) == 0 {
		return ""
	}
	for i := range names {
		names[i] = textsafe.Line(names[i])
	}
	if len(names) == 1 {
		return "profile " + names[0]
	}
	return "profiles " + strings.Join(names, ", ")
}
