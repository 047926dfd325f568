package scheduler

import (
	"fmt"
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

func TestFirstRejectingPluginGivesTheReasons(t *testing.T) {
	snap := mkSnapshot(mkNode("a", 1000), mkNode("b", 1000), mkNode("c", 1000))
	taint := rejectNodes("TaintToleration", framework.UnschedulableAndUnresolvable, []string{"node(s) had untolerated taint(s)"}, "a", "b")
	affinity := rejectNodes("NodeAffinity", framework.UnschedulableAndUnresolvable, []string{"node(s) didn't match Pod's node affinity/selector"}, "a", "b", "c")
	s := testScheduler(Config{DisablePreemption: true}, snap, taint, affinity)
	res := s.ScheduleOne(mkPod("p", 100, 0))
	if res.Node != "" {
		t.Fatalf("scheduled to %q", res.Node)
	}
	want := map[string]int{"node(s) had untolerated taint(s)": 2, "node(s) didn't match Pod's node affinity/selector": 1}
	if !reflect.DeepEqual(res.Reasons, want) {
		t.Errorf("reasons %v, want %v", res.Reasons, want)
	}
	if msg := "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) had untolerated taint(s)."; res.Message != msg {
		t.Errorf("message %q", res.Message)
	}
	if got := []string{"NodeAffinity", "TaintToleration"}; !reflect.DeepEqual(res.Plugins, got) {
		t.Errorf("plugins %v", res.Plugins)
	}
	// A node rejected by the first plugin is not shown to the second.
	if n := affinity.calls.Load(); n != 1 {
		t.Errorf("second filter ran on %d nodes, want 1", n)
	}
}

func TestPreFilter(t *testing.T) {
	nodes := []*api.Node{mkNode("a", 1000), mkNode("b", 1000), mkNode("c", 1000)}
	t.Run("Skip skips the plugin's Filter", func(t *testing.T) {
		pf := &fakePreFilter{name: "NodePorts", preFilter: func() (*framework.PreFilterResult, *framework.Status) {
			return nil, framework.NewStatus(framework.Skip)
		}}
		s := testScheduler(Config{TieBreak: TieBreakByName}, mkSnapshot(nodes...), pf)
		if res := s.ScheduleOne(mkPod("p", 100, 0)); res.Node != "a" {
			t.Fatalf("node %q (%s)", res.Node, res.Message)
		}
		if n := pf.filterCalls.Load(); n != 0 {
			t.Errorf("skipped Filter ran %d times", n)
		}
	})
	t.Run("an unresolvable rejection rejects every node and stops", func(t *testing.T) {
		first := &fakePreFilter{name: "NodeAffinity", preFilter: func() (*framework.PreFilterResult, *framework.Status) {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector")
		}}
		second := &fakePreFilter{name: "PodTopologySpread", preFilter: func() (*framework.PreFilterResult, *framework.Status) { return nil, nil }}
		s := testScheduler(Config{DisablePreemption: true}, mkSnapshot(nodes...), first, second)
		res := s.ScheduleOne(mkPod("p", 100, 0))
		if want := "0/3 nodes are available: node(s) didn't match Pod's node affinity/selector."; res.Message != want {
			t.Errorf("message %q", res.Message)
		}
		if res.Reasons["node(s) didn't match Pod's node affinity/selector"] != 3 {
			t.Errorf("reasons %v", res.Reasons)
		}
		if second.preCalls != 0 {
			t.Errorf("PreFilter after an unresolvable rejection ran")
		}
		e := s.Explain(mkPod("p", 100, 0))
		for _, v := range e.Nodes {
			if v.Feasible || v.Plugin != "NodeAffinity" || v.Code != framework.UnschedulableAndUnresolvable {
				t.Errorf("verdict %+v", v)
			}
		}
	})
	t.Run("an Unschedulable rejection lets later PreFilters run", func(t *testing.T) {
		first := &fakePreFilter{name: "NodeResourcesFit", preFilter: func() (*framework.PreFilterResult, *framework.Status) {
			return nil, framework.NewStatus(framework.Unschedulable, "first")
		}}
		second := &fakePreFilter{name: "InterPodAffinity", preFilter: func() (*framework.PreFilterResult, *framework.Status) {
			return nil, framework.NewStatus(framework.Unschedulable, "second")
		}}
		s := testScheduler(Config{DisablePreemption: true}, mkSnapshot(nodes...), first, second)
		res := s.ScheduleOne(mkPod("p", 100, 0))
		if second.preCalls != 1 {
			t.Errorf("later PreFilter did not run")
		}
		if want := "0/3 nodes are available: second."; res.Message != want {
			t.Errorf("message %q (the last Unschedulable status is kept, as upstream)", res.Message)
		}
	})
	t.Run("a PreFilterResult narrows the nodes", func(t *testing.T) {
		pf := &fakePreFilter{name: "NodeAffinity", preFilter: func() (*framework.PreFilterResult, *framework.Status) {
			return nodeSet("b", "ghost"), nil
		}}
		s := testScheduler(Config{}, mkSnapshot(nodes...), pf)
		if res := s.ScheduleOne(mkPod("p", 100, 0)); res.Node != "b" {
			t.Errorf("node %q", res.Node)
		}
		if n := pf.filterCalls.Load(); n != 1 {
			t.Errorf("Filter ran on %d nodes, want only the narrowed one", n)
		}
		e := s.Explain(mkPod("p", 100, 0))
		for _, v := range e.Nodes {
			if v.Node == "b" {
				continue
			}
			if want := []string{"node(s) didn't satisfy plugin(s) [NodeAffinity]"}; v.Feasible || !reflect.DeepEqual(v.Reasons, want) || v.Code != framework.UnschedulableAndUnresolvable {
				t.Errorf("verdict %+v", v)
			}
		}
	})
	t.Run("narrowed nodes count in the histogram", func(t *testing.T) {
		pf := &fakePreFilter{name: "NodeAffinity", preFilter: func() (*framework.PreFilterResult, *framework.Status) { return nodeSet("b"), nil }}
		rej := rejectNodes("TaintToleration", framework.UnschedulableAndUnresolvable, []string{"node(s) had untolerated taint(s)"}, "b")
		s := testScheduler(Config{DisablePreemption: true}, mkSnapshot(nodes...), pf, rej)
		res := s.ScheduleOne(mkPod("p", 100, 0))
		if want := "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't satisfy plugin(s) [NodeAffinity]."; res.Message != want {
			t.Errorf("message %q", res.Message)
		}
	})
	t.Run("disjoint results reject the pod", func(t *testing.T) {
		a := &fakePreFilter{name: "NodeAffinity", preFilter: func() (*framework.PreFilterResult, *framework.Status) { return nodeSet("a"), nil }}
		b := &fakePreFilter{name: "InterPodAffinity", preFilter: func() (*framework.PreFilterResult, *framework.Status) { return nodeSet("b"), nil }}
		s := testScheduler(Config{DisablePreemption: true}, mkSnapshot(nodes...), a, b)
		res := s.ScheduleOne(mkPod("p", 100, 0))
		if want := "0/3 nodes are available: node(s) didn't satisfy plugin(s) [InterPodAffinity NodeAffinity] simultaneously."; res.Message != want {
			t.Errorf("message %q", res.Message)
		}
		s = testScheduler(Config{DisablePreemption: true}, mkSnapshot(nodes...),
			&fakePreFilter{name: "NodeAffinity", preFilter: func() (*framework.PreFilterResult, *framework.Status) { return nodeSet(), nil }})
		if want := "0/3 nodes are available: node(s) didn't satisfy plugin NodeAffinity."; s.ScheduleOne(mkPod("p", 100, 0)).Message != want {
			t.Errorf("single plugin message %q", s.ScheduleOne(mkPod("p", 100, 0)).Message)
		}
	})
}

func TestOneFeasibleNodeIsChosenWithoutScoring(t *testing.T) {
	snap := mkSnapshot(mkNode("a", 1000), mkNode("b", 1000))
	sc := &fakeScore{name: "ImageLocality", score: byTable(map[string]int64{"b": 50})}
	rej := rejectNodes("NodeName", framework.UnschedulableAndUnresolvable, []string{"node(s) didn't match the requested node name"}, "b")
	s := testScheduler(Config{}, snap, rej, sc)
	if res := s.ScheduleOne(mkPod("p", 100, 0)); res.Node != "a" {
		t.Fatalf("node %q", res.Node)
	}
	if n := sc.calls.Load(); n != 0 {
		t.Errorf("Score ran %d times with one feasible node", n)
	}
	e := s.Explain(mkPod("p", 100, 0))
	if sc.calls.Load() != 1 || e.Chosen != "a" || e.Nodes[0].Scores["ImageLocality"] != 0 {
		t.Errorf("explain must score the single feasible node: %+v", e.Nodes[0])
	}
}

func TestScoresAreNormalisedWeightedAndSummed(t *testing.T) {
	snap := mkSnapshot(mkNode("a", 1000), mkNode("b", 1000), mkNode("c", 1000))
	fit := &fakeScore{name: "NodeResourcesFit", score: byTable(map[string]int64{"a": 10, "b": 20, "c": 40}), normalize: true}
	taint := &fakeScore{name: "TaintToleration", score: byTable(map[string]int64{"a": 100, "b": 50})}
	skipped := &fakeScore{name: "InterPodAffinity", score: byTable(map[string]int64{"a": 100}), skip: true}
	s := newScheduler(Config{}, snap, []framework.Plugin{fit, taint, skipped},
		map[string]int64{"NodeResourcesFit": 1, "TaintToleration": 3, "InterPodAffinity": 2, VolumeBindingName: 1},
		[]string{"TaintToleration", "NodeResourcesFit", VolumeBindingName, "InterPodAffinity"})
	e := s.Explain(mkPod("p", 100, 0))
	// a: 3×100 + 25 = 325; b: 3×50 + 50 = 200; c: 0 + 100 = 100.
	wantTotals := map[string]int64{"a": 325, "b": 200, "c": 100}
	for _, v := range e.Nodes {
		if v.Total != wantTotals[v.Node] {
			t.Errorf("%s total %d, want %d", v.Node, v.Total, wantTotals[v.Node])
		}
		if v.Scores[VolumeBindingName] != 0 || v.Scores["InterPodAffinity"] != 0 || len(v.Scores) != 4 {
			t.Errorf("%s scores %v: unmodelled and skipped plugins report 0", v.Node, v.Scores)
		}
	}
	if e.Nodes[0].RawScores["NodeResourcesFit"] != 10 || e.Nodes[0].Scores["NodeResourcesFit"] != 25 {
		t.Errorf("raw/normalised %v %v", e.Nodes[0].RawScores, e.Nodes[0].Scores)
	}
	if skipped.calls.Load() != 0 {
		t.Errorf("skipped score plugin ran")
	}
	if e.Chosen != "a" || s.ScheduleOne(mkPod("p", 100, 0)).Node != "a" {
		t.Errorf("chosen %q", e.Chosen)
	}
	if w := s.Weights(); w[VolumeBindingName] != 1 || w["TaintToleration"] != 3 || len(w) != 4 {
		t.Errorf("weights %v", w)
	}
	if !reflect.DeepEqual(e.Feasible, []string{"a", "b", "c"}) {
		t.Errorf("feasible %v", e.Feasible)
	}
}

func TestTieBreak(t *testing.T) {
	nodes := nodeNames(8)
	flat := func() framework.Plugin { return &fakeScore{name: "ImageLocality", score: byTable(nil)} }
	choices := func(cfg Config, n int) []string {
		s := testScheduler(cfg, mkSnapshot(nodes...), flat())
		var out []string
		for i := 0; i < n; i++ {
			out = append(out, s.ScheduleOne(mkPod(fmt.Sprintf("p%d", i), 100, 0)).Node)
		}
		return out
	}
	t.Run("by name picks the smallest name", func(t *testing.T) {
		for _, n := range choices(Config{TieBreak: TieBreakByName}, 3) {
			if n != "node-0000" {
				t.Fatalf("chose %s", n)
			}
		}
	})
	t.Run("random is reproducible from the seed and uniform", func(t *testing.T) {
		a, b := choices(Config{Seed: 7}, 400), choices(Config{Seed: 7}, 400)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("same seed, different choices")
		}
		if reflect.DeepEqual(a, choices(Config{Seed: 8}, 400)) {
			t.Errorf("different seeds gave identical sequences")
		}
		count := map[string]int{}
		for _, n := range a {
			count[n]++
		}
		if len(count) != 8 {
			t.Fatalf("only %d of 8 tied nodes ever chosen: %v", len(count), count)
		}
		for n, c := range count {
			if c < 25 || c > 80 { // expectation 50
				t.Errorf("%s chosen %d/400 times", n, c)
			}
		}
	})
	t.Run("explain previews the next choice without consuming it", func(t *testing.T) {
		s := testScheduler(Config{Seed: 3}, mkSnapshot(nodes...), flat())
		for i := 0; i < 20; i++ {
			pi := mkPod(fmt.Sprintf("p%d", i), 100, 0)
			want := s.Explain(pi).Chosen
			if again := s.Explain(pi).Chosen; again != want {
				t.Fatalf("explain changed the generator: %s then %s", want, again)
			}
			if got := s.ScheduleOne(pi).Node; got != want {
				t.Fatalf("explain said %s, schedule chose %s", want, got)
			}
		}
	})
}

