package lab

import (
	"fmt"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/autoscaler"
	"podlab.dev/podlab/lab/manifest"
)

// The scenario header's autoscaler section: cluster-autoscaler's node
// groups and flags (camelCased), e.g.
//
//	autoscaler:
//	  expander: least-waste            # or a chain: [priority, least-waste]
//	  balanceSimilarNodeGroups: true
//	  nodeProvisioningTime: 60s
//	  scaleDownUnneededTime: 10m
//	  nodeGroups:
//	  - {name: pool-a, min: 1, max: 3, zone: zone-a, cpu: "4", memory: 16Gi}
//
// Group nodes are named GROUP-1, GROUP-2, … and labelled
// autoscaler.podlab.dev/node-group=GROUP; scenario nodes carrying that
// label join the group. Each group starts with min nodes (or `size`).

// AutoscalerSpec is the parsed autoscaler section.
type AutoscalerSpec struct {
	Groups  []NodeGroupSpec
	Options autoscaler.Options
	// Node is the raw section, written back as-is when a session is saved.
	Node *yaml.Node
	Pos  manifest.Position
}

// NodeGroupSpec is one node group of the section.
type NodeGroupSpec struct {
	Name string
	Min  int
	Max  int
	// Size is how many nodes the group starts with (default Min).
	Size int
	Zone string
	NodeShape
	Pos manifest.Position
}

var autoscalerKeys = []string{"nodeGroups", "expander", "priorities", "balanceSimilarNodeGroups", "scanInterval",
	"newPodScaleUpDelay", "nodeProvisioningTime", "maxNodesTotal", "scaleDownEnabled", "scaleDownUtilizationThreshold",
	"scaleDownUnneededTime", "scaleDownUnreadyTime", "scaleDownUnreadyEnabled", "scaleDownDelayAfterAdd", "scaleDownDelayAfterDelete", "scaleDownDelayAfterFailure",
	"skipNodesWithSystemPods", "ignoreDaemonSetsUtilization", "maxGracefulTerminationSec", "maxEmptyBulkDelete",
	"expendablePodsPriorityCutoff"}

// autoscalerSpec parses the section.
func (p *scenarioParser) autoscalerSpec(n *yaml.Node) *AutoscalerSpec {
	s := &AutoscalerSpec{Node: n, Pos: p.pos(n)}
	o := &s.Options
	p.fields(n, "autoscaler", autoscalerKeys, func(k string, v *yaml.Node) {
		w := "autoscaler." + k
		switch k {
		case "nodeGroups":
			s.Groups = p.nodeGroups(v)
		case "expander":
			for _, e := range p.strings(v, w) {
				if !knownExpander(e) {
					p.errorf(v, "%s: unknown expander %q", w, e, fmt.Sprintf("expanders are %v", autoscaler.Expanders))
				}
				o.Expander = append(o.Expander, e)
			}
		case "priorities":
			o.Priorities = p.priorities(v, w)
		case "balanceSimilarNodeGroups":
			o.BalanceSimilarNodeGroups = p.boolean(v, w)
		case "scanInterval":
			o.ScanInterval = p.positiveDuration(v, w)
		case "newPodScaleUpDelay":
			o.NewPodScaleUpDelay = p.duration(v, w)
		case "nodeProvisioningTime":
			o.NodeProvisioningTime = p.positiveDuration(v, w)
		case "maxNodesTotal":
			o.MaxNodesTotal = int(p.integer(v, w, 0, MaxNodes))
		case "scaleDownEnabled":
			o.ScaleDownDisabled = !p.boolean(v, w)
		case "scaleDownUtilizationThreshold":
			o.ScaleDownUtilizationThreshold = p.number(v, w, 0.01, 1)
		case "scaleDownUnneededTime":
			o.ScaleDownUnneededTime = p.positiveDuration(v, w)
		case "scaleDownUnreadyTime":
			o.ScaleDownUnreadyTime = p.positiveDuration(v, w)
		case "scaleDownUnreadyEnabled":
			o.ScaleDownUnreadyDisabled = !p.boolean(v, w)
		case "scaleDownDelayAfterAdd":
			o.ScaleDownDelayAfterAdd = p.positiveDuration(v, w)
		case "scaleDownDelayAfterDelete":
			o.ScaleDownDelayAfterDelete = p.positiveDuration(v, w)
		case "scaleDownDelayAfterFailure":
			o.ScaleDownDelayAfterFailure = p.positiveDuration(v, w)
		case "skipNodesWithSystemPods":
			o.SkipNodesWithSystemPodsDisabled = !p.boolean(v, w)
		case "ignoreDaemonSetsUtilization":
			o.IgnoreDaemonSetsUtilization = p.boolean(v, w)
		case "maxGracefulTerminationSec":
			o.MaxGracefulTerminationSec = p.integer(v, w, 1, 1<<31)
		case "maxEmptyBulkDelete":
			o.MaxEmptyBulkDelete = int(p.integer(v, w, 1, MaxNodes))
		case "expendablePodsPriorityCutoff":
			c := int32(p.integer(v, w, -1<<31, 1<<31-1))
			o.ExpendablePodsPriorityCutoff = &c
		}
	})
	if len(s.Groups) == 0 {
		p.errorf(n, "autoscaler needs nodeGroups", "e.g. nodeGroups: [{name: pool-a, min: 1, max: 3, zone: zone-a}]")
	}
	start := 0
	for _, g := range s.Groups {
		start += max(g.Size, g.Min)
	}
	if start > MaxNodes {
		p.errorf(n, "autoscaler.nodeGroups start with %d nodes; the limit is %d (a real cluster's)", start, MaxNodes, "lower min or size")
	}
	return s
}

