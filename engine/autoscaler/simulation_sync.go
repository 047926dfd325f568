package autoscaler

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// A loop that needs a simulation used to build one from every node and
// pod (newSimulation). During a scale-down the loop needs one every 10 s,
// and most nodes have not changed since the last: the autoscaler keeps
// its simulation and sync brings it to the state newSimulation would
// build — the same nodes and, on each node, the same pod objects in the
// same order (PodsOnNode's, non-terminal) — touching only the nodes whose
// node object or pod list differs (the engine's, or the last loop's
// simulated moves). The scheduler plugins' indexes follow every change,
// as they do for the engine's own snapshot.

// sync makes the kept simulation equal to newSimulation(nodes, podsOn)
// without its upcoming nodes (the caller adds those, as after a build).
func (s *simulation) sync(nodes []*api.Node, podsOn func(string) []*api.Pod) {
	s.forked, s.addedNode, s.addedPod = false, s.addedNode[:0], s.addedPod[:0]
	s.origin = nil
	snap := s.snap
	// nodes the cluster no longer has (and the last loop's upcoming
	// nodes) go first, so no pod key of theirs is dropped after a pod of
	// that key was added elsewhere
	var gone []string
	i := 0
	for _, ni := range snap.Nodes() {
		name := ni.Node.Name
		for i < len(nodes) && nodes[i].Name < name {
			i++
		}
		if i == len(nodes) || nodes[i].Name != name {
			gone = append(gone, name)
		}
	}
	for _, name := range gone {
		snap.RemoveNode(name)
	}
	for _, n := range nodes {
		switch ni := snap.Get(n.Name); {
		case ni == nil:
			snap.AddNode(n)
		case ni.Node != n:
			snap.UpdateNode(n)
		}
	}
	var want []*api.Pod
	for _, n := range nodes {
		want = want[:0]
		for _, p := range podsOn(n.Name) {
			if !p.IsTerminal() {
				want = append(want, p)
			}
		}
		ni := snap.Get(n.Name)
		if samePods(ni.Pods, want) {
			continue
		}
		for _, pi := range append([]*framework.PodInfo(nil), ni.Pods...) {
			snap.RemovePod(pi.Pod.Key())
		}
		for _, p := range want {
			snap.AddPod(s.bound(p))
		}
	}
	s.pruneInfos()
}

// samePods reports whether a node's pods are the objects want, in order.
func samePods(have []*framework.PodInfo, want []*api.Pod) bool {
	if len(have) != len(want) {
		return false
	}
	for i, pi := range have {
		if pi.Pod != want[i] {
			return false
		}
	}
	return true
}

// pruneInfos forgets the PodInfos of pods no longer in the simulation
// once they outnumber the live ones (a kept simulation keeps one cache).
func (s *simulation) pruneInfos() {
	s.prev = nil
	live := len(s.snap.Nodes()) * 8
	for _, ni := range s.snap.Nodes() {
		live += len(ni.Pods)
	}
	if len(s.infos) <= 2*live {
		return
	}
	kept := make(map[string]cachedInfo, live)
	for _, ni := range s.snap.Nodes() {
		for _, pi := range ni.Pods {
			key := pi.Pod.Key()
			if c, ok := s.infos[key]; ok {
				kept[key] = c
			}
		}
	}
	s.infos = kept
}
