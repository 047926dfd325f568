package scheduler

import (
	"reflect"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
)

// TestMergePluginSet follows pkg/scheduler/apis/config/v1/
// default_plugins_test.go TestMergePlugins: disabled defaults drop out,
// "*" drops them all, a custom entry naming a default replaces it in
// place, other custom entries are appended.
func TestMergePluginSet(t *testing.T) {
	def := PluginSet{Enabled: []PluginRef{{Name: "A"}, {Name: "B", Weight: 2}, {Name: "C"}}}
	cases := []struct {
		name   string
		custom PluginSet
		want   []PluginRef
	}{
		{"no custom", PluginSet{}, def.Enabled},
		{"disable one", PluginSet{Disabled: []string{"B"}}, []PluginRef{{Name: "A"}, {Name: "C"}}},
		{"disable all, enable one", PluginSet{Disabled: []string{"*"}, Enabled: []PluginRef{{Name: "C"}}}, []PluginRef{{Name: "C"}}},
		{"replace in place", PluginSet{Enabled: []PluginRef{{Name: "D"}, {Name: "B", Weight: 7}}}, []PluginRef{{Name: "A"}, {Name: "B", Weight: 7}, {Name: "C"}, {Name: "D"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mergePluginSet(def, c.custom)
			if !reflect.DeepEqual(got.Enabled, c.want) {
				t.Fatalf("enabled = %v, want %v", got.Enabled, c.want)
			}
		})
	}
}

// TestExpandDefaultProfile: the default configuration expands to the
// plugin order and weights the lab had hard-coded (default_plugins.go:30).
func TestExpandDefaultProfile(t *testing.T) {
	ep, err := expandProfile(mergePlugins(nil), "default-scheduler")
	if err != nil {
		t.Fatal(err)
	}
	if got := ep.points[ptScore]; !reflect.DeepEqual(got, defaultScoreOrder) {
		t.Fatalf("score order = %v, want %v", got, defaultScoreOrder)
	}
	if !reflect.DeepEqual(ep.weights, DefaultWeights) {
		t.Fatalf("weights = %v, want %v", ep.weights, DefaultWeights)
	}
	wantFilter := []string{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit",
		VolumeRestrictionsName, NodeVolumeLimitsName, VolumeBindingName, VolumeZoneName, "PodTopologySpread", "InterPodAffinity",
		DynamicResourcesName, NodeDeclaredFeaturesName}
	if got := ep.points[ptFilter]; !reflect.DeepEqual(got, wantFilter) {
		t.Fatalf("filter = %v, want %v", got, wantFilter)
	}
}

// TestExpandProfile pins the framework's construction rules
// (pkg/scheduler/framework/runtime/framework.go updatePluginList :767,
// expandMultiPointPlugins :638, getValidScoreWeights :577).
func TestExpandProfile(t *testing.T) {
	cases := []struct {
		name      string
		plugins   *Plugins
		wantScore []string
		weights   map[string]int64
		err       string
	}{
		{
			name:      "score weight override at the score point keeps the point's order first",
			plugins:   &Plugins{Score: PluginSet{Enabled: []PluginRef{{Name: "ImageLocality", Weight: 5}}}},
			wantScore: []string{"ImageLocality", "TaintToleration", "NodeAffinity", "NodeResourcesFit", VolumeBindingName, "PodTopologySpread", "InterPodAffinity", DynamicResourcesName, "NodeResourcesBalancedAllocation"},
		},
		{
			name:      "multiPoint weight replaces the default in place",
			plugins:   &Plugins{MultiPoint: PluginSet{Enabled: []PluginRef{{Name: "PodTopologySpread", Weight: 5}}}},
			wantScore: defaultScoreOrder,
			weights:   map[string]int64{"PodTopologySpread": 5, "TaintToleration": 3},
		},
		{
			name:      "disabled at score only",
			plugins:   &Plugins{Score: PluginSet{Disabled: []string{"ImageLocality", "NodeResourcesBalancedAllocation"}}},
			wantScore: []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", VolumeBindingName, "PodTopologySpread", "InterPodAffinity", DynamicResourcesName},
		},
		{
			name:      "score * disabled, one enabled",
			plugins:   &Plugins{Score: PluginSet{Disabled: []string{"*"}, Enabled: []PluginRef{{Name: "NodeResourcesFit", Weight: 1}}}},
			wantScore: []string{"NodeResourcesFit"},
		},
		{
			name:    "unknown plugin",
			plugins: &Plugins{Filter: PluginSet{Enabled: []PluginRef{{Name: "Foo"}}}},
			err:     `FilterPlugin "Foo" does not exist`,
		},
		{
			name:    "plugin at a point it does not implement",
			plugins: &Plugins{Score: PluginSet{Enabled: []PluginRef{{Name: "NodePorts"}}}},
			err:     `plugin "NodePorts" does not extend ScorePlugin plugin`,
		},
		{
			name:    "double registration in multiPoint",
			plugins: &Plugins{MultiPoint: PluginSet{Disabled: []string{"*"}, Enabled: []PluginRef{{Name: "PrioritySort"}, {Name: "DefaultBinder"}, {Name: "NodeName"}, {Name: "NodeName"}}}},
			err:     `plugin "NodeName" already registered as "FilterPlugin"`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ep, err := expandProfile(mergePlugins(c.plugins), "default-scheduler")
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ep.points[ptScore]; !reflect.DeepEqual(got, c.wantScore) {
				t.Fatalf("score = %v, want %v", got, c.wantScore)
			}
			for n, w := range c.weights {
				if ep.weights[n] != w {
					t.Errorf("weight %s = %d, want %d", n, ep.weights[n], w)
				}
			}
		})
	}
}

