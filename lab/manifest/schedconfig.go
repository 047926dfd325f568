package manifest

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

// SchedulerConfigAPIVersion / SchedulerConfigKind identify a
// KubeSchedulerConfiguration document (k8s.io/kube-scheduler/config/v1).
const (
	SchedulerConfigAPIVersion = "kubescheduler.config.k8s.io/v1"
	SchedulerConfigKind       = "KubeSchedulerConfiguration"
)

// SchedulerConfiguration is a decoded, defaulted and validated
// KubeSchedulerConfiguration: the parts that change scheduling decisions.
// The rest (leader election, client connection, parallelism, …) is
// accepted and reported as ignored.
type SchedulerConfiguration struct {
	// PercentageOfNodesToScore is the global value (nil: unset, which the
	// lab reads as "every node", see docs/scheduler.md).
	PercentageOfNodesToScore *int32
	Profiles                 []SchedulerProfile
}

// SchedulerProfile is a KubeSchedulerProfile. SchedulerName is defaulted
// to default-scheduler when the file has a single profile without one.
type SchedulerProfile struct {
	SchedulerName            string
	PercentageOfNodesToScore *int32
	// Plugins are the plugin sets as written, keyed by the v1 field name
	// (SchedulerExtensionPoints); nil when the profile has no plugins.
	Plugins map[string]*SchedulerPluginSet
	// PluginConfig are the args as written and defaulted.
	PluginConfig []PluginConfig
}

// SchedulerExtensionPoints are the v1 Plugins fields in API order.
var SchedulerExtensionPoints = []string{
	"preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score",
	"reserve", "permit", "preBind", "bind", "postBind", "multiPoint",
}

// SchedulerPluginSet is a v1.PluginSet.
type SchedulerPluginSet struct {
	Enabled  []SchedulerPlugin
	Disabled []string
}

// SchedulerPlugin is a v1.Plugin (Weight 0: unset).
type SchedulerPlugin struct {
	Name   string
	Weight int32
}

// PluginConfig is a v1.PluginConfig: exactly one of the args is set for a
// plugin whose args the lab reads; others keep only the name.
type PluginConfig struct {
	Name                            string
	NodeResourcesFit                *NodeResourcesFitArgs
	NodeResourcesBalancedAllocation *BalancedAllocationArgs
	PodTopologySpread               *PodTopologySpreadArgs
	InterPodAffinity                *InterPodAffinityArgs
	NodeAffinity                    *NodeAffinityArgs
	DefaultPreemption               *DefaultPreemptionArgs
}

// NodeResourcesFitArgs is v1.NodeResourcesFitArgs after defaulting.
type NodeResourcesFitArgs struct {
	IgnoredResources      []string
	IgnoredResourceGroups []string
	ScoringStrategy       ScoringStrategy
}

// ScoringStrategy is v1.ScoringStrategy; Shape is
// requestedToCapacityRatio.shape (nil when requestedToCapacityRatio is
// absent).
type ScoringStrategy struct {
	Type      string
	Resources []ResourceSpec
	Shape     []UtilizationShapePoint
	// HasRatio records that requestedToCapacityRatio was given.
	HasRatio bool
}

// ResourceSpec is v1.ResourceSpec.
type ResourceSpec struct {
	Name   string
	Weight int64
}

// UtilizationShapePoint is v1.UtilizationShapePoint.
type UtilizationShapePoint struct {
	Utilization int32
	Score       int32
}

// BalancedAllocationArgs is v1.NodeResourcesBalancedAllocationArgs.
type BalancedAllocationArgs struct {
	Resources []ResourceSpec
}

// PodTopologySpreadArgs is v1.PodTopologySpreadArgs.
type PodTopologySpreadArgs struct {
	DefaultConstraints []api.TopologySpreadConstraint
	DefaultingType     string
}

// InterPodAffinityArgs is v1.InterPodAffinityArgs after defaulting.
type InterPodAffinityArgs struct {
	HardPodAffinityWeight              int32
	IgnorePreferredTermsOfExistingPods bool
}

// NodeAffinityArgs is v1.NodeAffinityArgs.
type NodeAffinityArgs struct {
	AddedAffinity *api.NodeAffinity
}