func TestNominatedPods(t *testing.T) {
	setup := func() (*Scheduler, *framework.PodInfo) {
		snap := mkSnapshot(mkNode("a", 1000), mkNode("b", 1000))
		s := testScheduler(Config{TieBreak: TieBreakByName, DisablePreemption: true}, snap, fitFilter())
		return s, mkPod("p", 600, 10)
	}
	t.Run("a nominated pod of higher or equal priority holds its room", func(t *testing.T) {
		for _, prio := range []int32{10, 100} {
			s, pi := setup()
			s.Nominator().AddNominatedPod(mkPod("preemptor", 600, prio), "a")
			if res := s.ScheduleOne(pi); res.Node != "b" {
				t.Errorf("priority %d: node %q", prio, res.Node)
			}
			e := s.Explain(pi)
			if e.Nodes[0].Feasible || e.Nodes[0].Plugin != "NodeResourcesFit" || e.Nodes[0].Reasons[0] != "Insufficient cpu" {
				t.Errorf("verdict on a: %+v", e.Nodes[0])
			}
		}
	})
	t.Run("a lower-priority nomination is ignored", func(t *testing.T) {
		s, pi := setup()
		s.Nominator().AddNominatedPod(mkPod("low", 600, 1), "a")
		if res := s.ScheduleOne(pi); res.Node != "a" {
			t.Errorf("node %q", res.Node)
		}
	})
	t.Run("the pod's own nomination is ignored and its nominated node tried first", func(t *testing.T) {
		s, pi := setup()
		pi.Pod.Status.NominatedNodeName = "b"
		s.Nominator().AddNominatedPod(pi, "b")
		if res := s.ScheduleOne(pi); res.Node != "b" {
			t.Errorf("node %q", res.Node)
		}
	})
	t.Run("both passes must accept the node", func(t *testing.T) {
		// A filter that needs the nominated pod to be absent: with it added
		// (first pass) the node fails, so the node is rejected even though
		// the second pass alone would accept it.
		snap := mkSnapshot(mkNode("a", 1000))
		lonely := &fakeFilter{name: "InterPodAffinity", filter: func(_ *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
			if len(ni.Pods) > 0 {
				return framework.NewStatus(framework.Unschedulable, "node(s) didn't match pod anti-affinity rules")
			}
			return nil
		}}
		s := testScheduler(Config{DisablePreemption: true}, snap, lonely)
		s.Nominator().AddNominatedPod(mkPod("other", 1, 50), "a")
		res := s.ScheduleOne(mkPod("p", 1, 0))
		if want := "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules."; res.Message != want {
			t.Errorf("message %q", res.Message)
		}
		s.Nominator().DeleteNominatedPod("default/other")
		if res := s.ScheduleOne(mkPod("p", 1, 0)); res.Node != "a" {
			t.Errorf("after the nomination is gone: %q", res.Message)
		}
	})
}

