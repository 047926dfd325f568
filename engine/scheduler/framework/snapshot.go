package framework

import (
	"slices"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/internal/cowmap"
)

// PodIndex is an aggregate over assigned pods that a plugin keeps up to
// date as pods come and go (PodTopologySpread's per-node match counts), so
// no scheduling decision rescans every pod. Snapshot calls it on every
// change after the change is applied to the NodeInfo.
type PodIndex interface {
	PodAdded(node *NodeInfo, pod *PodInfo)
	PodRemoved(node *NodeInfo, pod *PodInfo)
	// NodesChanged is called after nodes are added, removed or relabelled;
	// the index must rebuild (or drop) what depends on node order or labels.
	NodesChanged(s *Snapshot)
}

// Topology maps every node to its domain for one topology key.
type Topology struct {
	Key string
	// DomainOf[nodeIndex] is the domain id, or -1 when the node lacks the key.
	DomainOf []int32
	// Domains[id] is the domain's value; sorted, so ids follow value order.
	Domains []string
}

// Snapshot is the cluster state the scheduler reads: every node with its
// assigned pods, kept up to date incrementally as pods bind and leave.
// Unlike upstream there is no separate cache to clone from: the engine is
// single-threaded between cycles, so the snapshot is the cache.
type Snapshot struct {
	// nodes sorted by name; NodeInfo.Index is the position. Adding,
	// removing or changing a node only records the change (added,
	// stale): the list, the positions, the topologies and the indexes are
	// brought up to date by sync on the next read, so adding a zone of
	// thousands of nodes costs one rebuild, not one per node (issue 17).
	nodes  []*NodeInfo
	byName map[string]*NodeInfo
	// added holds the nodes added since the last sync, in no order;
	// stale says nodes were added, removed or changed since then.
	added []*NodeInfo
	stale bool
	// pods by namespace/name → the name of the node they are on (a name,
	// not the NodeInfo: Clone copies the map as it is) and their PodInfo
	// there (shared by clones, as the nodes' lists share it), so removing
	// a pod does not compare keys along its node's list. Shared with
	// clones copy-on-write (cowmap; own is this snapshot's token).
	podNode cowmap.Map[podSlot]
	own     *cowmap.Owner
	// NamespaceLabels holds each namespace's labels (namespaceSelector).
	NamespaceLabels map[string]map[string]string

	indexes    map[string]PodIndex
	topologies map[string]*Topology
	generation int64
}

// NewSnapshot returns an empty snapshot.
func NewSnapshot() *Snapshot {
	return &Snapshot{
		byName:          map[string]*NodeInfo{},
		own:             &cowmap.Owner{},
		NamespaceLabels: map[string]map[string]string{},
		indexes:         map[string]PodIndex{},
		topologies:      map[string]*Topology{},
	}
}

// Generation increases on every change.
func (s *Snapshot) Generation() int64 { return s.generation }

// Get returns the NodeInfo of a node, or nil.
func (s *Snapshot) Get(name string) *NodeInfo {
	s.sync()
	return s.byName[name]
}

// NodeOfPod returns the NodeInfo a pod (namespace/name) is assigned to.
func (s *Snapshot) NodeOfPod(key string) *NodeInfo {
	s.sync()
	if slot, ok := s.podNode.Lookup(key); ok {
		return s.byName[slot.node]
	}
	return nil
}

// NumNodes returns the number of nodes.
func (s *Snapshot) NumNodes() int { return len(s.byName) }

// Nodes returns the nodes sorted by name; NodeInfo.Index is the position.
// The slice is the snapshot's own: read it, do not change it.
func (s *Snapshot) Nodes() []*NodeInfo {
	s.sync()
	return s.nodes
}

// NamespaceLabelsOf returns a namespace's labels; namespaces the lab has
// not seen get the kubernetes.io/metadata.name label the API server adds.
func (s *Snapshot) NamespaceLabelsOf(ns string) map[string]string {
	if l, ok := s.NamespaceLabels[ns]; ok {
		return l
	}
	return map[string]string{api.LabelMetadataName: ns}
}

