package preemption

import (
	"maps"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// scratchNode is a NodeInfo copy reused from one dry run to the next: the
// dry run edits it (RemovePodInfo/AddPodInfo) as upstream edits
// NodeInfo.Snapshot(), without allocating a new copy per node. PodInfos
// and the Node are shared (immutable); every slice and map the edits touch
// is owned by the scratch copy.
type scratchNode struct {
	ni                framework.NodeInfo
	pods, aff, anti   []*framework.PodInfo
	ports             map[framework.HostPort]struct{}
	reqScalar, nzScal map[string]int64
}

// copyOf makes the scratch a copy of n and returns it. The previous copy
// is gone.
func (s *scratchNode) copyOf(n *framework.NodeInfo) *framework.NodeInfo {
	s.ni = *n
	s.pods = append(s.pods[:0], n.Pods...)
	s.aff = append(s.aff[:0], n.PodsWithAffinity...)
	s.anti = append(s.anti[:0], n.PodsWithRequiredAntiAffinity...)
	s.ni.Pods, s.ni.PodsWithAffinity, s.ni.PodsWithRequiredAntiAffinity = s.pods, s.aff, s.anti
	s.ni.UsedPorts = nil
	if n.UsedPorts != nil {
		if s.ports == nil {
			s.ports = make(map[framework.HostPort]struct{}, len(n.UsedPorts))
		}
		clear(s.ports)
		maps.Copy(s.ports, n.UsedPorts)
		s.ni.UsedPorts = s.ports
	}
	s.ni.Requested.Scalar = ownScalars(&s.reqScalar, n.Requested.Scalar)
	s.ni.NonZeroRequested.Scalar = ownScalars(&s.nzScal, n.NonZeroRequested.Scalar)
	return &s.ni
}

// ownScalars copies src into the reused map *buf (nil stays nil), so that
// Resources.Add/Sub on the copy never write to the live node's map.
func ownScalars(buf *map[string]int64, src map[string]int64) map[string]int64 {
	if src == nil {
		return nil
	}
	if *buf == nil {
		*buf = make(map[string]int64, len(src))
	}
	clear(*buf)
	maps.Copy(*buf, src)
	return *buf
}

// copyWithout makes the scratch a copy of n without its pods of priority
// below prio — what RemovePodInfo of each of them leaves — and returns it
// with the removed pods (in the node's order, appended to removed[:0]).
// One pass instead of a copy and a removal per pod.
func (s *scratchNode) copyWithout(n *framework.NodeInfo, prio int32, removed []*framework.PodInfo) (*framework.NodeInfo, []*framework.PodInfo) {
	removed = removed[:0]
	s.ni = *n
	s.pods = s.pods[:0]
	for _, p := range n.Pods {
		if p.Priority < prio {
			removed = append(removed, p)
		} else {
			s.pods = append(s.pods, p)
		}
	}
	s.ni.Pods = s.pods
	s.aff = keptOf(s.aff[:0], n.PodsWithAffinity, prio)
	s.anti = keptOf(s.anti[:0], n.PodsWithRequiredAntiAffinity, prio)
	s.ni.PodsWithAffinity, s.ni.PodsWithRequiredAntiAffinity = s.aff, s.anti
	s.ni.Requested.Scalar = ownScalars(&s.reqScalar, n.Requested.Scalar)
	s.ni.NonZeroRequested.Scalar = ownScalars(&s.nzScal, n.NonZeroRequested.Scalar)
	for _, p := range removed {
		s.ni.Requested.Sub(p.Requests)
		s.ni.NonZeroRequested.Sub(p.NonZeroRequests)
	}
	// RemovePodInfo rebuilds the ports from the pods left.
	s.ni.UsedPorts = nil
	if len(n.UsedPorts) > 0 {
		if s.ports == nil {
			s.ports = map[framework.HostPort]struct{}{}
		}
		clear(s.ports)
		if len(removed) == 0 {
			maps.Copy(s.ports, n.UsedPorts)
			s.ni.UsedPorts = s.ports
		}
		for _, p := range s.pods {
			if len(removed) == 0 {
				break
			}
			for _, hp := range framework.HostPortsOf(p.Pod) {
				s.ports[hp] = struct{}{}
				s.ni.UsedPorts = s.ports
			}
		}
	}
	s.ni.Generation += int64(len(removed))
	return &s.ni, removed
}

func keptOf(dst, src []*framework.PodInfo, prio int32) []*framework.PodInfo {
	for _, p := range src {
		if p.Priority >= prio {
			dst = append(dst, p)
		}
	}
	return dst
}