func TestParallelismDoesNotChangeResults(t *testing.T) {
	nodes := nodeNames(1000)
	mk := func(par int) *Scheduler {
		snap := mkSnapshot(nodes...)
		rej := &fakeFilter{name: "TaintToleration", filter: func(_ *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
			if ni.Index%7 == 0 {
				return framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)")
			}
			return nil
		}}
		sc := &fakeScore{name: "NodeResourcesFit", score: func(ni *framework.NodeInfo) int64 {
			return 100 - ni.Requested.MilliCPU/40
		}}
		return testScheduler(Config{Seed: 1, Parallelism: par}, snap, rej, fitFilter(), sc)
	}
	one, two, four := mk(1), mk(2), mk(4)
	for i := 0; i < 300; i++ {
		pi := mkPod(fmt.Sprintf("p%d", i), 500, 0)
		a, b, c := one.ScheduleOne(pi), two.ScheduleOne(pi), four.ScheduleOne(pi)
		if a.Node != b.Node || a.Node != c.Node || a.Message != b.Message {
			t.Fatalf("pod %d: %q %q %q", i, a.Node, b.Node, c.Node)
		}
		for _, s := range []*Scheduler{one, two, four} {
			bind(s.Snapshot(), pi, a.Node)
		}
	}
}

func TestFilterErrorFailsTheCycle(t *testing.T) {
	snap := mkSnapshot(mkNode("a", 1000))
	bad := &fakeFilter{name: "NodePorts", filter: func(*framework.PodInfo, *framework.NodeInfo) *framework.Status {
		return framework.AsStatus(fmt.Errorf("boom"))
	}}
	res := testScheduler(Config{}, snap, bad).ScheduleOne(mkPod("p", 1, 0))
	if res.Err == nil || res.Node != "" || res.Message != `running "NodePorts" filter plugin: boom` {
		t.Errorf("result %+v", res)
	}
}

