package controllers

import (
	"fmt"
	"sort"

	"podlab.dev/podlab/engine/api"
)

// DomainCount is the number of a workload's pods in one topology domain.
type DomainCount struct {
	Domain string
	Count  int
}

// Spread is how a workload's running pods are spread over one topology
// key: counts per domain (every eligible domain, zero counts included,
// sorted by domain) and the skew (max − min over those domains), the
// numbers PodTopologySpread reasons about.
type Spread struct {
	Kind, Namespace, Name string
	// Revision is the pod-template-hash when the spread is of one
	// Deployment revision, "" for the whole workload.
	Revision    string
	TopologyKey string
	Domains     []DomainCount
	Skew        int
	// Pods counted (bound, not terminating, not finished); Unscheduled
	// pods are pending and count nowhere.
	Pods, Unscheduled int
}

// SpreadOf computes the spread of pods over nodes for a topology key.
// Eligible domains are those of nodes that have the key and pass
// eligible (nil: every node), like PodTopologySpread with
// nodeAffinityPolicy Honor; terminating pods are not counted (as the
// scheduler ignores them when counting).
func SpreadOf(pods []*api.Pod, nodes []*api.Node, topologyKey string, eligible func(*api.Node) bool) Spread {
	return newTopologyDomains(nodes, topologyKey).spread(pods, eligible)
}

// topologyDomains is one topology key's domains over the nodes, found
// once for the spread of many workloads: the spread report asks for every
// workload of an imported cluster (2,800 Deployments on 1,000 nodes) by
// zone and hostname, and a pass over the nodes' labels per workload and
// key cost 4 of its 6 CPU seconds.
type topologyDomains struct {
	key string
	// names are the distinct values, sorted; nodes are the nodes that
	// have the key and domain[i] the index of nodes[i]'s value.
	names  []string
	nodes  []*api.Node
	domain []int
	// ofNode is a node name's domain index.
	ofNode map[string]int
	// all is every domain eligible (no node filter).
	all []bool
}

func newTopologyDomains(nodes []*api.Node, key string) *topologyDomains {
	d := &topologyDomains{key: key, ofNode: make(map[string]int, len(nodes))}
	index := map[string]int{}
	for _, n := range nodes {
		v, ok := n.Labels[key]
		if !ok {
			continue
		}
		if _, seen := index[v]; !seen {
			index[v] = len(d.names)
			d.names = append(d.names, v)
		}
		d.nodes = append(d.nodes, n)
	}
	// number the domains in sorted order
	sort.Strings(d.names)
	for i, v := range d.names {
		index[v] = i
	}
	d.domain = make([]int, len(d.nodes))
	for i, n := range d.nodes {
		d.domain[i] = index[n.Labels[key]]
		d.ofNode[n.Name] = d.domain[i]
	}
	d.all = make([]bool, len(d.names))
	for i := range d.all {
		d.all[i] = true
	}
	return d
}

// spread is SpreadOf over these domains.
func (d *topologyDomains) spread(pods []*api.Pod, eligible func(*api.Node) bool) Spread {
	elig := d.all
	if eligible != nil {
		elig = make([]bool, len(d.names))
		for i, n := range d.nodes {
			if !elig[d.domain[i]] && eligible(n) {
				elig[d.domain[i]] = true
			}
		}
	}
	counts := make([]int, len(d.names))
	s := Spread{TopologyKey: d.key}
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.IsTerminal() {
			continue
		}
		if p.Spec.NodeName == "" {
			s.Unscheduled++
			continue
		}
		s.Pods++
		if i, ok := d.ofNode[p.Spec.NodeName]; ok && elig[i] {
			counts[i]++
		}
	}
	n := 0
	for _, e := range elig {
		if e {
			n++
		}
	}
	if n == 0 {
		return s
	}
	s.Domains = make([]DomainCount, 0, n)
	for i, name := range d.names {
		if elig[i] {
			s.Domains = append(s.Domains, DomainCount{Domain: name, Count: counts[i]})
		}
	}
	lo, hi := s.Domains[0].Count, s.Domains[0].Count
	for _, dc := range s.Domains {
		lo, hi = min(lo, dc.Count), max(hi, dc.Count)
	}
	s.Skew = hi - lo
	return s
}

