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
	domainOf := map[string]string{}
	counts := map[string]int{}
	for _, n := range nodes {
		v, ok := n.Labels[topologyKey]
		if !ok {
			continue
		}
		domainOf[n.Name] = v
		if eligible == nil || eligible(n) {
			if _, seen := counts[v]; !seen {
				counts[v] = 0
			}
		}
	}
	s := Spread{TopologyKey: topologyKey}
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.IsTerminal() {
			continue
		}
		if p.Spec.NodeName == "" {
			s.Unscheduled++
			continue
		}
		s.Pods++
		if d, ok := domainOf[p.Spec.NodeName]; ok {
			if _, elig := counts[d]; elig {
				counts[d]++
			}
		}
	}
	for _, d := range sortedKeys(counts) {
		s.Domains = append(s.Domains, DomainCount{Domain: d, Count: counts[d]})
	}
	if len(s.Domains) > 0 {
		lo, hi := s.Domains[0].Count, s.Domains[0].Count
		for _, dc := range s.Domains {
			lo, hi = min(lo, dc.Count), max(hi, dc.Count)
		}
		s.Skew = hi - lo
	}
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

func templateEligible(t *api.PodTemplateSpec) func(*api.Node) bool {
	if t == nil {
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
	var out []Spread
	for _, w := range wls {
		for _, k := range keys {
			if s, err := m.WorkloadSpread(w.kind, w.ns, w.name, k); err == nil {
				out = append(out, s)
			}
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
