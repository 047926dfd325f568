package autoscaler

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// simulation is CA's ClusterSnapshot with its predicate checker: the
// cluster's nodes and bound pods in a scheduler snapshot of its own, on
// which pods are tried against podlab's scheduler filters, hypothetical
// nodes are added and pods are moved — never touching the engine. fork
// and revert undo what a binpacking estimate or a check added.
type simulation struct {
	snap  *framework.Snapshot
	sched *scheduler.Scheduler
	// infos caches one PodInfo per pod key (affinity terms compiled once),
	// with the object it was built from.
	infos map[string]cachedInfo
	prev  map[string]cachedInfo
	// origin maps the copies placed puts in the snapshot to the engine's
	// pod they copy, so a moved pod that moves again is looked up as
	// itself (its PodInfo to schedule is the same: NodeName is cleared)
	// instead of replacing the cached entry of the engine's object.
	origin map[*api.Pod]*api.Pod
	// journal records what was added since the last fork.
	forked    bool
	addedNode []string
	addedPod  []string
	// placedPrev and placedCur are the last loop's and this loop's
	// placed copies.
	placedPrev, placedCur map[placedKey]*framework.PodInfo
	// reference turns origin and the placed copies' cache off
	// (equivalence tests).
	reference bool
}

// newSimulation builds the simulation; prev (may be nil) is the previous
// loop's PodInfo cache, reused for pods whose object did not change.
func newSimulation(cfg scheduler.Config, nodes []*api.Node, podsOn func(string) []*api.Pod, prev map[string]cachedInfo) (*simulation, error) {
	cfg.DisablePreemption = true
	cfg.PDBs = nil
	snap := framework.NewSnapshot()
	sched, err := scheduler.Build(cfg, snap)
	if err != nil {
		return nil, err
	}
	s := &simulation{snap: snap, sched: sched, infos: make(map[string]cachedInfo, len(prev)), prev: prev, placedCur: map[placedKey]*framework.PodInfo{}}
	for _, n := range nodes {
		snap.AddNode(n)
	}
	for _, n := range nodes {
		for _, p := range podsOn(n.Name) {
			if p.IsTerminal() {
				continue
			}
			snap.AddPod(s.bound(p))
		}
	}
	return s, nil
}

type cachedInfo struct {
	src *api.Pod
	pi  *framework.PodInfo
	// asIs is the PodInfo of the bound object itself (nil until needed).
	asIs *framework.PodInfo
}

// bound returns the PodInfo of a pod bound where the engine has it (the
// object as it is: no copy), cached like info.
func (s *simulation) bound(p *api.Pod) *framework.PodInfo {
	key := p.Key()
	c, ok := s.infos[key]
	if !ok || c.src != p {
		if pc, ok := s.prev[key]; ok && pc.src == p {
			c = pc
		} else {
			c = cachedInfo{src: p}
		}
	}
	if c.asIs == nil {
		c.asIs = framework.NewPodInfo(p)
	}
	s.infos[key] = c
	return c.asIs
}

// info returns the PodInfo of the pod as a pod to schedule: a bound pod
// (one the scale-down simulation moves) is unbound first, or NodeName
// would pin it to its node. Cached by key and object.
func (s *simulation) info(p *api.Pod) *framework.PodInfo {
	if o, ok := s.origin[p]; ok && !s.reference {
		p = o
	}
	key := p.Key()
	c, ok := s.infos[key]
	if !ok || c.src != p {
		if pc, ok := s.prev[key]; ok && pc.src == p {
			c = pc
		} else {
			c = cachedInfo{src: p}
		}
		s.infos[key] = c
	}
	if c.pi != nil {
		return c.pi
	}
	src := p
	if p.Spec.NodeName != "" {
		cp := *p
		cp.Spec.NodeName = ""
		p = &cp
	}
	c.pi = framework.NewPodInfo(p)
	c.src = src
	s.infos[key] = c
	return c.pi
}

