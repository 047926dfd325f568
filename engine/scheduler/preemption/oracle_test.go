package preemption

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
)

// A scenario checked with `oracle schedule` (the real v1.36
// DefaultPreemption): zone a holds a low-priority pod whose anti-affinity
// repels app=web from the zone, zone b a mid-priority web pod, zone c a
// full node with the cache web-new needs. The expected outcomes are the
// oracle's.
func affinityCluster() *fakeHandle {
	zoned := func(name, zone string) *api.Node { return mkNode(name, "2", api.LabelTopologyZone, zone) }
	noisy := mkPod(podSpec{name: "noisy", node: "a1", cpu: "500m", prio: 10, start: 1, labels: []string{"app", "noisy"}})
	noisy.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
		{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: api.LabelTopologyZone}}}}
	return newHandle(
		[]*api.Node{zoned("a1", "a"), zoned("a2", "a"), zoned("b1", "b"), zoned("c1", "c")},
		[]*api.Pod{
			noisy,
			mkPod(podSpec{name: "filler-a2", node: "a2", cpu: "1", prio: 500, start: 2, labels: []string{"app", "filler"}}),
			mkPod(podSpec{name: "web-b", node: "b1", cpu: "500m", prio: 500, start: 3, labels: []string{"app", "web"}}),
			mkPod(podSpec{name: "cache-c", node: "c1", cpu: "1500m", prio: 10, start: 4, labels: []string{"app", "cache"}}),
			mkPod(podSpec{name: "low-c", node: "c1", cpu: "500m", prio: 10, start: 5, labels: []string{"app", "batch"}}),
		},
		tainted{}, fit{}, interpodaffinity.New())
}

func webPod(name, cpu string, withCacheAffinity bool) *api.Pod {
	p := mkPod(podSpec{name: name, cpu: cpu, prio: 1000, labels: []string{"app", "web"}})
	p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
		{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: api.LabelHostname}}}}
	if withCacheAffinity {
		p.Spec.Affinity.PodAffinity = &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
			{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "cache"}}, TopologyKey: api.LabelTopologyZone}}}
	}
	return p
}

func TestAffinityScenarioAgainstOracle(t *testing.T) {
	// web-new needs the cache's zone; the dry run on c1 removes the cache
	// itself, so the affinity fails there too.
	r := preempt(affinityCluster(), webPod("web-new", "500m", true))
	want := "preemption: 0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 Preemption is not helpful for scheduling."
	if r.NominatedNode != "" || r.Message != want {
		t.Errorf("web-new: got %q %q\nwant message %q", r.NominatedNode, r.Message, want)
	}
	// web2: a1 (evict noisy) and c1 (evict low-c) tie on priorities and
	// counts; low-c started later, so c1 wins. a2 cannot help: noisy's
	// anti-affinity comes from another node.
	r = preempt(affinityCluster(), webPod("web2", "100m", false))
	if r.NominatedNode != "c1" || fmtKeys(keys(r.Victims)) != "[default/low-c]" || r.DecidedBy != ByStartTime {
		t.Errorf("web2: got %q %v by %q (%s)", r.NominatedNode, keys(r.Victims), r.DecidedBy, r.Message)
	}
	if st := r.DryRun["a2"]; st == nil || st.Message() != interpodaffinity.ErrReasonExistingAntiAffinityRulesNotMatch {
		t.Errorf("a2 dry run = %v", st)
	}
}
