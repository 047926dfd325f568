package podtopologyspread

import (
	"sort"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// nodeSet is the set of nodes a constraint counts when that is not simply
// "every node with its key": upstream skips nodes lacking another
// constraint's key, and with nodeAffinityPolicy / nodeTaintsPolicy Honor
// the nodes the incoming pod's node selector/affinity rejects or whose
// NoSchedule/NoExecute taints it does not tolerate. Pods of one workload
// share it, so it is computed once per node set and cached with the
// per-domain sums the indexes keep for it (O(domains) per pod instead of
// O(nodes) with the affinity evaluated on every node).
type nodeSet struct {
	// mask[nodeIndex] says the node is counted.
	mask []bool
	// cached sets are registered with the snapshot's indexes; past
	// maxNodeSets distinct sets new ones are used once and dropped.
	cached   bool
	presence map[*framework.Topology]*domainPresence
}

// domainPresence lists the domains holding at least one node of a set
// (upstream: the keys of TpValueToMatchNum).
type domainPresence struct {
	has   []bool
	count int
}

func (ns *nodeSet) presenceIn(t *framework.Topology) *domainPresence {
	if p := ns.presence[t]; p != nil {
		return p
	}
	p := &domainPresence{has: make([]bool, len(t.Domains))}
	for n, ok := range ns.mask {
		if d := t.DomainOf[n]; ok && d >= 0 && !p.has[d] {
			p.has[d] = true
			p.count++
		}
	}
	if ns.cached {
		ns.presence[t] = p
	}
	return p
}

// nodeSets caches node sets per snapshot; registered as a PodIndex only
// to learn when nodes change.
type nodeSets struct {
	sets map[string]*nodeSet
}

const maxNodeSets = 128

// PodAdded implements framework.PodIndex.
func (*nodeSets) PodAdded(*framework.NodeInfo, *framework.PodInfo) {}

// PodRemoved implements framework.PodIndex.
func (*nodeSets) PodRemoved(*framework.NodeInfo, *framework.PodInfo) {}

// NodesChanged implements framework.PodIndex.
func (n *nodeSets) NodesChanged(*framework.Snapshot) { clear(n.sets) }

// nodeSetsOf finds the node sets of one pod's constraints (nodeSetFor).
// What depends on all the constraints — the keys some node lacks — is
// worked out once per pod, not once per constraint: a pod with 5,000
// constraints built and sorted 5,000 lists of 5,000 keys (issue 17).
type nodeSetsOf struct {
	snap *framework.Snapshot
	pod  *api.Pod
	cs   []constraint
	// partial lists the distinct keys of the constraints that some node
	// lacks, sorted, with their topologies (requireAll only); partialKey
	// is their part of a set's cache key.
	partial    []string
	topos      []*framework.Topology
	partialKey string
	// memo holds the sets found, by [partial keys checked][affinity
	// Honor][taints Honor]: a pod's constraints need at most these.
	memo [2][2][2]*nodeSet
}

func newNodeSetsOf(snap *framework.Snapshot, pod *api.Pod, cs []constraint, metas []*topologyMeta, requireAll bool) *nodeSetsOf {
	o := &nodeSetsOf{snap: snap, pod: pod, cs: cs}
	if requireAll {
		topo := map[string]*framework.Topology{}
		for j := range cs {
			if metas[j].missing > 0 {
				topo[cs[j].TopologyKey] = metas[j].topo
			}
		}
		for k := range topo {
			o.partial = append(o.partial, k)
		}
		sort.Strings(o.partial)
		var key strings.Builder
		for _, k := range o.partial {
			o.topos = append(o.topos, topo[k])
			key.WriteString("K" + k + "\x00")
		}
		o.partialKey = key.String()
	}
	return o
}

// nodeSetFor returns the nodes constraint i of the pod counts, or nil
// when that is every node with its key. requireAll is upstream's "only
// nodes with every constraint's key" (always for Filter; for scoring not
// with the system defaults).
//
// The other constraints' keys that some node lacks narrow the set. The
// constraint's own key is checked too when another key narrows it: every
// reader of a set also requires the constraint's own domain (DomainOf ≥
// 0), so a node without the own key counts nowhere either way, and the
// constraints of a pod share one set instead of one each. The own key
// alone (no other partial key) narrows nothing: nil, as before.
func (o *nodeSetsOf) nodeSetFor(i int) *nodeSet {
	c := &o.cs[i]
	narrow := len(o.partial) > 1 || (len(o.partial) == 1 && o.partial[0] != c.TopologyKey)
	affinity := c.NodeAffinityPolicy == api.PolicyHonor && hasRequiredNodeAffinity(o.pod)
	taints := c.NodeTaintsPolicy == api.PolicyHonor
	if !narrow && !affinity && !taints {
		return nil
	}
	m := &o.memo[b2i(narrow)][b2i(affinity)][b2i(taints)]
	if *m != nil {
		return *m
	}
	var key strings.Builder
	var topos []*framework.Topology
	if narrow {
		key.WriteString(o.partialKey)
		topos = o.topos
	}
	if affinity {
		key.WriteString("A")
		writeAffinityKey(&key, o.pod)
	}
	if taints {
		key.WriteString("T")
		writeTolerationsKey(&key, o.pod)
	}
	sets := o.snap.Index(Name+"/nodesets", func(*framework.Snapshot) framework.PodIndex {
		return &nodeSets{sets: map[string]*nodeSet{}}
	}).(*nodeSets)
	k := key.String()
	ns := sets.sets[k]
	if ns == nil {
		ns = newNodeSet(o.snap, o.pod, topos, affinity, taints)
		if len(sets.sets) < maxNodeSets {
			ns.cached = true
			sets.sets[k] = ns
		}
	}
	*m = ns
	return ns
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// newNodeSet marks the nodes that have every key of partial and pass the
// pod's node affinity and taints where those policies are Honor.
func newNodeSet(snap *framework.Snapshot, pod *api.Pod, partial []*framework.Topology, affinity, taints bool) *nodeSet {
	ns := &nodeSet{mask: make([]bool, len(snap.Nodes())), presence: map[*framework.Topology]*domainPresence{}}
nodes:
	for n, ni := range snap.Nodes() {
		for _, t := range partial {
			if t.DomainOf[n] < 0 {
				continue nodes
			}
		}
		e := eligibilityOf(pod, ni.Node, affinity, taints)
		ns.mask[n] = e.affinity && e.taints
	}
	return ns
}

// writeAffinityKey writes the pod's nodeSelector and required node
// affinity canonically (two pods with the same ones select the same nodes).
func writeAffinityKey(b *strings.Builder, pod *api.Pod) {
	keys := make([]string, 0, len(pod.Spec.NodeSelector))
	for k := range pod.Spec.NodeSelector {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteString(k + "=" + pod.Spec.NodeSelector[k] + "\x00")
	}
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return
	}
	b.WriteString("|")
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		b.WriteString("(")
		for _, r := range t.MatchExpressions {
			b.WriteString("e" + r.Key + "\x00" + r.Operator + "\x00" + strings.Join(r.Values, "\x01") + "\x00")
		}
		for _, r := range t.MatchFields {
			b.WriteString("f" + r.Key + "\x00" + r.Operator + "\x00" + strings.Join(r.Values, "\x01") + "\x00")
		}
		b.WriteString(")")
	}
}

func writeTolerationsKey(b *strings.Builder, pod *api.Pod) {
	for _, t := range pod.Spec.Tolerations {
		b.WriteString(t.Key + "\x00" + t.Operator + "\x00" + t.Value + "\x00" + t.Effect + "\x01")
	}
}
