package autoscaler

import (
	"fmt"
	"math"
	"sort"

	"podlab.dev/podlab/engine/api"
)

// ScaleUpInfo is one group's part of a scale-up
// (processors/nodegroupset ScaleUpInfo).
type ScaleUpInfo struct {
	Group       string
	CurrentSize int
	NewSize     int
	MaxSize     int
}

// String is upstream's "{group 1->2 (max: 5)}".
func (s ScaleUpInfo) String() string {
	return fmt.Sprintf("{%v %v->%v (max: %v)}", s.Group, s.CurrentSize, s.NewSize, s.MaxSize)
}

// ignoredLabels are BasicIgnoredLabels
// (processors/nodegroupset/compare_nodegroups.go): labels that differ
// between otherwise identical groups (zone, hostname) — plus the lab's
// node-group label.
var ignoredLabels = map[string]bool{
	api.LabelHostname:                          true,
	"failure-domain.beta.kubernetes.io/zone":   true,
	"failure-domain.beta.kubernetes.io/region": true,
	api.LabelTopologyZone:                      true,
	"topology.kubernetes.io/region":            true,
	"beta.kubernetes.io/fluentd-ds-ready":      true,
	"kops.k8s.io/instancegroup":                true,
	"topology.ebs.csi.aws.com/zone":            true,
	"topology.gke.io/zone":                     true,
	"topology.disk.csi.azure.com/zone":         true,
	NodeGroupLabel:                             true,
}

// Upstream's default NodeGroupDifferenceRatios (config/const.go).
const (
	maxAllocatableDifferenceRatio    = 0.05
	maxFreeDifferenceRatio           = 0.05
	maxCapacityMemoryDifferenceRatio = 0.015
)

// withinTolerance is resourceListWithinTolerance.
func withinTolerance(a, b int64, ratio float64) bool {
	larger := math.Max(float64(a), float64(b))
	smaller := math.Min(float64(a), float64(b))
	return larger-smaller <= larger*ratio
}

// similarTemplates is IsCloudProviderNodeInfoSimilar on two template
// nodes (which hold no pods, so free equals allocatable): the same
// capacity resources, memory capacity within 1.5 %, other capacity
// equal, allocatable within 5 %, and the same labels apart from the
// ignored ones.
func similarTemplates(n1, n2 *api.Node, zoneLabel string) bool {
	if len(n1.Status.Capacity) != len(n2.Status.Capacity) {
		return false
	}
	for res, q1 := range n1.Status.Capacity {
		q2, ok := n2.Status.Capacity[res]
		if !ok {
			return false
		}
		if res == api.ResourceMemory {
			if !withinTolerance(q1.MilliValue(), q2.MilliValue(), maxCapacityMemoryDifferenceRatio) {
				return false
			}
		} else if q1 != q2 {
			return false
		}
	}
	if len(n1.Status.Allocatable) != len(n2.Status.Allocatable) {
		return false
	}
	for res, q1 := range n1.Status.Allocatable {
		q2, ok := n2.Status.Allocatable[res]
		if !ok || !withinTolerance(q1.MilliValue(), q2.MilliValue(), maxAllocatableDifferenceRatio) {
			return false
		}
	}
	labels := map[string][]string{}
	for _, n := range []*api.Node{n1, n2} {
		for k, v := range n.Labels {
			if !ignoredLabels[k] && k != zoneLabel {
				labels[k] = append(labels[k], v)
			}
		}
	}
	for _, vs := range labels {
		if len(vs) != 2 || vs[0] != vs[1] {
			return false
		}
	}
	return true
}

// balanceScaleUp is BalanceScaleUpBetweenGroups
// (processors/nodegroupset/balancing_processor.go): the new nodes go to
// the smallest groups first, keeping sizes as even as possible and
// respecting each group's max. Groups already at max are ignored; the
// result lists only groups that grow.
func balanceScaleUp(groups []ScaleUpInfo, newNodes int) []ScaleUpInfo {
	var infos []ScaleUpInfo
	total := 0
	for _, g := range groups {
		if g.CurrentSize >= g.MaxSize {
			continue
		}
		g.NewSize = g.CurrentSize
		infos = append(infos, g)
		total += g.MaxSize - g.CurrentSize
	}
	if total < newNodes {
		newNodes = total
	}
	// sort.Slice as upstream, made stable so equal sizes keep the order
	// given (the chosen group first).
	sort.SliceStable(infos, func(i, j int) bool { return infos[i].CurrentSize < infos[j].CurrentSize })
	start, cur := 0, 0
	for newNodes > 0 {
		info := &infos[cur]
		if info.NewSize < info.MaxSize {
			info.NewSize++
			newNodes--
		} else {
			infos[start], infos[cur] = infos[cur], infos[start]
			start++
		}
		if cur < len(infos)-1 && info.NewSize > infos[cur+1].NewSize {
			cur++
		} else {
			cur = start
		}
	}
	var out []ScaleUpInfo
	for _, info := range infos {
		if info.NewSize != info.CurrentSize {
			out = append(out, info)
		}
	}
	return out
}