func TestExplainStructure(t *testing.T) {
	snap := mkSnapshot(mkNode("b", 1000), mkNode("a", 1000), mkNode("c", 100))
	ex := &fakeExplainer{fakeFilter{name: "PodTopologySpread", filter: func(*framework.PodInfo, *framework.NodeInfo) *framework.Status { return nil }}}
	sc := &fakeScore{name: "ImageLocality", score: byTable(map[string]int64{"b": 10})}
	s := testScheduler(Config{}, snap, fitFilter(), ex, sc)
	e := s.Explain(mkPod("p", 500, 0))
	if e.Pod != "default/p" || e.NumNodes != 3 || e.Chosen != "b" || e.Message != "" {
		t.Errorf("header %+v", e)
	}
	var names []string
	for _, v := range e.Nodes {
		names = append(names, v.Node)
	}
	if !reflect.DeepEqual(names, []string{"a", "b", "c"}) || !reflect.DeepEqual(e.Feasible, []string{"a", "b"}) {
		t.Errorf("nodes %v feasible %v", names, e.Feasible)
	}
	c := e.Nodes[2]
	if c.Feasible || c.Plugin != "NodeResourcesFit" || c.Code != framework.Unschedulable || c.Scores != nil || c.Total != 0 {
		t.Errorf("infeasible verdict %+v", c)
	}
	if e.Nodes[1].Total != 10 || e.Nodes[1].Details["PodTopologySpread"] != "detail:b" {
		t.Errorf("feasible verdict %+v", e.Nodes[1])
	}
	// unschedulable: message filled, no chosen node
	e = s.Explain(mkPod("big", 5000, 0))
	if e.Chosen != "" || e.Message == "" || len(e.Feasible) != 0 {
		t.Errorf("unschedulable explanation %+v", e)
	}
}