// placed returns a PodInfo for the pod bound to node (the object is a
// shallow copy: the engine's pod is never modified).
//
// The copy is remembered by (engine's pod, node) for this loop and the
// next: the removal simulation moves the same pods to the same nodes
// loop after loop, and a PodInfo in a snapshot is never modified.
func (s *simulation) placed(p *api.Pod, node string) *framework.PodInfo {
	o := p
	if x, ok := s.origin[p]; ok {
		o = x
	}
	if s.origin == nil {
		s.origin = map[*api.Pod]*api.Pod{}
	}
	k := placedKey{o, node}
	if !s.reference {
		pi, ok := s.placedCur[k]
		if !ok {
			pi, ok = s.placedPrev[k]
		}
		if ok {
			s.placedCur[k] = pi
			s.origin[pi.Pod] = o
			return pi
		}
	}
	cp := *p
	cp.Spec.NodeName = node
	info := *s.info(p)
	info.Pod = &cp
	s.origin[&cp] = o
	if !s.reference {
		s.placedCur[k] = &info
	}
	return &info
}

// placedKey is a pod (the engine's object) placed on a node.
type placedKey struct {
	pod  *api.Pod
	node string
}

func (s *simulation) fork() {
	s.forked = true
	s.addedNode, s.addedPod = s.addedNode[:0], s.addedPod[:0]
}

// revert removes what was added since fork.
func (s *simulation) revert() {
	for i := len(s.addedPod) - 1; i >= 0; i-- {
		s.snap.RemovePod(s.addedPod[i])
	}
	for i := len(s.addedNode) - 1; i >= 0; i-- {
		s.snap.RemoveNode(s.addedNode[i])
	}
	s.forked = false
	s.addedNode, s.addedPod = s.addedNode[:0], s.addedPod[:0]
}

// addNode adds a copy of template named name.
func (s *simulation) addNode(template *api.Node, name string) {
	s.snap.AddNode(nodeFromTemplate(template, name))
	if s.forked {
		s.addedNode = append(s.addedNode, name)
	}
}

// addPod binds a pod to node in the simulation.
func (s *simulation) addPod(p *api.Pod, node string) {
	s.snap.AddPod(s.placed(p, node))
	if s.forked {
		s.addedPod = append(s.addedPod, p.Key())
	}
}

// removePod takes a bound pod out of the simulation.
func (s *simulation) removePod(p *api.Pod) { s.snap.RemovePod(p.Key()) }

// check is CheckPredicates: nil when the pod fits the node.
func (s *simulation) check(p *api.Pod, node string) *framework.Status {
	return s.sched.CheckPredicates(s.info(p), node)
}

// fitsAny returns the first node (name order) accepted by match that the
// pod fits on.
func (s *simulation) fitsAny(p *api.Pod, match func(*framework.NodeInfo) bool) (string, bool) {
	return s.sched.FitsAnyNodeMatching(s.info(p), match)
}

// fitsNodes tries the given nodes in order.
func (s *simulation) fitsNodes(p *api.Pod, nodes []string) (string, bool) {
	return s.sched.FitsNodes(s.info(p), nodes)
}

// nodeFromTemplate is a fresh node of a group (FreshNodeInfoFromTemplate):
// the template's labels with the new hostname, its taints and resources.
func nodeFromTemplate(t *api.Node, name string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: make(map[string]string, len(t.Labels)+1)}}
	for k, v := range t.Labels {
		n.Labels[k] = v
	}
	n.Labels[api.LabelHostname] = name
	if len(t.Annotations) > 0 {
		n.Annotations = make(map[string]string, len(t.Annotations))
		for k, v := range t.Annotations {
			n.Annotations[k] = v
		}
	}
	n.Spec.Taints = append([]api.Taint(nil), t.Spec.Taints...)
	n.Status.Capacity = t.Status.Capacity.Clone()
	n.Status.Allocatable = t.Status.Allocatable.Clone()
	if n.Status.Allocatable == nil {
		n.Status.Allocatable = n.Status.Capacity.Clone()
	}
	n.Status.Conditions = []api.Condition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"}}
	return n
}