func knownExpander(e string) bool {
	for _, k := range autoscaler.Expanders {
		if k == e {
			return true
		}
	}
	return false
}

func (p *scenarioParser) positiveDuration(v *yaml.Node, what string) time.Duration {
	d := p.duration(v, what)
	if d == 0 && v.Kind == yaml.ScalarNode && v.Value != "" {
		p.errorf(v, "%s must be longer than 0", what, "")
	}
	return d
}

// priorities is the priority expander's ConfigMap data: priority →
// regular expressions over group names.
func (p *scenarioParser) priorities(n *yaml.Node, what string) map[int][]string {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must map a priority to a list of regular expressions", what, "e.g. {10: [\".*-spot\"], 50: [\"pool-a\"]}")
		return nil
	}
	out := map[int][]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		prio, err := strconv.Atoi(n.Content[i].Value)
		if err != nil {
			p.errorf(n.Content[i], "%s: priority %q must be a whole number", what, n.Content[i].Value, "")
			continue
		}
		out[prio] = p.strings(n.Content[i+1], fmt.Sprintf("%s[%d]", what, prio))
	}
	return out
}

func (p *scenarioParser) nodeGroups(n *yaml.Node) []NodeGroupSpec {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "autoscaler.nodeGroups must be a list", "")
		return nil
	}
	var out []NodeGroupSpec
	seen := map[string]bool{}
	for i, gn := range n.Content {
		where := fmt.Sprintf("autoscaler.nodeGroups[%d]", i)
		g := NodeGroupSpec{Pos: p.pos(gn), Size: -1}
		hasMax := false
		p.fields(gn, where, append([]string{"name", "min", "max", "size", "zone"}, shapeKeys...), func(k string, v *yaml.Node) {
			switch k {
			case "name":
				g.Name = p.str(v, where+".name")
			case "min":
				g.Min = int(p.integer(v, where+".min", 0, MaxNodes))
			case "max":
				g.Max = int(p.integer(v, where+".max", 1, MaxNodes))
				hasMax = true
			case "size":
				g.Size = int(p.integer(v, where+".size", 0, MaxNodes))
			case "zone":
				g.Zone = p.str(v, where+".zone")
			default:
				p.shapeField(k, v, where, &g.NodeShape)
			}
		})
		switch {
		case g.Name == "":
			p.errorf(gn, "%s needs a name", where, "")
		case seen[g.Name]:
			p.errorf(gn, "%s: node group %q is declared twice", where, g.Name, "give each group its own name")
		case checkGroupName(g.Name) != nil:
			p.errorf(gn, "%s: %v", where, checkGroupName(g.Name), "")
		}
		seen[g.Name] = true
		if !hasMax {
			p.errorf(gn, "%s needs max", where, "the largest number of nodes the group may have")
		}
		if hasMax && g.Min > g.Max {
			p.errorf(gn, "%s: min %d is above max %d", where, g.Min, g.Max, "")
		}
		if g.Size >= 0 && hasMax && (g.Size < g.Min || g.Size > g.Max) {
			p.errorf(gn, "%s: size %d must be between min %d and max %d", where, g.Size, g.Min, g.Max, "")
		}
		out = append(out, g)
	}
	return out
}

