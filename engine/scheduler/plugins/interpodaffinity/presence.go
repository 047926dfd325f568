package interpodaffinity

import "podlab.dev/podlab/engine/scheduler/framework"

const presenceKey = "InterPodAffinity/presence"

// presence counts the snapshot's assigned pods that have affinity terms of
// any kind (NodeInfo.PodsWithAffinity) and those with required
// anti-affinity (NodeInfo.PodsWithRequiredAntiAffinity), kept up to date as
// pods come and go. With both at 0 and an incoming pod without terms,
// PreFilter and PreScore know they will Skip without visiting every node
// (upstream visits HavePodsWithAffinityNodeInfoList /
// HavePodsWithRequiredAntiAffinityNodeInfoList, which are then empty).
type presence struct {
	withAffinity, withRequiredAnti int
}

func presenceOf(snap *framework.Snapshot) *presence {
	return snap.Index(presenceKey, func(s *framework.Snapshot) framework.PodIndex {
		p := &presence{}
		p.NodesChanged(s)
		return p
	}).(*presence)
}

func (p *presence) count(pi *framework.PodInfo, delta int) {
	if framework.HasAffinity(pi) {
		p.withAffinity += delta
	}
	if len(pi.RequiredAntiAffinityTerms) > 0 {
		p.withRequiredAnti += delta
	}
}

// PodAdded implements framework.PodIndex.
func (p *presence) PodAdded(_ *framework.NodeInfo, pi *framework.PodInfo) { p.count(pi, 1) }

// PodRemoved implements framework.PodIndex.
func (p *presence) PodRemoved(_ *framework.NodeInfo, pi *framework.PodInfo) { p.count(pi, -1) }

// NodesChanged implements framework.PodIndex: recount (removed nodes take
// their pods with them).
func (p *presence) NodesChanged(s *framework.Snapshot) {
	*p = presence{}
	for _, ni := range s.Nodes() {
		p.withAffinity += len(ni.PodsWithAffinity)
		p.withRequiredAnti += len(ni.PodsWithRequiredAntiAffinity)
	}
}
