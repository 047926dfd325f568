package podtopologyspread

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// The four-node, two-zone cluster of the topology spread docs
// (seeds/topology-spread-constraints.uk.txt): node1/node2 in zoneA,
// node3/node4 in zoneB, one foo=bar pod on each of node1..node3.
var docsNodes = []string{
	"node1 node=node1 zone=zoneA",
	"node2 node=node2 zone=zoneA",
	"node3 node=node3 zone=zoneB",
	"node4 node=node4 zone=zoneB",
}

var docsPods = []string{"p1 @node1 foo=bar", "p2 @node2 foo=bar", "p3 @node3 foo=bar"}

func docsPod() *podBuilder { return makePod("mypod").Label("foo", "bar") }

// TestFilterDocsExamples pins every example of the topology spread docs.
// Cross-checked with /tmp/oracle explain (testdata/oracle/*.yaml).
func TestFilterDocsExamples(t *testing.T) {
	fooBar := matchLabels("foo", "bar")
	tests := []struct {
		name  string
		nodes []string
		pods  []string
		pod   *api.Pod
		want  map[string]framework.Code
	}{
		{
			// placing in zoneA makes [3, 1]: skew 2 > 1; zoneB makes [2, 2].
			name: "one constraint: only zoneB keeps the skew within maxSkew 1",
			pod:  docsPod().Spread(1, "zone", dns, fooBar).Obj(),
			want: codes("node1", unsch, "node2", unsch, "node3", ok, "node4", ok),
		},
		{
			name: "one constraint with maxSkew 2: zoneA is allowed too",
			pod:  docsPod().Spread(2, "zone", dns, fooBar).Obj(),
			want: codes("node1", ok, "node2", ok, "node3", ok, "node4", ok),
		},
		{
			name: "one constraint on the node key: only node4 (the empty node)",
			pod:  docsPod().Spread(1, "node", dns, fooBar).Obj(),
			want: codes("node1", unsch, "node2", unsch, "node3", unsch, "node4", ok),
		},
		{
			name: "one constraint ScheduleAnyway: no node is filtered",
			pod:  docsPod().Spread(1, "zone", anyway, fooBar).Obj(),
			want: codes("node1", ok, "node2", ok, "node3", ok, "node4", ok),
		},
		{
			name: "two constraints (zone and node): only node4 satisfies both",
			pod:  docsPod().Spread(1, "zone", dns, fooBar).Spread(1, "node", dns, fooBar).Obj(),
			want: codes("node1", unsch, "node2", unsch, "node3", unsch, "node4", ok),
		},
		{
			// 3 nodes in 2 zones: zoneA = node1 (2 pods) + node2 (1 pod),
			// zoneB = node3 (2 pods). The zone constraint allows only zoneB,
			// the node constraint only node2: the pod stays Pending.
			name:  "conflicting constraints: no node satisfies both",
			nodes: []string{"node1 node=node1 zone=zoneA", "node2 node=node2 zone=zoneA", "node3 node=node3 zone=zoneB"},
			pods:  []string{"p1 @node1 foo=bar", "p2 @node1 foo=bar", "p3 @node2 foo=bar", "p4 @node3 foo=bar", "p5 @node3 foo=bar"},
			pod:   docsPod().Spread(1, "zone", dns, fooBar).Spread(1, "node", dns, fooBar).Obj(),
			want:  codes("node1", unsch, "node2", unsch, "node3", unsch),
		},
		{
			// 5 nodes, zones A–C; zoneC is excluded by node affinity, so its
			// 0 pods no longer set the global minimum: zoneB (1) may take the
			// pod. node5 passes this filter (its domain is not eligible, so it
			// counts 0) but NodeAffinity rejects it.
			name:  "node affinity excluding zoneC: zoneB fits",
			nodes: append(append([]string{}, docsNodes...), "node5 node=node5 zone=zoneC"),
			pods:  []string{"p1 @node1 foo=bar", "p2 @node2 foo=bar", "p3 @node3 foo=bar"},
			pod:   docsPod().Spread(1, "zone", dns, fooBar).NodeAffinityNotIn("zone", "zoneC").Obj(),
			want:  codes("node1", unsch, "node2", unsch, "node3", ok, "node4", ok, "node5", ok),
		},
		{
			name:  "same, nodeAffinityPolicy Ignore: empty zoneC is the minimum, only node5 fits",
			nodes: append(append([]string{}, docsNodes...), "node5 node=node5 zone=zoneC"),
			pods:  []string{"p1 @node1 foo=bar", "p2 @node2 foo=bar", "p3 @node3 foo=bar"},
			pod: docsPod().Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: dns,
				LabelSelector: fooBar, NodeAffinityPolicy: ignore}).NodeAffinityNotIn("zone", "zoneC").Obj(),
			want: codes("node1", unsch, "node2", unsch, "node3", unsch, "node4", unsch, "node5", ok),
		},
		{
			// node1 lacks the zone label: it is rejected as unresolvable and
			// its pod is not counted, so zoneA (1) = zoneB (1).
			name:  "node missing the topology key: rejected and its pods not counted",
			nodes: []string{"node1 node=node1", "node2 node=node2 zone=zoneA", "node3 node=node3 zone=zoneB", "node4 node=node4 zone=zoneB"},
			pod:   docsPod().Spread(1, "zone", dns, fooBar).Obj(),
			want:  codes("node1", unres, "node2", ok, "node3", ok, "node4", ok),
		},
		{
			name:  "node with a mistyped key (zone-typo) is never a candidate",
			nodes: append(append([]string{}, docsNodes...), "node5 node=node5 zone-typo=zoneC"),
			pod:   docsPod().Spread(1, "zone", dns, fooBar).Obj(),
			want:  codes("node1", unsch, "node2", unsch, "node3", ok, "node4", ok, "node5", unres),
		},
		{
			// the pod does not carry foo=bar: placing it changes no count
			// (selfMatch 0), so zoneA (2) − min (1) = 1 ≤ 1.
			name: "labelSelector not matching the pod's own labels: selfMatch 0, every zone fits",
			pod:  makePod("mypod").Spread(1, "zone", dns, fooBar).Obj(),
			want: codes("node1", ok, "node2", ok, "node3", ok, "node4", ok),
		},
		{
			// minDomains 3 with 2 zones: the global minimum is 0, so a zone
			// with 2 (+1) is too skewed and one with 1 (+1) is not.
			name: "minDomains above the number of zones forces the global minimum to 0",
			pod: docsPod().Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: dns,
				LabelSelector: fooBar, MinDomains: ptr[int32](3)}).Obj(),
			want: codes("node1", unsch, "node2", unsch, "node3", unsch, "node4", unsch),
		},
		{
			name: "minDomains equal to the number of zones changes nothing",
			pod: docsPod().Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: dns,
				LabelSelector: fooBar, MinDomains: ptr[int32](2)}).Obj(),
			want: codes("node1", unsch, "node2", unsch, "node3", ok, "node4", ok),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns, ps := tt.nodes, tt.pods
			if ns == nil {
				ns = docsNodes
			}
			if ps == nil {
				ps = docsPods
			}
			snap := newSnapshot(t, nodes(ns...), pods(ps...))
			got := filterCodes(t, mustNew(t, Args{}), snap, tt.pod)
			if d := diffCodes(got, tt.want); d != "" {
				t.Errorf("filter verdicts differ:\n%s", d)
			}
		})
	}
}