// nameCheck scores a node by its index and checks, in NormalizeScore, that
// every entry's Name and Index still describe the node that was scored.
type nameCheck struct {
	snap *framework.Snapshot
	bad  int
}

func (c *nameCheck) Name() string { return "ImageLocality" }
func (c *nameCheck) Score(_ *framework.CycleState, _ *framework.PodInfo, ni *framework.NodeInfo) (int64, *framework.Status) {
	return int64(ni.Index % 100), nil
}
func (c *nameCheck) ScoreExtensions() framework.ScoreExtensions { return c }
func (c *nameCheck) NormalizeScore(_ *framework.CycleState, _ *framework.PodInfo, scores []framework.NodeScore) *framework.Status {
	for _, s := range scores {
		ni := c.snap.Get(s.Name)
		if ni == nil || ni.Index != s.Index || int64(ni.Index%100) != s.Score {
			c.bad++
		}
	}
	return nil
}

func TestScoreListsStayLabelledAcrossCycles(t *testing.T) {
	snap := mkSnapshot(nodeNames(300)...)
	check := &nameCheck{snap: snap}
	skipSometimes := &fakeScore{name: "TaintToleration", score: byTable(nil)}
	s := testScheduler(Config{TieBreak: TieBreakByName}, snap, fitFilter(), check, skipSometimes)
	for i := 0; i < 400; i++ {
		skipSometimes.skip = i%7 == 0
		pi := mkPod(fmt.Sprintf("p%d", i), 1500, 0)
		res := s.ScheduleOne(pi)
		if res.Node == "" {
			break
		}
		bind(snap, pi, res.Node)
		if i == 200 { // the node list changes: indexes shift
			snap.AddNode(mkNode("node-0000a", 4000))
		}
	}
	if check.bad != 0 {
		t.Errorf("%d score entries carried another node's name or index", check.bad)
	}
}

