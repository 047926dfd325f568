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

// nodeSetFor returns the nodes constraint i of the pod counts, or nil
// when that is every node with its key. requireAll is upstream's "only
// nodes with every constraint's key" (always for Filter; for scoring not
// with the system defaults).
func nodeSetFor(snap *framework.Snapshot, pod *api.Pod, cs []constraint, metas []*topologyMeta, i int, requireAll bool) *nodeSet {
	c := &cs[i]
	var partial []*framework.Topology
	var key strings.Builder
	if requireAll {
		var keys []string
		for j := range cs {
			if cs[j].TopologyKey != c.TopologyKey && metas[j].missing > 0 {
				keys = append(keys, cs[j].TopologyKey)
				partial = append(partial, metas[j].topo)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			key.WriteString("K" + k + "\x00")
		}
	}
	affinity := c.NodeAffinityPolicy == api.PolicyHonor && hasRequiredNodeAffinity(pod)
	if affinity {
		key.WriteString("A")
		writeAffinityKey(&key, pod)
	}
	taints := c.NodeTaintsPolicy == api.PolicyHonor
	if taints {
		key.WriteString("T")
		writeTolerationsKey(&key, pod)
	}
	if key.Len() == 0 {
		return nil
	}
	sets := snap.Index(Name+"/nodesets", func(*framework.Snapshot) framework.PodIndex {
		return &nodeSets{sets: map[string]*nodeSet{}}
	}).(*nodeSets)
	k := key.String()
	if ns := sets.sets[k]; ns != nil {
		return ns
	}
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
	if len(sets.sets) < maxNodeSets {
		ns.cached = true
		sets.sets[k] = ns
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