// workloadPods returns the pods a workload controls (for a Deployment:
// the pods of all its ReplicaSets) and its pod template.
func (m *Manager) workloadPods(kind, namespace, name string) ([]*api.Pod, *api.PodTemplateSpec, error) {
	owners := map[string]bool{}
	var tmpl *api.PodTemplateSpec
	switch kind {
	case KindDeployment:
		d := m.Deployment(namespace, name)
		if d == nil {
			return nil, nil, fmt.Errorf("deployment %q not found", key(namespace, name))
		}
		for _, rs := range m.ownedReplicaSets(d) {
			owners[rs.UID] = true
		}
		tmpl = &d.Spec.Template
	default:
		meta, _ := m.lookup(kind, namespace, name)
		if meta == nil {
			return nil, nil, fmt.Errorf("%s %q not found", kind, key(namespace, name))
		}
		owners[meta.UID] = true
		switch kind {
		case KindReplicaSet:
			tmpl = &m.ReplicaSet(namespace, name).Spec.Template
		case KindReplicationController:
			tmpl = &m.ReplicationController(namespace, name).Spec.Template
		case KindStatefulSet:
			tmpl = &m.StatefulSet(namespace, name).Spec.Template
		case KindDaemonSet:
			tmpl = &m.DaemonSet(namespace, name).Spec.Template
		case KindJob:
			tmpl = &m.Job(namespace, name).Spec.Template
		default:
			return nil, nil, fmt.Errorf("%s has no pods of its own", kind)
		}
	}
	var pods []*api.Pod
	if m.q != nil {
		// the work queues index pods by controller: no pass over the
		// namespace per workload (a report asks for every workload)
		m.q.apply()
		for uid := range owners {
			for _, p := range m.q.byOwner[uid] {
				if p.Namespace == namespace {
					pods = append(pods, p)
				}
			}
		}
	} else {
		for _, p := range m.cluster.Pods(namespace) {
			if ref := p.ControllerRef(); ref != nil && owners[ref.UID] {
				pods = append(pods, p)
			}
		}
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	return pods, tmpl, nil
}

// WorkloadSpread is the spread of a workload's pods over topologyKey;
// domains are those of nodes matching the pod template's nodeSelector and
// required node affinity.
func (m *Manager) WorkloadSpread(kind, namespace, name, topologyKey string) (Spread, error) {
	pods, tmpl, err := m.workloadPods(kind, namespace, name)
	if err != nil {
		return Spread{}, err
	}
	s := SpreadOf(pods, m.cluster.Nodes(), topologyKey, templateEligible(tmpl))
	s.Kind, s.Namespace, s.Name = kind, namespaceOrDefault(namespace), name
	return s, nil
}

// RevisionSpreads is WorkloadSpread for each revision (pod-template-hash)
// of a Deployment, newest revision last: during a rollout it shows the new
// ReplicaSet spreading while the old one drains.
func (m *Manager) RevisionSpreads(namespace, name, topologyKey string) ([]Spread, error) {
	d := m.Deployment(namespace, name)
	if d == nil {
		return nil, fmt.Errorf("deployment %q not found", key(namespace, name))
	}
	pods, tmpl, err := m.workloadPods(KindDeployment, namespace, name)
	if err != nil {
		return nil, err
	}
	rss := m.ownedReplicaSets(d)
	sortByRevision(rss)
	var out []Spread
	for _, rs := range rss {
		hash := rs.Labels[api.LabelPodTemplateHash]
		var mine []*api.Pod
		for _, p := range pods {
			if isControlledBy(&p.ObjectMeta, rs.UID) {
				mine = append(mine, p)
			}
		}
		s := SpreadOf(mine, m.cluster.Nodes(), topologyKey, templateEligible(tmpl))
		s.Kind, s.Namespace, s.Name, s.Revision = KindDeployment, d.Namespace, name, hash
		out = append(out, s)
	}
	return out, nil
}

// templateEligible is the node filter of a pod template's nodeSelector
// and required node affinity; nil (every node) when it has neither.
func templateEligible(t *api.PodTemplateSpec) func(*api.Node) bool {
	if t == nil {
		return nil
	}
	if a := t.Spec.Affinity; len(t.Spec.NodeSelector) == 0 && (a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil) {
		return nil
	}
	probe := &api.Pod{Spec: t.Spec}
	return func(n *api.Node) bool { return api.PodMatchesNodeSelectorAndAffinityTerms(probe, n) }
}

// SpreadReport is the final report's per-workload spread: every
// Deployment, ReplicaSet without a Deployment, StatefulSet and DaemonSet
// over each of the keys, in a stable order.
func (m *Manager) SpreadReport(keys []string) []Spread {
	type wl struct{ kind, ns, name string }
	var wls []wl
	for _, d := range m.Deployments() {
		wls = append(wls, wl{KindDeployment, d.Namespace, d.Name})
	}
	for _, rs := range m.ReplicaSets() {
		if rs.ControllerRef() == nil {
			wls = append(wls, wl{KindReplicaSet, rs.Namespace, rs.Name})
		}
	}
	for _, rc := range m.ReplicationControllers() {
		wls = append(wls, wl{KindReplicationController, rc.Namespace, rc.Name})
	}
	for _, s := range m.StatefulSets() {
		wls = append(wls, wl{KindStatefulSet, s.Namespace, s.Name})
	}
	for _, ds := range m.DaemonSets() {
		wls = append(wls, wl{KindDaemonSet, ds.Namespace, ds.Name})
	}
	// each key's domains are found once, each workload's pods and
	// template once for all keys
	nodes := m.cluster.Nodes()
	domains := make([]*topologyDomains, len(keys))
	for i, k := range keys {
		domains[i] = newTopologyDomains(nodes, k)
	}
	var out []Spread
	for _, w := range wls {
		pods, tmpl, err := m.workloadPods(w.kind, w.ns, w.name)
		if err != nil {
			continue
		}
		eligible := templateEligible(tmpl)
		for _, d := range domains {
			s := d.spread(pods, eligible)
			s.Kind, s.Namespace, s.Name = w.kind, namespaceOrDefault(w.ns), w.name
			out = append(out, s)
		}
	}
	return out
}

func namespaceOrDefault(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}
