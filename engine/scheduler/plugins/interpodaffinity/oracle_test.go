package interpodaffinity

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

// The cluster of a scenario checked against `oracle explain` (the real
// v1.36 framework): five nodes (n5 without a zone), namespaces team1/team2
// with team labels, and existing pods with required and preferred terms.
// The expected verdicts and normalised scores below are the oracle's.
func oracleCluster() *framework.Snapshot {
	zone := func(name, z string) *api.Node {
		l := map[string]string{api.LabelHostname: name}
		if z != "" {
			l[api.LabelTopologyZone] = z
		}
		return node(name, l)
	}
	nodes := []*api.Node{zone("n1", "a"), zone("n2", "a"), zone("n3", "b"), zone("n4", "c"), zone("n5", "")}
	pods := []*api.Pod{
		pod().Name("db1").Namespace("team1").Label("app", "db").Node("n1").Obj(),
		pod().Name("db2").Namespace("team2").Label("app", "db").Node("n4").Obj(),
		pod().Name("web1").Label("app", "web").Node("n3").
			PodAffinityTerm(true, term(api.LabelTopologyZone, &api.LabelSelector{MatchLabels: map[string]string{"app": "cache"}})).Obj(),
		pod().Name("cache0").Label("app", "cache").Node("n4").
			PreferredPodAffinityTerm(false, 10, term(api.LabelTopologyZone, &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}})).Obj(),
		pod().Name("x").Label("app", "x").Node("n2").
			PodAffinityTerm(false, term(api.LabelHostname, &api.LabelSelector{MatchLabels: map[string]string{"app": "front"}})).
			PreferredPodAffinityTerm(true, 7, nsTerm(api.LabelTopologyZone, &api.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}}, &api.LabelSelector{})).Obj(),
	}
	s := tu.NewSnapshot(nodes, pods)
	s.SetNamespace("team1", map[string]string{"team": "t1"})
	s.SetNamespace("team2", map[string]string{"team": "t2"})
	return s
}