// DefaultPreemptionArgs is v1.DefaultPreemptionArgs after defaulting.
type DefaultPreemptionArgs struct {
	MinCandidateNodesPercentage int32
	MinCandidateNodesAbsolute   int32
}

// Schemas of the v1 config types: decoded fields, and fields valid upstream
// that do not change decisions in the lab (accepted; the top-level ones
// are reported as ignored).
var (
	schemaSchedConfigTop = newSchema("apiVersion kind percentageOfNodesToScore profiles",
		"parallelism leaderElection clientConnection healthzBindAddress metricsBindAddress enableProfiling enableContentionProfiling podInitialBackoffSeconds podMaxBackoffSeconds extenders delayCacheUntilActive")
	schemaSchedProfile   = newSchema("schedulerName percentageOfNodesToScore plugins pluginConfig", "")
	schemaSchedPlugins   = newSchema("preEnqueue queueSort preFilter filter postFilter preScore score reserve permit preBind bind postBind multiPoint", "placementGenerate placementScore")
	schemaSchedPluginSet = newSchema("enabled disabled", "")
	schemaSchedPlugin    = newSchema("name weight", "")
	schemaPluginConfig   = newSchema("name args", "")
	schemaArgsFit        = newSchema("ignoredResources ignoredResourceGroups scoringStrategy", "apiVersion kind")
	schemaArgsStrategy   = newSchema("type resources requestedToCapacityRatio", "")
	schemaArgsResource   = newSchema("name weight", "")
	schemaArgsRatio      = newSchema("shape", "")
	schemaArgsShapePoint = newSchema("utilization score", "")
	schemaArgsBalanced   = newSchema("resources", "apiVersion kind")
	schemaArgsSpread     = newSchema("defaultConstraints defaultingType", "apiVersion kind")
	schemaArgsIPA        = newSchema("hardPodAffinityWeight ignorePreferredTermsOfExistingPods", "apiVersion kind")
	schemaArgsNodeAff    = newSchema("addedAffinity", "apiVersion kind")
	schemaArgsPreemption = newSchema("minCandidateNodesPercentage minCandidateNodesAbsolute", "apiVersion kind")
	schemaArgsOther      = newSchema("", "apiVersion kind bindTimeoutSeconds shape filterTimeout bindingTimeout")
)

// ignoredTopLevel are the top-level fields reported as not modelled.
var ignoredTopLevel = map[string]string{
	"extenders":                "scheduler extenders are not modelled",
	"podInitialBackoffSeconds": "the lab's queue backs off 1s doubling to 10s, the defaults",
	"podMaxBackoffSeconds":     "the lab's queue backs off 1s doubling to 10s, the defaults",
}

func decodeSchedulerConfig(d *decoder, n *yaml.Node) (any, []fieldError) {
	d.subject = SchedulerConfigKind
	cfg := &SchedulerConfiguration{}
	var notes []fieldError
	ps, _ := d.mapping(n, "")
	for _, kv := range ps {
		if why, ok := ignoredTopLevel[kv.key]; ok && !isNull(kv.value) {
			d.pos[kv.key] = d.at(kv.keyNode)
			notes = append(notes, fieldError{path: kv.key, msg: "ignored: " + why, warning: true, note: true})
		}
	}
	var names []*yaml.Node
	d.fields(n, "", schemaSchedConfigTop, func(key string, v *yaml.Node, path string) {
		switch key {
		case "percentageOfNodesToScore":
			cfg.PercentageOfNodesToScore = d.int32p(v, path)
		case "profiles":
			d.seq(v, path, func(_ int, e *yaml.Node, p string) {
				prof, nameNode := d.schedProfile(e, p)
				names = append(names, nameNode)
				cfg.Profiles = append(cfg.Profiles, prof)
			})
		}
	})
	// defaults.go SetDefaults_KubeSchedulerConfiguration: no profiles is
	// one default profile; a single profile without a name is
	// default-scheduler.
	if len(cfg.Profiles) == 0 {
		cfg.Profiles = []SchedulerProfile{{SchedulerName: api.DefaultSchedulerName}}
		names = append(names, nil)
	}
	if len(cfg.Profiles) == 1 && names[0] == nil {
		cfg.Profiles[0].SchedulerName = api.DefaultSchedulerName
	}
	return cfg, append(notes, validateSchedulerConfig(cfg)...)
}

