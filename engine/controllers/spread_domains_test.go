package controllers

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// spreadOfByMaps is SpreadOf as it was before topologyDomains: a pass over
// the nodes' labels per call, counts in a map. The reference below.
func spreadOfByMaps(pods []*api.Pod, nodes []*api.Node, topologyKey string, eligible func(*api.Node) bool) Spread {
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

// Domains found once and reused give, for random clusters, pods and node
// filters, what a pass per call gives — domain for domain, zero counts,
// the order, skew and pending pods included.
func TestTopologyDomainsMatchPerCallSpread(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 6))
	for round := range 200 {
		var ns []*api.Node
		for i := range r.IntN(12) {
			labels := map[string]string{"disk": []string{"ssd", "hdd"}[r.IntN(2)]}
			if r.IntN(5) > 0 { // some nodes have no zone
				labels[api.LabelTopologyZone] = fmt.Sprintf("z%d", r.IntN(4))
			}
			ns = append(ns, mkNode(fmt.Sprintf("n%02d", i), labels))
		}
		var pods []*api.Pod
		for i := range r.IntN(30) {
			b := mkPod(fmt.Sprintf("p%02d", i))
			switch r.IntN(6) {
			case 0: // pending
			case 1:
				b.node("gone").running() // a node that is not in the list
			case 2:
				b.node(fmt.Sprintf("n%02d", r.IntN(12))).terminating(0)
			case 3:
				b.node(fmt.Sprintf("n%02d", r.IntN(12))).phase(api.PodSucceeded)
			default:
				b.node(fmt.Sprintf("n%02d", r.IntN(12))).running()
			}
			pods = append(pods, b.obj())
		}
		var eligible func(*api.Node) bool
		if r.IntN(2) == 0 {
			want := []string{"ssd", "hdd"}[r.IntN(2)]
			eligible = func(n *api.Node) bool { return n.Labels["disk"] == want }
		}
		for _, key := range []string{api.LabelTopologyZone, api.LabelHostname, "missing"} {
			want := spreadOfByMaps(pods, ns, key, eligible)
			d := newTopologyDomains(ns, key)
			for range 2 { // reused
				if got := d.spread(pods, eligible); !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, key %s: got %+v, want %+v", round, key, got, want)
				}
			}
		}
	}
}

// The report's spreads are WorkloadSpread's, workload by workload and key
// by key, for a template with a nodeSelector and one without.
func TestSpreadReportMatchesWorkloadSpread(t *testing.T) {
	var ns []*api.Node
	for i := range 6 {
		ns = append(ns, mkNode(fmt.Sprintf("node-%d", i), map[string]string{api.LabelTopologyZone: fmt.Sprintf("z%d", i%3), "disk": []string{"ssd", "hdd"}[i%2]}))
	}
	fc := newFakeCluster(t, ns...)
	if _, err := fc.m.AddDeployment(nginxDeployment(5)); err != nil {
		t.Fatal(err)
	}
	ssd := nginxDeployment(4)
	ssd.Name = "ssd"
	ssd.Spec.Selector = labelSel("app", "ssd")
	ssd.Spec.Template = template("nginx:1.14.2", "app", "ssd")
	ssd.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	if _, err := fc.m.AddDeployment(ssd); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	keys := []string{api.LabelTopologyZone, api.LabelHostname}
	got := fc.m.SpreadReport(keys)
	var want []Spread
	for _, d := range fc.m.Deployments() {
		for _, k := range keys {
			s, err := fc.m.WorkloadSpread(KindDeployment, d.Namespace, d.Name, k)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, s)
		}
	}
	if len(want) != 4 || !reflect.DeepEqual(got, want) {
		t.Fatalf("report %+v\nwant %+v", got, want)
	}
	// the nodeSelector narrows the hostname domains to the ssd nodes
	if n := len(want[1].Domains) + len(want[3].Domains); n != 6+3 {
		t.Fatalf("hostname domains: %d", n)
	}
}
