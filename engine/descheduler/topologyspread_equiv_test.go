package descheduler

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// randomSpreadState is a cluster for the topology spread plugin: nodes
// in up to four zones (some without the label, some tainted), pods of a
// few apps whose labels vary within an app (so one selector matches
// several label sets), placed unevenly, some terminating, most declaring
// a zone spread constraint by matchLabels or by an In expression that
// selects two apps.
func randomSpreadState(r *rand.Rand) *State {
	s := &State{Now: api.Time(3600e9)}
	nn := 3 + r.IntN(20)
	zones := 2 + r.IntN(3)
	for i := 0; i < nn; i++ {
		n := buildNode(fmt.Sprintf("n%02d", i), 4000+int64(r.IntN(8000)), 32<<30, 110)
		if r.IntN(8) != 0 {
			n.Labels["zone"] = fmt.Sprintf("z%d", r.IntN(zones))
		}
		if r.IntN(8) == 0 {
			n.Spec.Taints = []api.Taint{{Key: "gpu", Value: "yes", Effect: api.TaintEffectNoSchedule}}
		}
		s.Nodes = append(s.Nodes, n)
	}
	skewed := r.IntN(nn)
	for i := 0; i < 20+r.IntN(300); i++ {
		node := r.IntN(nn)
		if r.IntN(2) == 0 {
			node = skewed
		}
		app := fmt.Sprintf("app-%d", r.IntN(4))
		p := buildPod(fmt.Sprintf("p%03d", i), 100+int64(r.IntN(900)), 64<<20, fmt.Sprintf("n%02d", node), rsOwner,
			labels("app", app, "tier", []string{"web", "db"}[r.IntN(2)]))
		p.Namespace = []string{"default", "team"}[r.IntN(2)]
		p.OwnerReferences[0].UID = app
		if r.IntN(2) == 0 {
			p.Labels = map[string]string{"app": app} // one label: the neighbour shortcut
		}
		if r.IntN(10) == 0 {
			p.Spec.Tolerations = []api.Toleration{{Key: "gpu", Operator: api.TolerationOpExists}}
		}
		if r.IntN(12) == 0 {
			at := api.Time(0)
			p.DeletionTimestamp = &at
		}
		switch r.IntN(4) {
		case 0, 1:
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: int32(1 + r.IntN(2)), TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}}}
		case 2:
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
				LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{app, "app-0"}}}}}}
		}
		s.Pods = append(s.Pods, p)
	}
	return s
}

// TestTopologySpreadMatchesReference runs the topology spread plugin
// and the reference implementation (every constraint walks every pod of
// its namespace) on 300 random clusters, with and without
// topologyBalanceNodeFit and eviction limits, and requires the same
// evictions with the same reasons in the same order.
func TestTopologySpreadMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	total := 0
	for i := 0; i < 300; i++ {
		s := randomSpreadState(r)
		pol := &Policy{Profiles: []Profile{{Name: "p", Balance: []string{TopologySpreadName}}}}
		if i%2 == 1 {
			pol.Profiles[0].Args.TopologySpread.TopologyBalanceNodeFit = ptr(false)
		}
		if i%3 == 2 {
			pol.MaxNoOfPodsToEvictPerNode = ptr(uint(1 + r.IntN(3)))
		}
		ok := func(*api.Pod, *Eviction) string { return "" }
		got := Run(pol, s, true, ok)
		topologySpreadPlugin = topologySpreadReference
		want := Run(pol, s, true, ok)
		topologySpreadPlugin = topologySpread
		if !reflect.DeepEqual(got.Evictions, want.Evictions) {
			t.Fatalf("cluster %d: evictions differ\ngot  %+v\nwant %+v", i, got.Evictions, want.Evictions)
		}
		total += len(got.Evictions)
	}
	if total < 1000 {
		t.Fatalf("only %d evictions over the clusters: the test does not exercise the plugin", total)
	}
	t.Logf("%d evictions compared", total)
}
