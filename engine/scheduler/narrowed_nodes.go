package scheduler

import (
	"slices"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// narrowedNodes is the node list findNodesThatFitPod filters after a
// PreFilter result: the named nodes that exist, in snapshot order (name
// order). Upstream looks each name up in the snapshot in map order
// (schedule_one.go findNodesThatFitPod: `for nodeName := range
// preRes.NodeNames { nodeInfoSnapshot.Get(nodeName) }`); the lab sorts
// them by position so runs are deterministic. A few names are looked up,
// as upstream does, rather than found by a pass over every node: each
// DaemonSet pod names one node (metadata.name), and a pass per pod made a
// DaemonSet on N nodes N² map lookups.
func narrowedNodes(snap *framework.Snapshot, names map[string]struct{}) []*framework.NodeInfo {
	all := snap.Nodes()
	out := make([]*framework.NodeInfo, 0, min(len(names), len(all)))
	if len(names) > len(all)/8 {
		for _, ni := range all {
			if _, ok := names[ni.Node.Name]; ok {
				out = append(out, ni)
			}
		}
		return out
	}
	for name := range names {
		if ni := snap.Get(name); ni != nil {
			out = append(out, ni)
		}
	}
	slices.SortFunc(out, func(a, b *framework.NodeInfo) int { return a.Index - b.Index })
	return out
}
