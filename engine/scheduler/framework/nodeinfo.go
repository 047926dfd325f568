package framework

import "slices"

// Clone returns a copy of the NodeInfo whose pod lists and port set can be
// changed (AddPodInfo/RemovePodInfo) without touching the original, as
// NodeInfo.Snapshot upstream: preemption dry runs and nominated pods work on
// clones. PodInfos and the Node object are shared (they are immutable).
func (n *NodeInfo) Clone() *NodeInfo {
	out := *n
	out.Pods = append([]*PodInfo(nil), n.Pods...)
	out.PodsWithAffinity = append([]*PodInfo(nil), n.PodsWithAffinity...)
	out.PodsWithRequiredAntiAffinity = append([]*PodInfo(nil), n.PodsWithRequiredAntiAffinity...)
	if n.UsedPorts != nil {
		out.UsedPorts = make(map[HostPort]struct{}, len(n.UsedPorts))
		for k := range n.UsedPorts {
			out.UsedPorts[k] = struct{}{}
		}
	}
	// The extended-resource sums are maps: AddPodInfo/RemovePodInfo on the
	// copy must not write to the original's.
	out.Requested.Scalar = copyScalars(n.Requested.Scalar)
	out.NonZeroRequested.Scalar = copyScalars(n.NonZeroRequested.Scalar)
	return &out
}

func copyScalars(m map[string]int64) map[string]int64 {
	if m == nil {
		return nil
	}
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// AddPodInfo adds a pod to this NodeInfo only (no snapshot indexes), with
// the same bookkeeping as Snapshot.AddPod (NodeInfo.AddPodInfo upstream).
func (n *NodeInfo) AddPodInfo(pi *PodInfo) {
	n.Pods = append(n.Pods, pi)
	if HasAffinity(pi) {
		n.PodsWithAffinity = append(n.PodsWithAffinity, pi)
	}
	if len(pi.RequiredAntiAffinityTerms) > 0 {
		n.PodsWithRequiredAntiAffinity = append(n.PodsWithRequiredAntiAffinity, pi)
	}
	n.Requested.Add(pi.Requests)
	n.NonZeroRequested.Add(pi.NonZeroRequests)
	for _, hp := range HostPortsOf(pi.Pod) {
		if n.UsedPorts == nil {
			n.UsedPorts = map[HostPort]struct{}{}
		}
		n.UsedPorts[hp] = struct{}{}
	}
	n.Generation++
}

// RemovePodInfo removes a pod (matched by namespace/name) from this
// NodeInfo only, as NodeInfo.RemovePod upstream. It reports whether the
// pod was there.
func (n *NodeInfo) RemovePodInfo(pi *PodInfo) bool {
	ns, name := pi.Pod.Namespace, pi.Pod.Name
	var found *PodInfo
	// pi itself is found by pointer (no pod read per entry); another
	// PodInfo of the same pod by name
	i := slices.Index(n.Pods, pi)
	if i < 0 {
		for j, x := range n.Pods {
			if x.Pod.Name == name && x.Pod.Namespace == ns {
				i = j
				break
			}
		}
	}
	if i >= 0 {
		found = n.Pods[i]
		// In place: a clone owns its slices (Clone copies them).
		n.Pods = append(n.Pods[:i], n.Pods[i+1:]...)
	}
	if found == nil {
		return false
	}
	n.PodsWithAffinity = removePodInfo(n.PodsWithAffinity, found)
	n.PodsWithRequiredAntiAffinity = removePodInfo(n.PodsWithRequiredAntiAffinity, found)
	n.Requested.Sub(found.Requests)
	n.NonZeroRequested.Sub(found.NonZeroRequests)
	if len(n.UsedPorts) > 0 {
		n.UsedPorts = nil
		for _, other := range n.Pods {
			for _, hp := range HostPortsOf(other.Pod) {
				if n.UsedPorts == nil {
					n.UsedPorts = map[HostPort]struct{}{}
				}
				n.UsedPorts[hp] = struct{}{}
			}
		}
	}
	n.Generation++
	return true
}

// HasAffinity reports whether a pod has any pod affinity or anti-affinity
// term (what puts it in NodeInfo.PodsWithAffinity).
func HasAffinity(pi *PodInfo) bool {
	return len(pi.RequiredAffinityTerms) > 0 || len(pi.PreferredAffinityTerms) > 0 ||
		len(pi.RequiredAntiAffinityTerms) > 0 || len(pi.PreferredAntiAffinityTerms) > 0
}