// SetNamespace records a namespace's labels.
func (s *Snapshot) SetNamespace(ns string, labels map[string]string) {
	l := map[string]string{}
	for k, v := range labels {
		l[k] = v
	}
	l[api.LabelMetadataName] = ns
	s.NamespaceLabels[ns] = l
	s.generation++
}

// AddNode adds a node (or replaces one of the same name, keeping its pods).
func (s *Snapshot) AddNode(n *api.Node) *NodeInfo {
	if ni := s.byName[n.Name]; ni != nil {
		s.UpdateNode(n)
		return ni
	}
	ni := &NodeInfo{Node: n, Allocatable: api.ResourcesOf(n.Status.Allocatable), Index: -1}
	s.byName[n.Name] = ni
	s.added = append(s.added, ni)
	s.nodesChanged()
	return ni
}

// UpdateNode replaces a node's object (labels, taints, allocatable…).
func (s *Snapshot) UpdateNode(n *api.Node) {
	ni := s.byName[n.Name]
	if ni == nil {
		s.AddNode(n)
		return
	}
	ni.Node = n
	ni.Allocatable = api.ResourcesOf(n.Status.Allocatable)
	ni.Generation++
	s.nodesChanged()
}

// RemoveNode removes a node; its pods are dropped from the snapshot (the
// engine deletes them as the pod garbage collector would).
func (s *Snapshot) RemoveNode(name string) {
	ni := s.byName[name]
	if ni == nil {
		return
	}
	for _, p := range ni.Pods {
		s.podNode.Delete(s.own, p.Pod.Key())
	}
	delete(s.byName, name)
	s.nodesChanged()
}

// nodesChanged records that nodes were added, removed or changed; sync
// catches up on the next read. The generation moves at once, so what is
// keyed on it sees the change.
func (s *Snapshot) nodesChanged() {
	s.stale = true
	s.generation++
}

// sync brings the node list, the positions, the topologies and the
// indexes up to date after nodes were added, removed or changed: what
// every change did eagerly before, once for a burst of changes. Removed
// nodes are those byName no longer holds (as that node).
func (s *Snapshot) sync() {
	if !s.stale {
		return
	}
	s.stale = false
	live := func(ni *NodeInfo) bool { return s.byName[ni.Node.Name] == ni }
	added := s.added
	s.added = nil
	if len(added) > 0 || len(s.nodes) != len(s.byName) {
		// a new slice: a caller may still hold the old one
		nodes := make([]*NodeInfo, 0, len(s.byName))
		slices.SortFunc(added, func(a, b *NodeInfo) int { return strings.Compare(a.Node.Name, b.Node.Name) })
		i := 0
		for _, ni := range s.nodes {
			if !live(ni) {
				continue
			}
			for ; i < len(added) && added[i].Node.Name < ni.Node.Name; i++ {
				if live(added[i]) {
					nodes = append(nodes, added[i])
				}
			}
			nodes = append(nodes, ni)
		}
		for ; i < len(added); i++ {
			if live(added[i]) {
				nodes = append(nodes, added[i])
			}
		}
		s.nodes = nodes
	}
	for i, ni := range s.nodes {
		ni.Index = i
	}
	s.topologies = map[string]*Topology{}
	for _, idx := range s.indexes {
		idx.NodesChanged(s)
	}
}

// AddPod assigns a pod to the node named in pod.Spec.NodeName. Terminal
// pods hold nothing and are not added.
func (s *Snapshot) AddPod(pi *PodInfo) {
	s.sync() // the indexes are told about the pod on its node's position
	p := pi.Pod
	if p.IsTerminal() {
		return
	}
	ni := s.byName[p.Spec.NodeName]
	if ni == nil {
		return
	}
	key := p.Key()
	if _, ok := s.podNode.Lookup(key); ok {
		s.RemovePod(key)
	}
	ni.AddPodInfo(pi)
	s.podNode.Set(s.own, key, podSlot{node: ni.Node.Name, pi: pi})
	s.generation++
	for _, idx := range s.indexes {
		idx.PodAdded(ni, pi)
	}
}