func TestOutOfRangeScoreFailsTheCycle(t *testing.T) {
	nodes := nodeNames(1200) // enough for the parallel normalise/total path
	for _, n := range []int{2, 1200} {
		snap := mkSnapshot(nodes[:n]...)
		bad := &fakeScore{name: "ImageLocality", score: func(ni *framework.NodeInfo) int64 { return 101 }}
		res := testScheduler(Config{}, snap, bad, &fakeScore{name: "TaintToleration", score: byTable(nil)}).ScheduleOne(mkPod("p", 1, 0))
		want := `applying score defaultWeights on Score plugins: plugin "ImageLocality" returns an invalid score 101, it should in the range of [0, 100] after normalizing`
		if res.Err == nil || res.Message != want {
			t.Errorf("%d nodes: %+v", n, res)
		}
	}
}

func TestScoreListsStayLabelledWhenSetsAlternate(t *testing.T) {
	snap := mkSnapshot(nodeNames(300)...)
	check := &nameCheck{snap: snap}
	taint := &fakeFilter{name: "TaintToleration", filter: func(pi *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
		if ni.Index%5 == 0 && pi.Pod.Labels["tolerates"] == "" {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)")
		}
		if ni.Index%7 == 0 && pi.Pod.Labels["third"] != "" {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)")
		}
		return nil
	}}
	s := testScheduler(Config{TieBreak: TieBreakByName}, snap, taint, fitFilter(), check)
	for i := 0; i < 300; i++ {
		pi := mkPod(fmt.Sprintf("p%d", i), 10, 0)
		switch i % 3 {
		case 1:
			pi.Pod.Labels["tolerates"] = "yes"
		case 2:
			pi.Pod.Labels["third"] = "yes"
		}
		if res := s.ScheduleOne(pi); res.Node != "" {
			bind(snap, pi, res.Node)
		}
	}
	if check.bad != 0 {
		t.Errorf("%d score entries carried another node's name or index", check.bad)
	}
}