// schedProfile decodes a profile; nameNode is its schedulerName (nil when
// absent).
func (d *decoder) schedProfile(n *yaml.Node, path string) (prof SchedulerProfile, nameNode *yaml.Node) {
	d.fields(n, path, schemaSchedProfile, func(key string, v *yaml.Node, p string) {
		switch key {
		case "schedulerName":
			nameNode = v
			prof.SchedulerName = d.str(v, p)
		case "percentageOfNodesToScore":
			prof.PercentageOfNodesToScore = d.int32p(v, p)
		case "plugins":
			prof.Plugins = map[string]*SchedulerPluginSet{}
			d.fields(v, p, schemaSchedPlugins, func(point string, v *yaml.Node, p string) {
				set := &SchedulerPluginSet{}
				d.fields(v, p, schemaSchedPluginSet, func(key string, v *yaml.Node, p string) {
					d.seq(v, p, func(_ int, e *yaml.Node, p string) {
						var pl SchedulerPlugin
						d.fields(e, p, schemaSchedPlugin, func(key string, v *yaml.Node, p string) {
							switch key {
							case "name":
								pl.Name = d.str(v, p)
							case "weight":
								pl.Weight, _ = d.int32(v, p)
							}
						})
						if key == "enabled" {
							set.Enabled = append(set.Enabled, pl)
						} else {
							set.Disabled = append(set.Disabled, pl.Name)
						}
					})
				})
				prof.Plugins[point] = set
			})
		case "pluginConfig":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				prof.PluginConfig = append(prof.PluginConfig, d.pluginConfig(e, p))
			})
		}
	})
	return prof, nameNode
}

// pluginConfig decodes one pluginConfig entry; args are decoded by the
// plugin's name (pluginConfig[i].name), as the scheme decodes
// <Name>Args, and defaulted as defaults.go does.
func (d *decoder) pluginConfig(n *yaml.Node, path string) PluginConfig {
	var pc PluginConfig
	var args *yaml.Node
	var argsPath string
	d.fields(n, path, schemaPluginConfig, func(key string, v *yaml.Node, p string) {
		switch key {
		case "name":
			pc.Name = d.str(v, p)
		case "args":
			args, argsPath = v, p
		}
	})
	if args == nil {
		return pc
	}
	switch pc.Name {
	case "NodeResourcesFit":
		pc.NodeResourcesFit = d.fitArgs(args, argsPath)
	case "NodeResourcesBalancedAllocation":
		a := &BalancedAllocationArgs{}
		d.fields(args, argsPath, schemaArgsBalanced, func(_ string, v *yaml.Node, p string) {
			a.Resources = d.resourceSpecs(v, p)
		})
		// SetDefaults_NodeResourcesBalancedAllocationArgs
		if len(a.Resources) == 0 {
			a.Resources = defaultResourceSpecs()
		}
		for i := range a.Resources {
			if a.Resources[i].Weight == 0 {
				a.Resources[i].Weight = 1
			}
		}
		pc.NodeResourcesBalancedAllocation = a
	case "PodTopologySpread":
		a := &PodTopologySpreadArgs{}
		d.fields(args, argsPath, schemaArgsSpread, func(key string, v *yaml.Node, p string) {
			switch key {
			case "defaultConstraints":
				d.seq(v, p, func(_ int, e *yaml.Node, p string) {
					a.DefaultConstraints = append(a.DefaultConstraints, d.spreadConstraint(e, p))
				})
			case "defaultingType":
				a.DefaultingType = d.str(v, p)
			}
		})
		if a.DefaultingType == "" {
			a.DefaultingType = "System"
		}
		pc.PodTopologySpread = a
	case "InterPodAffinity":
		a := &InterPodAffinityArgs{HardPodAffinityWeight: 1}
		d.fields(args, argsPath, schemaArgsIPA, func(key string, v *yaml.Node, p string) {
			switch key {
			case "hardPodAffinityWeight":
				a.HardPodAffinityWeight, _ = d.int32(v, p)
			case "ignorePreferredTermsOfExistingPods":
				a.IgnorePreferredTermsOfExistingPods = d.boolean(v, p)
			}
		})
		pc.InterPodAffinity = a
	case "NodeAffinity":
		a := &NodeAffinityArgs{}
		d.fields(args, argsPath, schemaArgsNodeAff, func(_ string, v *yaml.Node, p string) {
			a.AddedAffinity = d.nodeAffinity(v, p)
		})
		pc.NodeAffinity = a
	case "DefaultPreemption":
		a := &DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100}
		d.fields(args, argsPath, schemaArgsPreemption, func(key string, v *yaml.Node, p string) {
			switch key {
			case "minCandidateNodesPercentage":
				a.MinCandidateNodesPercentage, _ = d.int32(v, p)
			case "minCandidateNodesAbsolute":
				a.MinCandidateNodesAbsolute, _ = d.int32(v, p)
			}
		})
		pc.DefaultPreemption = a
	default:
		d.fields(args, argsPath, schemaArgsOther, func(string, *yaml.Node, string) {})
	}
	return pc
}