var fourNodes = []string{
	"node-a zone=zone1 node=node-a",
	"node-b zone=zone1 node=node-b",
	"node-x zone=zone2 node=node-x",
	"node-y zone=zone2 node=node-y",
}

// TestFilterUpstream ports cases of upstream's filtering_test.go
// (TestSingleConstraint, TestMultipleConstraints), same names and verdicts.
func TestFilterUpstream(t *testing.T) {
	taint := " taint:node.kubernetes.io/unschedulable:NoSchedule"
	tests := []struct {
		name  string
		nodes []string
		pods  []string
		pod   *api.Pod
		want  map[string]framework.Code
	}{
		{
			name: "no existing pods, incoming pod doesn't match itself",
			pod:  makePod("p").Label("foo", "").Spread(1, "zone", dns, barSelector).Obj(),
			want: codes("node-a", ok, "node-b", ok, "node-x", ok, "node-y", ok),
		},
		{
			name: "existing pods in a different namespace do not count",
			pods: []string{"p-a1 @node-a foo= ns:ns1", "p-b1 @node-a foo= ns:ns2", "p-x1 @node-x foo=", "p-y1 @node-y foo="},
			pod:  makePod("p").Label("foo", "").Spread(1, "zone", dns, fooSelector).Obj(),
			want: codes("node-a", ok, "node-b", ok, "node-x", unsch, "node-y", unsch),
		},
		{
			name: "existing pods do not match null selector",
			pods: []string{"p-x1 @node-x foo=", "p-y1 @node-y foo="},
			pod:  makePod("p").Label("foo", "").Spread(1, "zone", dns, nil).Obj(),
			want: codes("node-a", ok, "node-b", ok, "node-x", ok, "node-y", ok),
		},
		{
			name:  "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
			nodes: []string{"node-a zone=zone1 node=node-a", "node-b zon=zone1 node=node-b", "node-x zone=zone2 node=node-x", "node-y zone=zone2 node=node-y"},
			pods:  []string{"p-a1 @node-a foo=", "p-b1 @node-b foo=", "p-x1 @node-x foo=", "p-y1 @node-y foo="},
			pod:   makePod("p").Label("foo", "").Spread(1, "zone", dns, fooSelector).Obj(),
			want:  codes("node-a", ok, "node-b", unres, "node-x", unsch, "node-y", unsch),
		},
		{
			name:  "pod cannot be scheduled as all nodes don't have label 'rack'",
			nodes: []string{"node-a zone=zone1 node=node-a", "node-x zone=zone2 node=node-x"},
			pod:   makePod("p").Label("foo", "").Spread(1, "rack", dns, fooSelector).Obj(),
			want:  codes("node-a", unres, "node-x", unres),
		},
		{
			name: "pods spread across nodes as 2/1/0/3, only node-x fits",
			pods: []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-y1 @node-y foo=", "p-y2 @node-y foo=", "p-y3 @node-y foo="},
			pod:  makePod("p").Label("foo", "").Spread(1, "node", dns, fooSelector).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", unsch),
		},
		{
			name: "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
			pods: []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-y1 @node-y foo=", "p-y2 @node-y foo=", "p-y3 @node-y foo="},
			pod:  makePod("p").Label("foo", "").Spread(2, "node", dns, fooSelector).Obj(),
			want: codes("node-a", unsch, "node-b", ok, "node-x", ok, "node-y", unsch),
		},
		{
			name: "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
			pods: []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-y1 @node-y foo=", "p-y2 @node-y foo=", "p-y3 @node-y foo="},
			pod:  makePod("p").Label("foo", "").NodeAffinityIn("node", "node-a", "node-y").Spread(1, "node", dns, fooSelector).Obj(),
			want: codes("node-a", ok, "node-b", ok, "node-x", ok, "node-y", unsch),
		},
		{
			name:  "terminating Pods should be excluded",
			nodes: []string{"node-a node=node-a", "node-b node=node-b"},
			pods:  []string{"p-a @node-a foo= terminating", "p-b @node-b foo="},
			pod:   makePod("p").Label("foo", "").Spread(1, "node", dns, fooSelector).Obj(),
			want:  codes("node-a", ok, "node-b", unsch),
		},
		{
			name: "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
			pods: []string{"p-b1 @node-b foo=", "p-b2 @node-b foo=", "p-y1 @node-y foo="},
			pod:  makePod("p").Label("foo", "").NodeAffinityNotIn("node", "node-b").Spread(1, "zone", dns, fooSelector).Obj(),
			want: codes("node-a", ok, "node-b", ok, "node-x", unsch, "node-y", unsch),
		},
		{
			name:  "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits",
			nodes: []string{"node-a node=node-a", "node-b node=node-b", "node-c node=node-c"},
			pods:  []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-b2 @node-b foo=", "p-c1 @node-c foo="},
			pod: makePod("p").Label("foo", "").Constraint(api.TopologySpreadConstraint{MaxSkew: 2, TopologyKey: "node",
				WhenUnsatisfiable: dns, LabelSelector: fooSelector, MinDomains: ptr[int32](4)}).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-c", ok),
		},
		{
			name: "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit",
			pods: []string{"p-b1 @node-a foo=", "p-b2 @node-b foo=", "p-y1 @node-y foo="},
			pod: makePod("p").Label("foo", "").Constraint(api.TopologySpreadConstraint{MaxSkew: 2, TopologyKey: "zone",
				WhenUnsatisfiable: dns, LabelSelector: fooSelector, MinDomains: ptr[int32](3)}).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", ok),
		},
		{
			name:  "NodeAffinityPolicy honored with labelSelectors",
			nodes: []string{"node-a node=node-a foo=", "node-b node=node-b foo=", "node-x node=node-x foo=", "node-y node=node-y"},
			pods:  []string{"p-b1 @node-a foo=", "p-b2 @node-b foo=", "p-y1 @node-y foo="},
			pod:   makePod("p").Label("foo", "").NodeSelector(map[string]string{"foo": ""}).Spread(1, "node", dns, fooSelector).Obj(),
			want:  codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", ok),
		},
		{
			name:  "NodeAffinityPolicy ignored with labelSelectors",
			nodes: []string{"node-a node=node-a foo=", "node-b node=node-b foo=", "node-x node=node-x foo=", "node-y node=node-y"},
			pods:  []string{"p-b1 @node-a foo=", "p-b2 @node-b foo=", "p-y1 @node-y foo="},
			pod: makePod("p").Label("foo", "").NodeSelector(map[string]string{"foo": ""}).Constraint(api.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: "node", WhenUnsatisfiable: dns, LabelSelector: fooSelector, NodeAffinityPolicy: ignore}).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", unsch),
		},
		{
			name:  "NodeAffinityPolicy honored with nodeAffinity",
			nodes: []string{"node-a node=node-a foo=", "node-b node=node-b foo=", "node-x node=node-x foo=", "node-y node=node-y"},
			pods:  []string{"p-b1 @node-a foo=", "p-b2 @node-b foo=", "p-y1 @node-y foo="},
			pod:   makePod("p").Label("foo", "").NodeAffinityIn("foo", "").Spread(1, "node", dns, fooSelector).Obj(),
			want:  codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", ok),
		},
		{
			name:  "NodeTaintsPolicy honored",
			nodes: []string{"node-a node=node-a foo=", "node-b node=node-b foo=", "node-x node=node-x foo=", "node-y node=node-y" + taint},
			pods:  []string{"p-b1 @node-a foo=", "p-b2 @node-b foo=", "p-y1 @node-y foo="},
			pod: makePod("p").Label("foo", "").Constraint(api.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: "node", WhenUnsatisfiable: dns, LabelSelector: fooSelector, NodeTaintsPolicy: honor}).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", ok),
		},
		{
			name:  "NodeTaintsPolicy honored with tolerated taints",
			nodes: []string{"node-a node=node-a foo=", "node-b node=node-b foo=", "node-x node=node-x foo=", "node-y node=node-y" + taint},
			pods:  []string{"p-b1 @node-a foo=", "p-b2 @node-b foo=", "p-y1 @node-y foo="},
			pod: makePod("p").Label("foo", "").Toleration("node.kubernetes.io/unschedulable", api.TaintEffectNoSchedule).Constraint(api.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: "node", WhenUnsatisfiable: dns, LabelSelector: fooSelector, NodeTaintsPolicy: honor}).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", unsch),
		},
		{
			name:  "NodeTaintsPolicy ignored",
			nodes: []string{"node-a node=node-a foo=", "node-b node=node-b foo=", "node-x node=node-x foo=", "node-y node=node-y" + taint},
			pods:  []string{"p-b1 @node-a foo=", "p-b2 @node-b foo=", "p-y1 @node-y foo="},
			pod:   makePod("p").Label("foo", "").Spread(1, "node", dns, fooSelector).Obj(),
			want:  codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", unsch),
		},
		{
			name: "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
			pods: []string{"p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-b1 @node-b foo=", "p-y1 @node-y foo=", "p-y2 @node-y foo=", "p-y3 @node-y foo="},
			pod:  makePod("p").Label("foo", "").Spread(1, "zone", dns, fooSelector).Spread(1, "node", dns, fooSelector).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", unsch),
		},
		{
			name:  "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
			nodes: []string{"node-a zone=zone1 node=node-a", "node-b zone=zone1 node=node-b", "node-x zone=zone2", "node-y zone=zone2 node=node-y"},
			pods:  []string{"p-a1 @node-a foo=", "p-y3 @node-y foo="},
			pod:   makePod("p").Label("foo", "").Spread(1, "zone", dns, fooSelector).Spread(1, "node", dns, fooSelector).Obj(),
			want:  codes("node-a", unsch, "node-b", ok, "node-x", unres, "node-y", unsch),
		},
		{
			// zone spreads 2/~0~ (node-y excluded by the node selector),
			// node spreads 1/1/0/1 (policy Ignore).
			name:  "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
			nodes: []string{"node-a zone=zone1 node=node-a foo=", "node-b zone=zone1 node=node-b foo=", "node-x zone=zone2 node=node-x foo=", "node-y zone=zone2 node=node-y"},
			pods:  []string{"p-a1 @node-a foo=", "p-b1 @node-b foo=", "p-y1 @node-y foo="},
			pod: makePod("p").Label("foo", "").NodeSelector(map[string]string{"foo": ""}).Spread(1, "zone", dns, fooSelector).
				Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "node", WhenUnsatisfiable: dns, LabelSelector: fooSelector, NodeAffinityPolicy: ignore}).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", unsch),
		},
		{
			name:  "two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
			nodes: []string{"node-a zone=zone1 node=node-a foo=", "node-b zone=zone1 node=node-b foo=", "node-x zone=zone2 node=node-x foo=", "node-y zone=zone2 node=node-y" + taint},
			pods:  []string{"p-a1 @node-a foo=", "p-b1 @node-b foo=", "p-y1 @node-y foo="},
			pod: makePod("p").Label("foo", "").
				Constraint(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: dns, LabelSelector: fooSelector, NodeTaintsPolicy: honor}).
				Spread(1, "node", dns, fooSelector).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", unsch),
		},
		{
			name: "two Constraints on zone, spreads = [3/3, 2/1]",
			pods: []string{"p-a1 @node-a foo= bar=", "p-a2 @node-a foo=", "p-b1 @node-b foo= bar=", "p-y1 @node-y foo=", "p-y2 @node-y foo= bar=", "p-y3 @node-y foo="},
			pod:  makePod("p").Label("foo", "").Label("bar", "").Spread(1, "zone", dns, barSelector).Spread(1, "zone", dns, fooSelector).Obj(),
			want: codes("node-a", unsch, "node-b", unsch, "node-x", ok, "node-y", ok),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := tt.nodes
			if ns == nil {
				ns = fourNodes
			}
			snap := newSnapshot(t, nodes(ns...), pods(tt.pods...))
			got := filterCodes(t, mustNew(t, listArgs()), snap, tt.pod)
			if d := diffCodes(got, tt.want); d != "" {
				t.Errorf("filter verdicts differ:\n%s", d)
			}
		})
	}
}

