package podtopologyspread

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

func explainAll(t *testing.T, pl *Plugin, snap *framework.Snapshot, pod *api.Pod) map[string]*Explanation {
	t.Helper()
	state := framework.NewCycleState()
	pi := framework.NewPodInfo(pod)
	pl.PreFilter(state, pi, snap)
	pl.PreScore(state, pi, snap, snap.Nodes())
	out := map[string]*Explanation{}
	for _, ni := range snap.Nodes() {
		e, _ := pl.ExplainNode(state, pi, ni).(*Explanation)
		out[ni.Node.Name] = e
	}
	return out
}

func TestExplainHardConstraint(t *testing.T) {
	snap := newSnapshot(t, nodes(append(append([]string{}, docsNodes...), "node5 node=node5")...), pods(docsPods...))
	pod := docsPod().Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: dns,
		LabelSelector: matchLabels("foo", "bar"), MinDomains: ptr[int32](3)}).Obj()
	got := explainAll(t, mustNew(t, Args{}), snap, pod)
	domains := []DomainCount{{Domain: "zoneA", Count: 2, Eligible: true}, {Domain: "zoneB", Count: 1, Eligible: true}}
	base := ConstraintExplanation{
		TopologyKey: "zone", WhenUnsatisfiable: dns, MaxSkew: 1, MinDomains: 3,
		NodeAffinityPolicy: api.PolicyHonor, NodeTaintsPolicy: api.PolicyIgnore, Selector: "foo=bar",
		SelfMatch: 1, GlobalMin: 0, EligibleDomains: 2, MinDomainsForcedZero: true, Domains: domains,
	}
	node1 := base
	node1.Domain, node1.MatchNum, node1.Skew, node1.Pass = "zoneA", 2, 3, false
	node3 := base
	node3.Domain, node3.MatchNum, node3.Skew, node3.Pass = "zoneB", 1, 2, false
	node5 := base
	node5.MissingLabel, node5.Pass = true, false
	for name, want := range map[string]ConstraintExplanation{"node1": node1, "node3": node3, "node5": node5} {
		e := got[name]
		if e == nil || len(e.Hard) != 1 || len(e.Soft) != 0 {
			t.Fatalf("%s: explanation %+v", name, e)
		}
		if !reflect.DeepEqual(e.Hard[0], want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, e.Hard[0], want)
		}
	}
	// the verdict in the explanation agrees with Filter
	codes := filterCodes(t, mustNew(t, Args{}), snap, pod)
	for name, e := range got {
		if e.Hard[0].Pass != (codes[name] == framework.Success) {
			t.Errorf("%s: explanation pass=%v but Filter %v", name, e.Hard[0].Pass, codes[name])
		}
	}
}

func TestExplainSoftConstraints(t *testing.T) {
	h := api.LabelHostname
	snap := newSnapshot(t, nodes("a "+h+"=a zone=z1", "b "+h+"=b zone=z1", "c "+h+"=c zone=z2", "d zone=z2"),
		pods("r1 @a app=web", "r2 @a app=web", "r3 @c app=web", "r4 @d app=web"))
	web := matchLabels("app", "web")
	pod := makePod("p").Label("app", "web").Spread(1, "zone", anyway, web).Spread(2, h, anyway, web).Obj()
	got := explainAll(t, mustNew(t, Args{}), snap, pod)

	a := got["a"]
	if a == nil || len(a.Hard) != 0 || len(a.Soft) != 2 || a.Ignored {
		t.Fatalf("a: %+v", a)
	}
	zone, host := a.Soft[0], a.Soft[1]
	// zone: domains z1 (a, b) and z2 (c): weight ln 4. d lacks the
	// hostname key, so it is ignored and its pod is not counted.
	if zone.Domain != "z1" || zone.MatchNum != 2 || zone.NormalizingWeight != topologyNormalizingWeight(2) ||
		!reflect.DeepEqual(zone.Domains, []DomainCount{{"z1", 2, true}, {"z2", 1, true}}) {
		t.Errorf("zone: %+v", zone)
	}
	if want := scoreForCount(2, 1, topologyNormalizingWeight(2)); zone.Score != want {
		t.Errorf("zone score %v, want %v", zone.Score, want)
	}
	// hostname counts on the node itself; 3 scored nodes: weight ln 5.
	if host.Domain != "a" || host.MatchNum != 2 || host.NormalizingWeight != topologyNormalizingWeight(3) {
		t.Errorf("hostname: %+v", host)
	}
	// 2·ln4 = 2.773, 2·ln5 + (maxSkew−1 = 1) = 4.219 → 6.99 → 7
	if a.RawScore != 7 {
		t.Errorf("raw score %d, want 7", a.RawScore)
	}
	if d := got["d"]; d == nil || !d.Ignored || d.RawScore != 0 || !d.Soft[1].MissingLabel {
		t.Errorf("d: %+v", d)
	}
}

func TestExplainNothingRan(t *testing.T) {
	snap := newSnapshot(t, nodes(docsNodes...), nil)
	pod := makePod("p").Obj()
	for name, e := range explainAll(t, mustNew(t, Args{}), snap, pod) {
		if e != nil {
			t.Errorf("%s: %+v, want nil for a pod without constraints", name, e)
		}
	}
}