// binPackSnapshot: node a is half full, node b empty.
func binPackSnapshot() *framework.Snapshot {
	snap := mkSnapshot(mkNode("a", 4000), mkNode("b", 4000))
	bind(snap, mkPod("busy", 2000, 0), "a")
	return snap
}

func TestStrategyDecides(t *testing.T) {
	for _, c := range []struct {
		strategy noderesources.ScoringStrategy
		want     string
	}{
		{noderesources.ScoringStrategy{Type: noderesources.LeastAllocated, Resources: noderesources.DefaultResources()}, "b"},
		{noderesources.ScoringStrategy{Type: noderesources.MostAllocated, Resources: noderesources.DefaultResources()}, "a"},
		{noderesources.ScoringStrategy{Type: noderesources.RequestedToCapacityRatio, Resources: noderesources.DefaultResources(),
			Shape: []noderesources.ShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}}, "a"},
	} {
		t.Run(c.strategy.Type, func(t *testing.T) {
			cfg := Config{TieBreak: TieBreakByName, Profiles: []ProfileConfig{{
				// BalancedAllocation off so the strategy alone decides
				Plugins: &Plugins{Score: PluginSet{Disabled: []string{"NodeResourcesBalancedAllocation"}}},
				Args:    PluginArgs{NodeResourcesFit: &noderesources.FitArgs{ScoringStrategy: c.strategy}},
			}}}
			s, err := Build(cfg, binPackSnapshot())
			if err != nil {
				t.Fatal(err)
			}
			if got := s.ScheduleOne(mkPod("p", 1000, 0)).Node; got != c.want {
				t.Fatalf("node = %q, want %q", got, c.want)
			}
		})
	}
}

func TestProfilesBySchedulerName(t *testing.T) {
	most := noderesources.FitArgs{ScoringStrategy: noderesources.ScoringStrategy{Type: noderesources.MostAllocated, Resources: noderesources.DefaultResources()}}
	noBalance := &Plugins{Score: PluginSet{Disabled: []string{"NodeResourcesBalancedAllocation"}}}
	cfg := Config{TieBreak: TieBreakByName, Profiles: []ProfileConfig{
		{Plugins: noBalance},
		{SchedulerName: "bin-packer", Plugins: noBalance, Args: PluginArgs{NodeResourcesFit: &most}},
	}}
	s, err := Build(cfg, binPackSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if got := s.ProfileNames(); !reflect.DeepEqual(got, []string{"bin-packer", "default-scheduler"}) {
		t.Fatalf("profiles = %v", got)
	}
	spread := mkPod("spread", 1000, 0)
	packed := mkPod("packed", 1000, 0)
	packed.Pod.Spec.SchedulerName = "bin-packer"
	other := mkPod("other", 1000, 0)
	other.Pod.Spec.SchedulerName = "my-scheduler"
	if got := s.ScheduleOne(spread).Node; got != "b" {
		t.Errorf("default profile chose %q, want b", got)
	}
	if got := s.ScheduleOne(packed).Node; got != "a" {
		t.Errorf("bin-packer chose %q, want a", got)
	}
	if res := s.ScheduleOne(other); !res.NoProfile || res.Node != "" || s.Handles("my-scheduler") {
		t.Errorf("unknown scheduler name: %+v", res)
	}
}

func TestInterPodAffinityArgs(t *testing.T) {
	// an existing pod on a requires affinity to app=web: with
	// hardPodAffinityWeight 1 (default) a web pod is drawn to a; with 0 not
	mk := func(hard int32) *Scheduler {
		snap := mkSnapshot(mkNode("a", 4000), mkNode("b", 4000))
		ex := mkPod("ex", 100, 0)
		ex.Pod.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: api.LabelHostname}}}}
		ex = framework.NewPodInfo(ex.Pod)
		bind(snap, ex, "a")
		args := interpodaffinity.Args{HardPodAffinityWeight: hard}
		s, err := Build(Config{TieBreak: TieBreakByName, Profiles: []ProfileConfig{{
			Plugins: &Plugins{Score: PluginSet{Disabled: []string{"*"}, Enabled: []PluginRef{{Name: "InterPodAffinity", Weight: 1}}}},
			Args:    PluginArgs{InterPodAffinity: &args},
		}}}, snap)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	web := func() *framework.PodInfo {
		p := mkPod("web", 100, 0)
		p.Pod.Labels["app"] = "web"
		return framework.NewPodInfo(p.Pod)
	}
	if e := mk(1).Explain(web()); e.Nodes[0].Total <= e.Nodes[1].Total {
		t.Errorf("hard weight 1: totals a=%d b=%d, want a higher", e.Nodes[0].Total, e.Nodes[1].Total)
	}
	if e := mk(0).Explain(web()); e.Nodes[0].Total != e.Nodes[1].Total {
		t.Errorf("hard weight 0: totals a=%d b=%d, want equal", e.Nodes[0].Total, e.Nodes[1].Total)
	}
}