// TestFilterAndScoreInParallel runs Filter and Score from several
// goroutines, as the runtime does (go test -race checks the shared state).
func TestFilterAndScoreInParallel(t *testing.T) {
	snap := newSnapshot(t, nodes(fourNodes...), pods("p-a1 @node-a foo=", "p-a2 @node-a foo=", "p-x1 @node-x foo="))
	pl := mustNew(t, listArgs())
	pod := makePod("p").Label("foo", "").Spread(1, "zone", dns, fooSelector).Spread(1, "node", anyway, fooSelector).Obj()
	pi := framework.NewPodInfo(pod)
	state := framework.NewCycleState()
	if _, st := pl.PreFilter(state, pi, snap); !st.IsSuccess() {
		t.Fatal(st.Message())
	}
	if st := pl.PreScore(state, pi, snap, snap.Nodes()); !st.IsSuccess() {
		t.Fatal(st.Message())
	}
	want := filterCodes(t, pl, snap, pod)
	done := make(chan map[string]framework.Code)
	for range 4 {
		go func() {
			got := map[string]framework.Code{}
			for range 50 {
				for _, ni := range snap.Nodes() {
					got[ni.Node.Name] = pl.Filter(state, pi, ni).CodeOf()
					pl.Score(state, pi, ni)
				}
			}
			done <- got
		}()
	}
	for range 4 {
		if d := diffCodes(<-done, want); d != "" {
			t.Errorf("parallel verdicts differ:\n%s", d)
		}
	}
}
