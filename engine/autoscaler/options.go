package autoscaler

import (
	"fmt"
	"regexp"
	"time"

	"podlab.dev/podlab/engine/api"
)

// NodeGroupLabel marks a node as a member of a node group: nodes the
// autoscaler creates carry it, and scenario nodes carrying it join the
// group (a cloud provider knows its instances; the lab uses a label).
const NodeGroupLabel = "autoscaler.podlab.dev/node-group"

// ToBeDeletedTaint is the taint CA puts on a node it is removing
// (utils/taints: ToBeDeletedByClusterAutoscaler, value the Unix time).
const ToBeDeletedTaint = "ToBeDeletedByClusterAutoscaler"

// ScaleDownDisabledAnnotation keeps a node from scale-down
// (core/scaledown/eligibility/eligibility.go ScaleDownDisabledKey).
const ScaleDownDisabledAnnotation = "cluster-autoscaler.kubernetes.io/scale-down-disabled"

// SafeToEvictAnnotation ("true" lifts the not-replicated and kube-system
// rules; "false" blocks the node) — utils/drain PodSafeToEvictKey.
const SafeToEvictAnnotation = "cluster-autoscaler.kubernetes.io/safe-to-evict"

// NodeGroup is one autoscaled group of identical nodes (a cloud
// provider's ASG, MIG or node pool).
type NodeGroup struct {
	Name string
	Min  int
	Max  int
	// Template is the node a new member registers as: labels (zone
	// included), taints, capacity and allocatable. Its name is replaced.
	Template *api.Node
}

// Expander names (the --expander flag's values).
const (
	ExpanderRandom     = "random"
	ExpanderMostPods   = "most-pods"
	ExpanderLeastWaste = "least-waste"
	ExpanderLeastNodes = "least-nodes"
	ExpanderPriority   = "priority"
)

// Expanders lists the expanders the lab implements.
var Expanders = []string{ExpanderRandom, ExpanderMostPods, ExpanderLeastWaste, ExpanderLeastNodes, ExpanderPriority}

// Options are the cluster-autoscaler flags the lab honours. The zero
// value of a field means upstream's default (DefaultOptions), except
// NodeProvisioningTime, which is the lab's model of the cloud provider.
type Options struct {
	// Expander is the --expander chain, e.g. ["least-waste", "random"];
	// empty means random.
	Expander []string
	// Priorities is the priority expander's ConfigMap
	// (cluster-autoscaler-priority-expander): priority → regular
	// expressions over node group names; the highest wins.
	Priorities map[int][]string
	// BalanceSimilarNodeGroups is --balance-similar-node-groups.
	BalanceSimilarNodeGroups bool
	// ScanInterval is --scan-interval (10 s): how often the loop runs.
	ScanInterval time.Duration
	// NewPodScaleUpDelay is --new-pod-scale-up-delay (0 s): pods younger
	// than this are not considered for scale-up.
	NewPodScaleUpDelay time.Duration
	// NodeProvisioningTime is how long the cloud takes from a scale-up to
	// the node registering Ready (the lab's model; default 60 s).
	NodeProvisioningTime time.Duration
	// MaxNodesTotal is --max-nodes-total (0: no limit).
	MaxNodesTotal int
	// ScaleDownDisabled turns --scale-down-enabled off.
	ScaleDownDisabled bool
	// ScaleDownUtilizationThreshold is --scale-down-utilization-threshold
	// (0.5): a node whose max(cpu, memory) requests/allocatable is below it
	// is a scale-down candidate.
	ScaleDownUtilizationThreshold float64
	// ScaleDownUnneededTime is --scale-down-unneeded-time (10 m).
	ScaleDownUnneededTime time.Duration
	// ScaleDownUnreadyTime is --scale-down-unready-time (20 m): how long an
	// unready node must be unneeded.
	ScaleDownUnreadyTime time.Duration
	// ScaleDownUnreadyDisabled turns --scale-down-unready-enabled (true) off.
	ScaleDownUnreadyDisabled bool
	// ScaleDownDelayAfterAdd is --scale-down-delay-after-add (10 m).
	ScaleDownDelayAfterAdd time.Duration
	// ScaleDownDelayAfterDelete is --scale-down-delay-after-delete
	// (default: the scan interval).
	ScaleDownDelayAfterDelete time.Duration
	// ScaleDownDelayAfterFailure is --scale-down-delay-after-failure (3 m).
	ScaleDownDelayAfterFailure time.Duration
	// SkipNodesWithSystemPodsDisabled turns --skip-nodes-with-system-pods
	// (true) off.
	SkipNodesWithSystemPodsDisabled bool
	// IgnoreDaemonSetsUtilization is --ignore-daemonsets-utilization.
	IgnoreDaemonSetsUtilization bool
	// MaxGracefulTerminationSec is --max-graceful-termination-sec (600).
	MaxGracefulTerminationSec int64
	// MaxPodEvictionTime is how long a drain retries refused evictions
	// before the scale-down fails (actuation MaxPodEvictionTime, 2 m).
	MaxPodEvictionTime time.Duration
	// MaxEmptyBulkDelete is --max-empty-bulk-delete (10): empty nodes
	// removed per loop.
	MaxEmptyBulkDelete int
	// ExpendablePodsPriorityCutoff is --expendable-pods-priority-cutoff
	// (-10): pods below it never trigger scale-up.
	ExpendablePodsPriorityCutoff *int32
}

