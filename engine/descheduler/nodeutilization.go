package descheduler

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// nodeUsage is nodeutilization's NodeInfo: a node, its requested usage
// and the cap its usage should be brought under (available).
type nodeUsage struct {
	node      *api.Node
	usage     resources
	percent   Thresholds
	available resources
}

// utilizationResources are the resources usage is tracked for: the
// thresholds' plus cpu, memory and pods (uniquifyResourceNames).
func utilizationResources(t Thresholds) []string {
	set := map[string]bool{api.ResourceCPU: true, api.ResourceMemory: true, api.ResourcePods: true}
	for k := range t {
		set[k] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (c *pluginCtx) usages(names []string) []*nodeUsage {
	out := make([]*nodeUsage, 0, len(c.v.nodes))
	for _, n := range c.v.nodes {
		alloc := allocatableOf(n)
		u := &nodeUsage{node: n, usage: resources{}, percent: Thresholds{}}
		req := c.v.requested[n.Name]
		for _, r := range names {
			u.usage[r] = req[r]
			if alloc[r] > 0 {
				u.percent[r] = float64(req[r]) / float64(alloc[r]) * 100
			} else {
				u.percent[r] = 0
			}
		}
		out = append(out, u)
	}
	return out
}

// belowThreshold is isNodeBelowThreshold; aboveThreshold isNodeAboveThreshold.
func belowThreshold(p, t Thresholds) bool {
	for name, v := range t {
		if v < p[name] {
			return false
		}
	}
	return true
}

func aboveThreshold(p, t Thresholds) bool {
	for name, v := range t {
		if v < p[name] {
			return true
		}
	}
	return false
}

// capToThreshold is capNodeCapacitiesToThreshold.
func capToThreshold(n *api.Node, t Thresholds, names []string) resources {
	alloc := allocatableOf(n)
	out := resources{}
	for _, r := range names {
		if v, ok := t[r]; ok {
			out[r] = int64(v * 0.01 * float64(alloc[r]))
		} else {
			out[r] = alloc[r]
		}
	}
	return out
}

func formatThresholds(t Thresholds) string {
	names := make([]string, 0, len(t))
	for k := range t {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s %.0f%%", k, t[k])
	}
	return strings.Join(parts, ", ")
}

func nodeNames(us []*nodeUsage) string {
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = u.node.Name
	}
	return strings.Join(names, " ")
}

// lowNodeUtilization is LowNodeUtilization.Balance
// (lownodeutilization.go): nodes under every threshold are underutilized,
// nodes over any target threshold overutilized; pods are evicted from the
// overutilized nodes (most used first) while they stay above target and
// the underutilized nodes have room below their targets. Usage is the
// pods' requests (the plugin's default usage client).
func lowNodeUtilization(c *pluginCtx, args *LowNodeUtilizationArgs) error {
	names := utilizationResources(args.Thresholds)
	us := c.usages(names)
	low, high := args.Thresholds, args.TargetThresholds
	if args.UseDeviationThresholds {
		// assessNodesUsagesAndRelativeThresholds: the average over the
		// threshold resources, minus/plus the spans, clamped to [0, 100].
		avg := Thresholds{}
		for r := range args.Thresholds {
			for _, u := range us {
				avg[r] += u.percent[r]
			}
			avg[r] /= float64(len(us))
		}
		low, high = Thresholds{}, Thresholds{}
		for r := range args.Thresholds {
			low[r] = clamp(avg[r]-args.Thresholds[r], 0, 100)
			high[r] = clamp(avg[r]+args.TargetThresholds[r], 0, 100)
		}
	}
	var lowNodes, highNodes []*nodeUsage
	for _, u := range us {
		switch {
		case !u.node.Spec.Unschedulable && belowThreshold(u.percent, low):
			u.available = capToThreshold(u.node, high, names)
			lowNodes = append(lowNodes, u)
		case aboveThreshold(u.percent, high):
			u.available = capToThreshold(u.node, high, names)
			highNodes = append(highNodes, u)
		}
	}
	if len(lowNodes) == 0 || len(lowNodes) <= args.NumberOfNodes || len(lowNodes) == len(us) || len(highNodes) == 0 {
		return nil
	}
	sortByUsage(highNodes, false)
	reason := func(src *nodeUsage) string {
		return fmt.Sprintf("node %s is overutilized (%s; targetThresholds %s); underutilized nodes [%s] are below thresholds %s",
			src.node.Name, formatThresholds(pick(src.percent, high)), formatThresholds(high), nodeNames(lowNodes), formatThresholds(low))
	}
	continueCond := func(src *nodeUsage, total resources) bool {
		above := false
		for r, v := range src.usage {
			if src.available[r] < v {
				above = true
			}
		}
		if !above {
			return false
		}
		for _, v := range total {
			if v < 1 {
				return false
			}
		}
		return true
	}
	return c.evictFromSources(highNodes, lowNodes, names, args.EvictableNamespaces, args.EvictionLimitsNode, continueCond, reason)
}

func pick(p, t Thresholds) Thresholds {
	out := Thresholds{}
	for k := range t {
		out[k] = p[k]
	}
	return out
}

func clamp(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }

// highNodeUtilization is HighNodeUtilization.Balance: nodes under every
// threshold are evicted from (least used first) so their pods pack onto
// the other nodes, while those have room.
func highNodeUtilization(c *pluginCtx, args *HighNodeUtilizationArgs) error {
	names := utilizationResources(args.Thresholds)
	us := c.usages(names)
	var sources, dests []*nodeUsage
	// classifier.Classify (highnodeutilization.go Balance): a node under
	// every threshold is underutilized, unschedulable or not; any other
	// schedulable node takes pods; an unschedulable node over the
	// thresholds is neither.
	for _, u := range us {
		switch {
		case belowThreshold(u.percent, args.Thresholds):
			sources = append(sources, u)
		case !u.node.Spec.Unschedulable:
			u.available = capToThreshold(u.node, nil, names)
			dests = append(dests, u)
		}
	}
	if len(sources) == 0 || len(sources) <= args.NumberOfNodes || len(sources) == len(us) || len(dests) == 0 {
		return nil
	}
	sortByUsage(sources, true)
	reason := func(src *nodeUsage) string {
		return fmt.Sprintf("node %s is underutilized (%s, below thresholds %s): its pods are moved to pack nodes [%s]",
			src.node.Name, formatThresholds(pick(src.percent, args.Thresholds)), formatThresholds(args.Thresholds), nodeNames(dests))
	}
	continueCond := func(_ *nodeUsage, total resources) bool {
		for _, v := range total {
			if v < 1 {
				return false
			}
		}
		return true
	}
	return c.evictFromSources(sources, dests, names, args.EvictableNamespaces, nil, continueCond, reason)
}

// sortByUsage is sortNodesByUsage: by the sum of the usage values
// (milli-cpu, bytes, counts), node name breaking ties.
func sortByUsage(us []*nodeUsage, ascending bool) {
	total := func(u *nodeUsage) int64 {
		var t int64
		for _, v := range u.usage {
			t += v
		}
		return t
	}
	sort.SliceStable(us, func(i, j int) bool {
		ti, tj := total(us[i]), total(us[j])
		if ti != tj {
			return (ti < tj) == ascending
		}
		return us[i].node.Name < us[j].node.Name
	})
}

// evictFromSources is evictPodsFromSourceNodes + evictPods
// (nodeutilization.go).
func (c *pluginCtx) evictFromSources(sources, dests []*nodeUsage, names []string, evictable *Namespaces, nodeLimit *uint,
	cont func(*nodeUsage, resources) bool, reason func(*nodeUsage) string) error {
	total := resources{}
	for _, d := range dests {
		for _, r := range names {
			total[r] += d.available[r] - d.usage[r]
		}
	}
	var destTaints [][]api.Taint
	for _, d := range dests {
		destTaints = append(destTaints, d.node.Spec.Taints)
	}
	filter := c.filter(nil, nil)
	for _, src := range sources {
		var removable []*api.Pod
		for _, p := range c.v.on[src.node.Name] {
			if filter(p) {
				removable = append(removable, p)
			}
		}
		if len(removable) == 0 {
			continue
		}
		sortByPriorityLowToHigh(removable)
		if !cont(src, total) {
			continue
		}
		var evicted uint
		why := reason(src)
		for _, p := range removable {
			if nodeLimit != nil && evicted >= *nodeLimit {
				break
			}
			if !toleratesOneNode(p, destTaints) {
				continue
			}
			if evictable != nil && slices.Contains(evictable.Exclude, p.Namespace) {
				continue
			}
			if c.ev.preEvictionFilter(p) != "" {
				continue
			}
			if err := c.evict(p, why); err != nil {
				if le, ok := err.(*limitError); ok && (le.kind == limitNode || le.kind == limitTotal) {
					if le.kind == limitTotal {
						return err
					}
					break
				}
				continue
			}
			evicted++
			req := c.v.request(p)
			for _, r := range names {
				q := req[r]
				if r == api.ResourcePods {
					q = 1
				}
				src.usage[r] -= q
				total[r] -= q
			}
			if !cont(src, total) {
				break
			}
		}
	}
	return nil
}

// toleratesOneNode is utils.PodToleratesTaints: the pod tolerates every
// taint of at least one destination node.
func toleratesOneNode(p *api.Pod, taintsOfNodes [][]api.Taint) bool {
	for _, taints := range taintsOfNodes {
		if len(p.Spec.Tolerations) < len(taints) {
			continue
		}
		if _, bad := api.FindUntoleratedTaint(taints, p.Spec.Tolerations, nil); !bad {
			return true
		}
	}
	return false
}

// sortByPriorityLowToHigh is podutil.SortPodsBasedOnPriorityLowToHigh:
// unset priority first, then by priority, then BestEffort, Burstable,
// Guaranteed; pod order breaks remaining ties.
func sortByPriorityLowToHigh(pods []*api.Pod) {
	qosRank := func(p *api.Pod) int {
		switch api.ComputePodQOS(p) {
		case api.QOSBestEffort:
			return 0
		case api.QOSBurstable:
			return 1
		}
		return 2
	}
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := pods[i], pods[j]
		if lt, gt := priorityLess(a, b), priorityLess(b, a); lt || gt {
			return lt
		}
		return qosRank(a) < qosRank(b)
	})
}