// podSlot is where an assigned pod is: its node's name and its PodInfo.
type podSlot struct {
	node string
	pi   *PodInfo
}

// RemovePod removes an assigned pod by namespace/name.
func (s *Snapshot) RemovePod(key string) {
	s.sync()
	slot, ok := s.podNode.Lookup(key)
	ni := s.byName[slot.node]
	if !ok || ni == nil {
		return
	}
	pi := slot.pi
	if !slices.Contains(ni.Pods, pi) {
		// not expected (every change of a node's list goes through the
		// snapshot); find the pod by key as before the slot held it
		pi = nil
		for _, x := range ni.Pods {
			if x.Pod.HasKey(key) {
				pi = x
				break
			}
		}
	}
	if pi == nil || !ni.RemovePodInfo(pi) {
		return
	}
	s.podNode.Delete(s.own, key)
	s.generation++
	for _, idx := range s.indexes {
		idx.PodRemoved(ni, pi)
	}
}

// UpdatePod replaces an assigned pod's object (e.g. it started
// terminating, or its labels changed), keeping indexes consistent.
func (s *Snapshot) UpdatePod(pi *PodInfo) {
	s.RemovePod(pi.Pod.Key())
	s.AddPod(pi)
}

func removePodInfo(list []*PodInfo, pi *PodInfo) []*PodInfo {
	for i, x := range list {
		if x == pi {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// Index returns the PodIndex registered under key, building it with build
// (which must account for every pod already assigned) on first use.
func (s *Snapshot) Index(key string, build func(*Snapshot) PodIndex) PodIndex {
	s.sync()
	if idx, ok := s.indexes[key]; ok {
		return idx
	}
	idx := build(s)
	s.indexes[key] = idx
	return idx
}

// Topology returns the node → domain map for a topology key, computed once
// per key and node set.
func (s *Snapshot) Topology(key string) *Topology {
	s.sync()
	if t, ok := s.topologies[key]; ok {
		return t
	}
	t := &Topology{Key: key, DomainOf: make([]int32, len(s.nodes))}
	seen := map[string]struct{}{}
	for _, ni := range s.nodes {
		if v, ok := ni.Node.Labels[key]; ok {
			seen[v] = struct{}{}
		}
	}
	for v := range seen {
		t.Domains = append(t.Domains, v)
	}
	sort.Strings(t.Domains)
	ids := make(map[string]int32, len(t.Domains))
	for i, v := range t.Domains {
		ids[v] = int32(i)
	}
	for i, ni := range s.nodes {
		if v, ok := ni.Node.Labels[key]; ok {
			t.DomainOf[i] = ids[v]
		} else {
			t.DomainOf[i] = -1
		}
	}
	s.topologies[key] = t
	return t
}

// HostPortsOf lists the host ports a pod's containers and sidecars hold
// (NodePorts; the API server defaults protocol TCP and hostIP 0.0.0.0).
func HostPortsOf(p *api.Pod) []HostPort {
	var out []HostPort
	add := func(cs []api.Container) {
		for i := range cs {
			for _, port := range cs[i].Ports {
				if port.HostPort <= 0 {
					continue
				}
				proto := port.Protocol
				if proto == "" {
					proto = "TCP"
				}
				ip := port.HostIP
				if ip == "" {
					ip = "0.0.0.0"
				}
				out = append(out, HostPort{IP: ip, Protocol: proto, Port: port.HostPort})
			}
		}
	}
	// As upstream GetHostPorts: restartable (sidecar) init containers keep
	// running and hold their ports; regular init containers have exited.
	var sidecars []api.Container
	for _, c := range p.Spec.InitContainers {
		if c.IsSidecar() {
			sidecars = append(sidecars, c)
		}
	}
	add(sidecars)
	add(p.Spec.Containers)
	return out
}