func TestAgainstOracle(t *testing.T) {
	match := func(k, v string) *api.LabelSelector { return &api.LabelSelector{MatchLabels: map[string]string{k: v}} }
	cases := []struct {
		name   string
		pod    *tu.PodWrapper
		want   []verdict // per node n1..n5
		scores []int64   // normalised, per node; infeasible nodes ignored
	}{
		{
			name: "affinity with namespaceSelector team=t1",
			pod: pod().Name("p-aff").Label("app", "front").
				PodAffinityTerm(false, nsTerm(api.LabelTopologyZone, match("app", "db"), match("team", "t1"))),
			want:   []verdict{ok, ok, affinityFail, affinityFail, affinityFail},
			scores: []int64{0, 100, 0, 0, 0},
		},
		{
			name: "affinity with an empty namespaceSelector",
			pod: pod().Name("p-aff-all").Label("app", "front").
				PodAffinityTerm(false, nsTerm(api.LabelTopologyZone, match("app", "db"), &api.LabelSelector{})),
			want:   []verdict{ok, ok, affinityFail, ok, affinityFail},
			scores: []int64{0, 100, 0, 0, 0},
		},
		{
			name:   "anti-affinity per host, and an existing pod's anti-affinity per zone",
			pod:    pod().Name("p-anti").Label("app", "cache").PodAffinityTerm(true, term(api.LabelHostname, match("app", "x"))),
			want:   []verdict{ok, antiFail, existingFail, ok, ok},
			scores: []int64{0, 0, 0, 0, 0},
		},
		{
			name:   "self-affinity: first pod of its group",
			pod:    pod().Name("p-self").Label("app", "new").PodAffinityTerm(false, term(api.LabelTopologyZone, match("app", "new"))),
			want:   []verdict{ok, ok, ok, ok, affinityFail},
			scores: []int64{0, 0, 0, 0, 0},
		},
		{
			name: "preferred terms with namespaces and a metadata.name selector",
			pod: pod().Name("p-pref").Namespace("team2").Label("app", "front").Label("tier", "gold").
				PreferredPodAffinityTerm(false, 50, nsTerm(api.LabelTopologyZone, match("app", "db"), nil, "team1")).
				PreferredPodAffinityTerm(true, 30, nsTerm(api.LabelHostname, match("app", "web"), in(api.LabelMetadataName, "default"))),
			want:   []verdict{ok, ok, ok, ok, ok},
			scores: []int64{100, 100, 0, 41, 41},
		},
		{
			name:   "existing pods' preferred affinity only",
			pod:    pod().Name("p-none").Label("app", "web"),
			want:   []verdict{ok, ok, ok, ok, ok},
			scores: []int64{0, 0, 0, 100, 0},
		},
		{
			name:   "existing pods' required affinity (weight 1) and preferred anti-affinity",
			pod:    pod().Name("p-front").Label("app", "front").Label("tier", "gold"),
			want:   []verdict{ok, ok, ok, ok, ok},
			scores: []int64{0, 14, 100, 100, 100},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			snap := oracleCluster()
			pl := New()
			pi := tc.pod.Info()
			state := framework.NewCycleState()
			_, st := pl.PreFilter(state, pi, snap)
			var feasible []*framework.NodeInfo
			for i, ni := range snap.Nodes() {
				got := ok
				if !st.IsSkip() {
					if fs := pl.Filter(state, pi, ni); !fs.IsSuccess() {
						got = verdict{fs.Code, fs.Message()}
					}
				}
				if got != tc.want[i] {
					t.Errorf("%s: %v, want %v", ni.Node.Name, got, tc.want[i])
				}
				if got == ok {
					feasible = append(feasible, ni)
				}
			}
			scores := make([]framework.NodeScore, len(feasible))
			pst := pl.PreScore(state, pi, snap, feasible)
			for i, ni := range feasible {
				scores[i] = framework.NodeScore{Name: ni.Node.Name, Index: ni.Index}
				if pst.IsSuccess() {
					scores[i].Score, _ = pl.Score(state, pi, ni)
				}
			}
			if pst.IsSuccess() {
				pl.NormalizeScore(state, pi, scores)
			}
			for _, s := range scores {
				if want := tc.scores[s.Index]; s.Score != want {
					t.Errorf("%s: score %d, want %d", s.Name, s.Score, want)
				}
			}
		})
	}
}

func TestExplainNode(t *testing.T) {
	snap := oracleCluster()
	pl := New()
	pi := pod().Name("p").Label("app", "cache").Label("tier", "gold").
		PodAffinityTerm(false, term(api.LabelTopologyZone, &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}})).Info()
	state := framework.NewCycleState()
	pl.PreFilter(state, pi, snap)
	pl.PreScore(state, pi, snap, snap.Nodes())
	d, _ := pl.ExplainNode(state, pi, snap.Get("n3")).(*NodeDetail)
	if d == nil {
		t.Fatal("no detail")
	}
	if len(d.Required) != 1 || d.Required[0].Domain != "b" || d.Required[0].Matching != 0 || !d.Required[0].HasKey || d.SelfMatch {
		t.Errorf("Required = %+v SelfMatch=%v", d.Required, d.SelfMatch)
	}
	if len(d.ExistingAntiAffinity) != 1 || d.ExistingAntiAffinity[0] != (DomainCount{api.LabelTopologyZone, "b", 1}) {
		t.Errorf("ExistingAntiAffinity = %+v", d.ExistingAntiAffinity)
	}
	// x on n2 repels tier=gold in zone a with weight 7.
	d2, _ := pl.ExplainNode(state, pi, snap.Get("n1")).(*NodeDetail)
	if len(d2.Score) != 1 || d2.Score[0] != (DomainCount{api.LabelTopologyZone, "a", -7}) || d2.Required[0].Matching != 0 { // db1 is in team1, not the pod's namespace
		t.Errorf("n1 detail = %+v", d2)
	}
	if pl.ExplainNode(framework.NewCycleState(), pi, snap.Get("n1")) != nil {
		t.Errorf("ExplainNode without state should be nil")
	}
}