func defaultResourceSpecs() []ResourceSpec {
	return []ResourceSpec{{Name: api.ResourceCPU, Weight: 1}, {Name: api.ResourceMemory, Weight: 1}}
}

// fitArgs decodes NodeResourcesFitArgs and defaults them
// (SetDefaults_NodeResourcesFitArgs: LeastAllocated over cpu and memory;
// no resources ⇒ those; weight 0 ⇒ 1).
func (d *decoder) fitArgs(n *yaml.Node, path string) *NodeResourcesFitArgs {
	a := &NodeResourcesFitArgs{}
	given := false
	d.fields(n, path, schemaArgsFit, func(key string, v *yaml.Node, p string) {
		switch key {
		case "ignoredResources":
			a.IgnoredResources = d.strings(v, p)
		case "ignoredResourceGroups":
			a.IgnoredResourceGroups = d.strings(v, p)
		case "scoringStrategy":
			given = true
			s := &a.ScoringStrategy
			d.fields(v, p, schemaArgsStrategy, func(key string, v *yaml.Node, p string) {
				switch key {
				case "type":
					s.Type = d.str(v, p)
				case "resources":
					s.Resources = d.resourceSpecs(v, p)
				case "requestedToCapacityRatio":
					s.HasRatio = true
					d.fields(v, p, schemaArgsRatio, func(_ string, v *yaml.Node, p string) {
						d.seq(v, p, func(_ int, e *yaml.Node, p string) {
							var pt UtilizationShapePoint
							d.fields(e, p, schemaArgsShapePoint, func(key string, v *yaml.Node, p string) {
								switch key {
								case "utilization":
									pt.Utilization, _ = d.int32(v, p)
								case "score":
									pt.Score, _ = d.int32(v, p)
								}
							})
							s.Shape = append(s.Shape, pt)
						})
					})
				}
			})
		}
	})
	if !given {
		a.ScoringStrategy = ScoringStrategy{Type: "LeastAllocated"}
	}
	if len(a.ScoringStrategy.Resources) == 0 {
		a.ScoringStrategy.Resources = defaultResourceSpecs()
	}
	for i := range a.ScoringStrategy.Resources {
		if a.ScoringStrategy.Resources[i].Weight == 0 {
			a.ScoringStrategy.Resources[i].Weight = 1
		}
	}
	return a
}

func (d *decoder) resourceSpecs(n *yaml.Node, path string) []ResourceSpec {
	var out []ResourceSpec
	d.seq(n, path, func(_ int, e *yaml.Node, p string) {
		var r ResourceSpec
		d.fields(e, p, schemaArgsResource, func(key string, v *yaml.Node, p string) {
			switch key {
			case "name":
				r.Name = d.str(v, p)
			case "weight":
				r.Weight, _ = d.int64(v, p)
			}
		})
		out = append(out, r)
	})
	return out
}
