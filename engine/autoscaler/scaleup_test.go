package autoscaler

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

// scaleUpCase is upstream's ScaleUpTestConfig (core/test): nodes of a
// group (cpu millis, memory bytes) with pods bound, extra pending pods,
// and the group the expander must choose (upstream swaps in a fake
// expander; the lab uses the priority expander).
type scaleUpCase struct {
	nodes     []nodeCfg
	pods      []podCfg
	extra     []podCfg
	choose    string
	balance   bool
	wantSizes map[string]int
	triggered []string
	remaining []string
	awaiting  []string
}

type nodeCfg struct {
	name     string
	cpu, mem int64
	group    string
}

type podCfg struct {
	name     string
	cpu, mem int64
	node     string
}

func runScaleUpCase(t *testing.T, tc scaleUpCase) {
	t.Helper()
	e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.ByNameScheduler})
	templates := map[string]*api.Node{}
	for _, n := range tc.nodes {
		node := makeNode(n.cpu, 0, 110, n.name, "")
		node.Status.Capacity[api.ResourceMemory] = api.Units(n.mem)
		node.Status.Allocatable[api.ResourceMemory] = api.Units(n.mem)
		node.Labels[NodeGroupLabel] = n.group
		delete(node.Labels, api.LabelTopologyZone)
		if err := e.AddNode(node); err != nil {
			t.Fatal(err)
		}
		templates[n.group] = node
	}
	mkPod := func(c podCfg) *api.Pod {
		p := pod(c.name, "0", "0", "rs-"+c.name)
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: api.Milli(c.cpu), api.ResourceMemory: api.Units(c.mem)}
		p.Spec.NodeName = c.node
		return p
	}
	for _, c := range append(append([]podCfg(nil), tc.pods...), tc.extra...) {
		if err := e.CreatePod(mkPod(c)); err != nil {
			t.Fatal(err)
		}
	}
	var groups []NodeGroup
	var names []string
	for g := range templates {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		groups = append(groups, group(g, 0, 10, templates[g]))
	}
	opts := Options{BalanceSimilarNodeGroups: tc.balance}
	if tc.choose != "" {
		opts.Expander = []string{ExpanderPriority}
		opts.Priorities = map[int][]string{100: {"^" + tc.choose + "$"}}
	}
	a, err := New(groups, opts, scheduler.Config{TieBreak: scheduler.TieBreakByName}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	// the orchestrator alone, as upstream's simpleScaleUpTest calls
	// ScaleUp with the extra pods (no pod list processors)
	sim, err := a.simulationOf(e, e.Nodes())
	if err != nil {
		t.Fatal(err)
	}
	var st Status
	var pending []*api.Pod
	for _, c := range tc.extra {
		pending = append(pending, e.Pod("default/"+c.name))
	}
	a.scaleUp(e, sim, pending, e.Nodes(), e.Now(), &st)
	su := st.ScaleUp
	sizes := map[string]int{}
	for _, info := range su.Infos {
		sizes[info.Group] = info.NewSize
	}
	if !reflect.DeepEqual(sizes, tc.wantSizes) {
		t.Fatalf("scale-up %v, want %v (%s; %v)", sizes, tc.wantSizes, su.Result, su.Expander)
	}
	names2 := func(keys []string) []string {
		out := []string{}
		for _, k := range keys {
			out = append(out, strings.TrimPrefix(k, "default/"))
		}
		sort.Strings(out)
		return out
	}
	var remaining []string
	for _, v := range su.NoScaleUp {
		remaining = append(remaining, v.Pod)
	}
	for what, pair := range map[string][2][]string{
		"triggered": {names2(su.Triggered), tc.triggered},
		"remaining": {names2(remaining), tc.remaining},
		"awaiting":  {names2(su.Awaiting), tc.awaiting},
	} {
		want := pair[1]
		if want == nil {
			want = []string{}
		}
		if !reflect.DeepEqual(pair[0], want) {
			t.Errorf("%s = %v, want %v", what, pair[0], want)
		}
	}
}

// Ported from cluster-autoscaler core/scaleup/orchestrator/
// orchestrator_test.go (commit bdef0a7a): TestScaleUpOK, TestMixedScaleUp
// ("There are triggering, remaining & awaiting pods") and
// TestScaleUpTwoGroups (balance-similar-node-groups). Group templates are
// the groups' nodes, as upstream's TemplateNodeInfo from a live node.
func TestScaleUpOrchestrator(t *testing.T) {
	t.Run("TestScaleUpOK", func(t *testing.T) {
		runScaleUpCase(t, scaleUpCase{
			nodes:     []nodeCfg{{"n1", 100, 100, "ng1"}, {"n2", 1000, 1000, "ng2"}},
			pods:      []podCfg{{"p1", 80, 0, "n1"}, {"p2", 800, 0, "n2"}},
			extra:     []podCfg{{"p-new", 500, 0, ""}},
			choose:    "ng2",
			wantSizes: map[string]int{"ng2": 2},
			triggered: []string{"p-new"},
		})
	})
	t.Run("TestMixedScaleUp", func(t *testing.T) {
		runScaleUpCase(t, scaleUpCase{
			nodes: []nodeCfg{{"n1", 100, 1000, "ng1"}, {"n2", 1000, 100, "ng2"}},
			pods:  []podCfg{{"p1", 80, 0, "n1"}, {"p2", 800, 0, "n2"}},
			extra: []podCfg{
				{"triggering", 900, 0, ""}, // can only be scheduled on ng2
				{"remaining", 2000, 0, ""}, // can't be scheduled
				{"awaiting", 0, 200, ""},   // can only be scheduled on ng1
			},
			choose:    "ng2",
			wantSizes: map[string]int{"ng2": 2},
			triggered: []string{"triggering"},
			remaining: []string{"remaining"},
			awaiting:  []string{"awaiting"},
		})
	})
	t.Run("TestScaleUpTwoGroups", func(t *testing.T) {
		runScaleUpCase(t, scaleUpCase{
			nodes:     []nodeCfg{{"ng1-n1", 1500, 1000 << 20, "ng1"}, {"ng2-n1", 1500, 1000 << 20, "ng2"}},
			pods:      []podCfg{{"p1", 1400, 0, "ng1-n1"}, {"p2", 1400, 0, "ng2-n1"}},
			extra:     []podCfg{{"p3", 1400, 0, ""}, {"p4", 1400, 0, ""}},
			balance:   true,
			wantSizes: map[string]int{"ng1": 2, "ng2": 2},
			triggered: []string{"p3", "p4"},
		})
	})
}