func TestBuildErrorsNameTheProfile(t *testing.T) {
	_, err := Build(Config{Profiles: []ProfileConfig{{SchedulerName: "x", Plugins: &Plugins{Filter: PluginSet{Enabled: []PluginRef{{Name: "Nope"}}}}}}}, mkSnapshot())
	if err == nil || !strings.Contains(err.Error(), `creating profile for scheduler name x: FilterPlugin "Nope" does not exist`) {
		t.Fatalf("err = %v", err)
	}
}

func TestExplainNamesProfileAndPolicy(t *testing.T) {
	most := noderesources.FitArgs{ScoringStrategy: noderesources.ScoringStrategy{Type: noderesources.MostAllocated, Resources: noderesources.DefaultResources()}}
	s, err := Build(Config{TieBreak: TieBreakByName, Profiles: []ProfileConfig{
		{},
		{SchedulerName: "packer", Args: PluginArgs{NodeResourcesFit: &most},
			Plugins: &Plugins{MultiPoint: PluginSet{Enabled: []PluginRef{{Name: "NodeResourcesFit", Weight: 5}}},
				Score: PluginSet{Disabled: []string{"NodeResourcesBalancedAllocation"}}}},
	}}, binPackSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	p := mkPod("p", 100, 0)
	if e := s.Explain(p); e.Profile != "default-scheduler" || len(e.Policy) != 0 {
		t.Errorf("default: profile %q policy %v", e.Profile, e.Policy)
	}
	p.Pod.Spec.SchedulerName = "packer"
	want := []string{
		"weight NodeResourcesFit 5 (default 1)",
		"score disabled: NodeResourcesBalancedAllocation",
		"NodeResourcesFit scoringStrategy MostAllocated (cpu×1, memory×1)",
	}
	if e := s.Explain(p); e.Profile != "packer" || !reflect.DeepEqual(e.Policy, want) {
		t.Errorf("packer: profile %q policy %q", e.Profile, e.Policy)
	}
}

// TestProfilePercentage: a profile's percentageOfNodesToScore overrides the
// global one (framework.go: the profile's, else the configuration's).
func TestProfilePercentage(t *testing.T) {
	fifty, ten := int32(50), int32(10)
	s, err := Build(Config{PercentageOfNodesToScore: &ten, Profiles: []ProfileConfig{
		{}, {SchedulerName: "b", PercentageOfNodesToScore: &fifty},
	}}, mkSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if p := s.profiles["default-scheduler"].percentage; p == nil || *p != 10 {
		t.Errorf("default profile percentage %v, want the global 10", p)
	}
	if p := s.profiles["b"].percentage; p == nil || *p != 50 {
		t.Errorf("profile b percentage %v, want 50", p)
	}
	bad := int32(101)
	if _, err := Build(Config{Profiles: []ProfileConfig{{PercentageOfNodesToScore: &bad}}}, mkSnapshot()); err == nil {
		t.Error("percentage 101 accepted")
	}
}