// checkGroupName accepts names that make valid node names (GROUP-N).
func checkGroupName(name string) error {
	if len(name) > 50 {
		return fmt.Errorf("node group name %q is longer than 50 characters", name)
	}
	for i, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || (r == '-' && i > 0 && i < len(name)-1)
		if !ok {
			return fmt.Errorf("node group name %q must be lower-case letters, digits and inner '-'", name)
		}
	}
	return nil
}

// buildAutoscaler makes the engine's autoscaler from the scenario (nil
// when the scenario has none).
func (s *Session) buildAutoscaler() error {
	s.autoscaler = nil
	sc := s.file.Scenario
	if sc == nil || sc.Autoscaler == nil {
		return nil
	}
	zoneLabel := sc.Cluster.zoneLabel()
	var groups []autoscaler.NodeGroup
	for _, g := range sc.Autoscaler.Groups {
		t, err := NewNode(g.Name, zoneLabel, g.Zone, g.NodeShape)
		if err != nil {
			return fmt.Errorf("%s: node group %s: %w", g.Pos, g.Name, err)
		}
		groups = append(groups, autoscaler.NodeGroup{Name: g.Name, Min: g.Min, Max: g.Max, Template: t})
	}
	cfg, err := schedulerConfig(sc, s.seed, s.opts.TieBreak)
	if err != nil {
		return err
	}
	cfg.SpreadSelectors = s.ownerSelector
	a, err := autoscaler.New(groups, sc.Autoscaler.Options, cfg, zoneLabel, s.seed)
	if err != nil {
		return fmt.Errorf("%s: autoscaler: %w", sc.Autoscaler.Pos, err)
	}
	s.autoscaler = a
	return nil
}

// addGroupNodes adds each group's starting nodes (size, default min),
// counting the scenario nodes already labelled into the group.
func (s *Session) addGroupNodes() error {
	if s.autoscaler == nil {
		return nil
	}
	want := map[string]int{}
	for _, g := range s.file.Scenario.Autoscaler.Groups {
		want[g.Name] = g.Size
	}
	have := map[string]int{}
	for _, n := range s.eng.Nodes() {
		have[n.Labels[autoscaler.NodeGroupLabel]]++
	}
	for _, g := range s.autoscaler.Groups() {
		size := want[g.Name]
		if size < 0 {
			size = g.Min
		}
		for have[g.Name] < size {
			n := s.autoscaler.NewGroupNode(g.Name)
			for s.eng.Node(n.Name) != nil { // a scenario node took the name
				n = s.autoscaler.NewGroupNode(g.Name)
			}
			if err := s.eng.AddNode(n); err != nil {
				return fmt.Errorf("%s: node group %s: %w", s.file.Scenario.Autoscaler.Pos, g.Name, err)
			}
			have[g.Name]++
		}
	}
	return nil
}

// startAutoscaler registers the autoscaler once the scenario is loaded
// and the workload controllers run.
func (s *Session) startAutoscaler() {
	if s.autoscaler != nil {
		s.eng.AddController(s.autoscaler)
	}
}

// Autoscaler returns the cluster autoscaler (nil when the scenario
// declares none).
func (s *Session) Autoscaler() *autoscaler.Autoscaler { return s.autoscaler }