// Upstream defaults (cluster-autoscaler main.go flag definitions and
// config/const.go).
const (
	DefaultScanInterval                  = 10 * time.Second
	DefaultNodeProvisioningTime          = 60 * time.Second
	DefaultScaleDownUtilizationThreshold = 0.5
	DefaultScaleDownUnneededTime         = 10 * time.Minute
	DefaultScaleDownDelayAfterAdd        = 10 * time.Minute
	DefaultScaleDownUnreadyTime          = 20 * time.Minute
	DefaultScaleDownDelayAfterFailure    = 3 * time.Minute
	DefaultMaxGracefulTerminationSec     = 600
	DefaultMaxPodEvictionTime            = 2 * time.Minute
	DefaultMaxEmptyBulkDelete            = 10
	DefaultExpendablePodsPriorityCutoff  = -10
)

// withDefaults fills the zero fields with upstream's defaults.
func (o Options) withDefaults() Options {
	if len(o.Expander) == 0 {
		o.Expander = []string{ExpanderRandom}
	}
	setIfUnset(&o.ScanInterval, DefaultScanInterval)
	setIfUnset(&o.NodeProvisioningTime, DefaultNodeProvisioningTime)
	setIfUnset(&o.ScaleDownUtilizationThreshold, DefaultScaleDownUtilizationThreshold)
	setIfUnset(&o.ScaleDownUnneededTime, DefaultScaleDownUnneededTime)
	setIfUnset(&o.ScaleDownUnreadyTime, DefaultScaleDownUnreadyTime)
	setIfUnset(&o.ScaleDownDelayAfterAdd, DefaultScaleDownDelayAfterAdd)
	setIfUnset(&o.ScaleDownDelayAfterDelete, o.ScanInterval)
	setIfUnset(&o.ScaleDownDelayAfterFailure, DefaultScaleDownDelayAfterFailure)
	setIfUnset(&o.MaxGracefulTerminationSec, DefaultMaxGracefulTerminationSec)
	setIfUnset(&o.MaxPodEvictionTime, DefaultMaxPodEvictionTime)
	setIfUnset(&o.MaxEmptyBulkDelete, DefaultMaxEmptyBulkDelete)
	if o.ExpendablePodsPriorityCutoff == nil {
		c := int32(DefaultExpendablePodsPriorityCutoff)
		o.ExpendablePodsPriorityCutoff = &c
	}
	return o
}

// setIfUnset sets *v to def when *v is zero or negative (unset).
func setIfUnset[T ~int | ~int64 | ~float64](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Validate checks the groups and options a scenario gives.
func Validate(groups []NodeGroup, o Options) error {
	seen := map[string]bool{}
	for _, g := range groups {
		if g.Name == "" {
			return fmt.Errorf("a node group needs a name")
		}
		if seen[g.Name] {
			return fmt.Errorf("node group %q is declared twice", g.Name)
		}
		seen[g.Name] = true
		if g.Min < 0 || g.Max < g.Min || g.Max == 0 {
			return fmt.Errorf("node group %s: need 0 <= min <= max and max >= 1 (min %d, max %d)", g.Name, g.Min, g.Max)
		}
		if g.Template == nil {
			return fmt.Errorf("node group %s has no node template", g.Name)
		}
	}
	for _, e := range o.Expander {
		if !knownExpander(e) {
			return fmt.Errorf("expander %q is not one of %v", e, Expanders)
		}
	}
	for prio, res := range o.Priorities {
		for _, re := range res {
			if _, err := regexp.Compile(re); err != nil {
				return fmt.Errorf("priority expander: can't compile regexp rule for priority %d and rule %s: %v", prio, re, err)
			}
		}
	}
	if o.ScaleDownUtilizationThreshold < 0 || o.ScaleDownUtilizationThreshold > 1 {
		return fmt.Errorf("scale-down utilization threshold %v must be between 0 and 1", o.ScaleDownUtilizationThreshold)
	}
	return nil
}

func knownExpander(e string) bool {
	for _, k := range Expanders {
		if k == e {
			return true
		}
	}
	return false
}
