package podtopologyspread

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// TestOracleScenarios pins scenarios run through the real v1.36.3
// scheduler with `/tmp/oracle explain -f testdata/oracle/NAME.yaml`
// (the same nodes and pods in YAML). want holds this plugin's verdict per
// node and, for feasible nodes, the oracle's normalised PodTopologySpread
// score. Nodes the oracle rejected in an earlier filter (node affinity,
// taints) are given as the verdict this plugin alone returns, and are
// left out of scoring.
func TestOracleScenarios(t *testing.T) {
	H, Z := api.LabelHostname, api.LabelTopologyZone
	web := matchLabels("app", "web")
	tests := []struct {
		file   string
		nodes  []string
		pods   []string
		pod    *api.Pod
		codes  map[string]framework.Code
		scores map[string]int64 // feasible nodes (oracle)
	}{
		{
			// e lacks a zone: ignored by scoring (0). Pods in namespace
			// "other" and the terminating t1 are not counted.
			file:  "11-soft-zone-host.yaml",
			nodes: []string{"a " + H + "=a " + Z + "=z1", "b " + H + "=b " + Z + "=z1", "c " + H + "=c " + Z + "=z2", "d " + H + "=d " + Z + "=z2", "e " + H + "=e"},
			pods:  []string{"r1 @a app=web", "r2 @a app=web", "r3 @c app=web", "o1 @b app=web ns:other", "o2 @d app=web ns:other", "t1 @d app=web terminating"},
			pod:   makePod("mypod").Label("app", "web").Spread(1, Z, anyway, web).Spread(2, H, anyway, web).Obj(),
			codes: codes("a", ok, "b", ok, "c", ok, "d", ok, "e", ok),
			// a: 2·ln4 + 2·ln6 + 1 = 7.36 → 7; b: 2·ln4 + 1 → 4;
			// c: ln4 + ln6 + 1 → 4; d: ln4 + 1 → 2; 100·(7+2−s)/7.
			scores: map[string]int64{"a": 28, "b": 71, "c": 71, "d": 100, "e": 0},
		},
		{
			// n1's zone A is tainted and not tolerated: with Honor it is not
			// eligible, so min = 2 (zone B) and B passes (n1 is rejected by
			// TaintToleration first).
			file:   "12-taints-honor.yaml",
			nodes:  []string{"n1 zone=A taint:dedicated=x:NoSchedule", "n2 zone=B", "n3 zone=B"},
			pods:   []string{"q1 @n2 foo=bar", "q2 @n3 foo=bar"},
			pod:    makePod("mypod").Label("foo", "bar").Toleration("other", "").Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: dns, LabelSelector: matchLabels("foo", "bar"), NodeTaintsPolicy: honor}).Obj(),
			codes:  codes("n1", ok, "n2", ok, "n3", ok),
			scores: map[string]int64{"n2": 0, "n3": 0},
		},
		{
			file:  "13-taints-ignore.yaml",
			nodes: []string{"n1 zone=A taint:dedicated=x:NoSchedule", "n2 zone=B", "n3 zone=B"},
			pods:  []string{"q1 @n2 foo=bar", "q2 @n3 foo=bar"},
			pod:   makePod("mypod").Label("foo", "bar").Toleration("other", "").Spread(1, "zone", dns, matchLabels("foo", "bar")).Obj(),
			codes: codes("n1", ok, "n2", unsch, "n3", unsch),
		},
		{
			// matchLabelKeys [pod-template-hash]: only v2 pods count (A 0,
			// B 1), so B is too skewed.
			file:  "14-matchlabelkeys.yaml",
			nodes: []string{"n1 zone=A", "n2 zone=B"},
			pods:  []string{"v1a @n1 app=w pod-template-hash=v1", "v1b @n1 app=w pod-template-hash=v1", "v2a @n2 app=w pod-template-hash=v2"},
			pod: makePod("mypod").Label("app", "w").Label("pod-template-hash", "v2").Constraint(api.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: dns, LabelSelector: matchLabels("app", "w"), MatchLabelKeys: []string{"pod-template-hash"}}).Obj(),
			codes:  codes("n1", ok, "n2", unsch),
			scores: map[string]int64{"n1": 0},
		},
		{
			// c lacks the hostname label: ignored (0), its pod still counts
			// for zone z2. zone: z1 1, z2 3 (ln 4); hostname: a 1, b 0, d 2
			// (ln 5). a: 1.39+1.61 → 3; b: 1.39 → 1; d: 4.16+3.22 → 7.
			file:   "16-soft-ignored.yaml",
			nodes:  []string{"a " + H + "=a " + Z + "=z1", "b " + H + "=b " + Z + "=z1", "c " + Z + "=z2", "d " + H + "=d " + Z + "=z2"},
			pods:   []string{"r1 @a app=web", "r2 @c app=web", "r3 @d app=web", "r4 @d app=web"},
			pod:    makePod("mypod").Label("app", "web").Spread(1, Z, anyway, web).Spread(1, H, anyway, web).Obj(),
			codes:  codes("a", ok, "b", ok, "c", ok, "d", ok),
			scores: map[string]int64{"a": 66, "b": 100, "c": 0, "d": 16},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			snap := newSnapshot(t, nodes(tt.nodes...), pods(tt.pods...))
			pl := mustNew(t, Args{})
			if d := diffCodes(filterCodes(t, pl, snap, tt.pod), tt.codes); d != "" {
				t.Errorf("filter verdicts differ:\n%s", d)
			}
			if tt.scores == nil {
				return
			}
			var feasible []string
			for _, ni := range snap.Nodes() {
				if _, ok := tt.scores[ni.Node.Name]; ok {
					feasible = append(feasible, ni.Node.Name)
				}
			}
			if got := normalizedScores(t, pl, snap, tt.pod, feasible); !reflect.DeepEqual(got, tt.scores) {
				t.Errorf("scores = %v, oracle %v", got, tt.scores)
			}
		})
	}
}
