package preemption

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
)

func preempt(h *fakeHandle, pod *api.Pod, pdbs ...*api.PodDisruptionBudget) Result {
	pi := framework.NewPodInfo(pod)
	state, statuses := h.cycle(pi)
	e := &Evaluator{Handle: h, PDBs: func() []*api.PodDisruptionBudget { return pdbs }}
	return e.Preempt(state, pi, statuses)
}

// The oracle's testdata/preempt.yaml: node-a runs two priority-100 pods,
// node-b one priority-1000 pod; the lowest highest-victim priority wins
// and the older low pod is reprieved.
func preemptYAML() (*fakeHandle, *api.Pod) {
	h := newHandle(
		[]*api.Node{mkNode("node-a", "1"), mkNode("node-b", "1")},
		[]*api.Pod{
			mkPod(podSpec{name: "low-a1", node: "node-a", cpu: "400m", prio: 100, start: 1, labels: []string{"app", "a"}}),
			mkPod(podSpec{name: "low-a2", node: "node-a", cpu: "400m", prio: 100, start: 2, labels: []string{"app", "a"}}),
			mkPod(podSpec{name: "mid-b1", node: "node-b", cpu: "800m", prio: 1000, start: 3, labels: []string{"app", "b"}}),
		})
	return h, mkPod(podSpec{name: "urgent", cpu: "600m", prio: 10000})
}

func TestPreemptOracleScenarios(t *testing.T) {
	h, urgent := preemptYAML()
	r := preempt(h, urgent)
	if r.NominatedNode != "node-a" || fmtKeys(keys(r.Victims)) != "[default/low-a2]" || r.Message != "" {
		t.Errorf("preempt.yaml: got %q %v %q, want node-a [default/low-a2]", r.NominatedNode, keys(r.Victims), r.Message)
	}
	if r.DecidedBy != ByHighestPriority || r.Why != "node-a: lowest highest-victim priority (node-a 100, node-b 1000)" {
		t.Errorf("preempt.yaml decided by %q (%q), want %q", r.DecidedBy, r.Why, ByHighestPriority)
	}
	// preempt-pdb.yaml: minAvailable 2 over app=a (2 healthy ⇒ 0 allowed).
	h, urgent = preemptYAML()
	r = preempt(h, urgent, pdb("a-pdb", 0, "app", "a"))
	if r.NominatedNode != "node-b" || fmtKeys(keys(r.Victims)) != "[default/mid-b1]" {
		t.Errorf("preempt-pdb.yaml: got %q %v, want node-b [default/mid-b1]", r.NominatedNode, keys(r.Victims))
	}
	if r.DecidedBy != ByPDBViolations {
		t.Errorf("preempt-pdb.yaml decided by %q, want %q", r.DecidedBy, ByPDBViolations)
	}
	if len(r.Candidates) != 2 || r.Candidates[0].Node != "node-a" || r.Candidates[0].PDBViolations != 1 || r.Candidates[1].PDBViolations != 0 {
		t.Errorf("candidates = %+v", r.Candidates)
	}
	// The scheduler's state is untouched by the dry runs.
	if n := len(h.snap.Get("node-a").Pods); n != 2 {
		t.Errorf("node-a has %d pods after Preempt, want 2", n)
	}
}

// SelectVictimsOnNode reprieves budget-violating pods first: with the
// budget the protected (least important) pod survives and a more important
// unprotected one is evicted instead.
func TestVictimMinimisationWithPDBs(t *testing.T) {
	pods := func() []*api.Pod {
		return []*api.Pod{
			mkPod(podSpec{name: "a1", node: "n1", cpu: "300m", prio: 10, start: 1, labels: []string{"app", "x"}}),
			mkPod(podSpec{name: "b1", node: "n1", cpu: "300m", prio: 20, start: 2, labels: []string{"app", "y"}}),
			mkPod(podSpec{name: "b2", node: "n1", cpu: "300m", prio: 20, start: 3, labels: []string{"app", "y"}}),
		}
	}
	incoming := func() *api.Pod { return mkPod(podSpec{name: "in", cpu: "400m", prio: 100}) }
	cases := []struct {
		name        string
		pdbs        []*api.PodDisruptionBudget
		victims     string
		violations  int
		highestPrio int32
	}{
		{name: "no budgets: least important evicted", victims: "[default/a1]", highestPrio: 10},
		{name: "budget on a1: a1 reprieved first, newest b evicted", pdbs: []*api.PodDisruptionBudget{pdb("x", 0, "app", "x")}, victims: "[default/b2]", highestPrio: 20},
		{name: "budget with room: not violating", pdbs: []*api.PodDisruptionBudget{pdb("x", 1, "app", "x")}, victims: "[default/a1]", highestPrio: 10},
		{name: "budget in another namespace does not apply", pdbs: []*api.PodDisruptionBudget{func() *api.PodDisruptionBudget {
			p := pdb("x", 0, "app", "x")
			p.Namespace = "other"
			return p
		}()}, victims: "[default/a1]", highestPrio: 10},
		{name: "pod already disrupted does not count", pdbs: []*api.PodDisruptionBudget{func() *api.PodDisruptionBudget {
			p := pdb("x", 0, "app", "x")
			p.Status.DisruptedPods = map[string]api.Time{"a1": 0}
			return p
		}()}, victims: "[default/a1]", highestPrio: 10},
		{name: "empty selector matches nothing", pdbs: []*api.PodDisruptionBudget{pdb("all", 0)}, victims: "[default/a1]", highestPrio: 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHandle([]*api.Node{mkNode("n1", "1")}, pods())
			r := preempt(h, incoming(), tc.pdbs...)
			if r.NominatedNode != "n1" || fmtKeys(keys(r.Victims)) != tc.victims {
				t.Fatalf("got %q %v (%s), want n1 %s", r.NominatedNode, keys(r.Victims), r.Message, tc.victims)
			}
			c := r.Candidates[0]
			if c.PDBViolations != tc.violations || c.HighestPriority != tc.highestPrio || c.NumVictims != 1 {
				t.Errorf("candidate = %+v", c)
			}
		})
	}
}

// Two budgeted pods both needed: the first violating pod in importance
// order is reprieved while the budget still counts it, the second cannot
// be and counts as a violation.
func TestViolatingVictimsCounted(t *testing.T) {
	h := newHandle([]*api.Node{mkNode("n1", "1")}, []*api.Pod{
		mkPod(podSpec{name: "a1", node: "n1", cpu: "500m", prio: 10, start: 1, labels: []string{"app", "x"}}),
		mkPod(podSpec{name: "a2", node: "n1", cpu: "500m", prio: 10, start: 2, labels: []string{"app", "x"}}),
	})
	r := preempt(h, mkPod(podSpec{name: "in", cpu: "1", prio: 100}), pdb("x", 1, "app", "x"))
	// a1 (older) is within budget (1 allowed), a2 exceeds it: a2 is tried
	// first as a violating pod, fails, then a1 fails too.
	if fmtKeys(keys(r.Victims)) != "[default/a1 default/a2]" {
		t.Fatalf("victims = %v", keys(r.Victims))
	}
	if c := r.Candidates[0]; c.PDBViolations != 1 || c.PrioritySum != 2*(10+2147483648) {
		t.Errorf("candidate = %+v", c)
	}
	// Victims stay in importance order inside the candidate.
	if got := keys(r.Candidates[0].Victims); fmtKeys(got) != "[default/a1 default/a2]" {
		t.Errorf("candidate victims = %v, want importance order", got)
	}
}

func TestNotEligible(t *testing.T) {
	never := api.PreemptNever
	h, urgent := preemptYAML()
	urgent.Spec.PreemptionPolicy = &never
	r := preempt(h, urgent)
	if r.NominatedNode != "" || r.Message != "preemption: not eligible due to preemptionPolicy=Never." {
		t.Errorf("got %q %q", r.NominatedNode, r.Message)
	}
}

func TestNominatedNodeStillTerminating(t *testing.T) {
	terminating := func(prio int32, reason string) *api.Pod {
		p := mkPod(podSpec{name: "victim", node: "node-a", cpu: "400m", prio: prio, start: 1})
		var now api.Time
		p.DeletionTimestamp = &now
		p.Status.Conditions = append(p.Status.Conditions, api.Condition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: reason})
		return p
	}
	cases := []struct {
		name       string
		victim     *api.Pod
		nodeStatus *framework.Status // status of node-a in the failed cycle; nil ⇒ absent
		eligible   bool
	}{
		{"lower-priority pod terminating by preemption", terminating(100, ReasonPreemptionByScheduler), framework.NewStatus(framework.Unschedulable, "Insufficient cpu"), false},
		{"nominated node now unresolvable", terminating(100, ReasonPreemptionByScheduler), framework.NewStatus(framework.UnschedulableAndUnresolvable, "x"), true},
		{"nominated node without status counts as unresolvable", terminating(100, ReasonPreemptionByScheduler), nil, true},
		{"terminating for another reason", terminating(100, "TerminationByKubelet"), framework.NewStatus(framework.Unschedulable, "Insufficient cpu"), true},
		{"higher-priority pod terminating", terminating(20000, ReasonPreemptionByScheduler), framework.NewStatus(framework.Unschedulable, "Insufficient cpu"), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHandle([]*api.Node{mkNode("node-a", "1")}, []*api.Pod{tc.victim})
			p := mkPod(podSpec{name: "urgent", cpu: "600m", prio: 10000})
			p.Status.NominatedNodeName = "node-a"
			statuses := framework.NodeToStatusMap{}
			if tc.nodeStatus != nil {
				statuses["node-a"] = tc.nodeStatus
			}
			e := &Evaluator{Handle: h}
			ok, msg := e.PodEligibleToPreemptOthers(framework.NewPodInfo(p), statuses)
			if ok != tc.eligible {
				t.Fatalf("eligible = %v (%q), want %v", ok, msg, tc.eligible)
			}
			if !ok && msg != "not eligible due to a terminating pod on the nominated node." {
				t.Errorf("message = %q", msg)
			}
		})
	}
}

func TestMessages(t *testing.T) {
	cases := []struct {
		name  string
		nodes []*api.Node
		pods  []*api.Pod
		pod   *api.Pod
		want  string
	}{
		{
			name:  "every node unresolvable",
			nodes: []*api.Node{mkNode("n1", "1", "tainted", "y"), mkNode("n2", "1", "tainted", "y")},
			pod:   mkPod(podSpec{name: "in", cpu: "100m", prio: 10}),
			want:  "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
		},
		{
			name:  "no lower-priority pods on the resolvable nodes",
			nodes: []*api.Node{mkNode("n1", "1"), mkNode("n2", "1"), mkNode("n3", "1", "tainted", "y")},
			pods: []*api.Pod{
				mkPod(podSpec{name: "a", node: "n1", cpu: "1", prio: 100}),
				mkPod(podSpec{name: "b", node: "n2", cpu: "1", prio: 100}),
			},
			pod:  mkPod(podSpec{name: "in", cpu: "500m", prio: 100}),
			want: "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
		},
		{
			name:  "dry run's own filter reason",
			nodes: []*api.Node{mkNode("n1", "1"), mkNode("n2", "2", "tainted", "y")},
			pods: []*api.Pod{
				mkPod(podSpec{name: "hi", node: "n1", cpu: "600m", prio: 1000}),
				mkPod(podSpec{name: "lo", node: "n1", cpu: "300m", prio: 1}),
			},
			pod:  mkPod(podSpec{name: "in", cpu: "500m", prio: 100}),
			want: "preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 Preemption is not helpful for scheduling.",
		},
		{
			name:  "request above allocatable is unresolvable",
			nodes: []*api.Node{mkNode("n1", "1")},
			pods:  []*api.Pod{mkPod(podSpec{name: "lo", node: "n1", cpu: "300m", prio: 1})},
			pod:   mkPod(podSpec{name: "in", cpu: "2", prio: 100}),
			want:  "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := preempt(newHandle(tc.nodes, tc.pods), tc.pod)
			if r.NominatedNode != "" || r.Message != tc.want {
				t.Errorf("got %q %q\nwant %q", r.NominatedNode, r.Message, tc.want)
			}
		})
	}
}

// Unresolvable nodes are never dry-run even if they hold lower-priority pods.
func TestUnresolvableNodesExcluded(t *testing.T) {
	h := newHandle(
		[]*api.Node{mkNode("n1", "1", "tainted", "y"), mkNode("n2", "1")},
		[]*api.Pod{
			mkPod(podSpec{name: "cheap", node: "n1", cpu: "1", prio: 1, start: 1}),
			mkPod(podSpec{name: "dear", node: "n2", cpu: "1", prio: 50, start: 1}),
		})
	r := preempt(h, mkPod(podSpec{name: "in", cpu: "500m", prio: 100}))
	if r.NominatedNode != "n2" || fmtKeys(keys(r.Victims)) != "[default/dear]" || len(r.Candidates) != 1 {
		t.Errorf("got %q %v %d candidates", r.NominatedNode, keys(r.Victims), len(r.Candidates))
	}
	if _, tried := r.DryRun["n1"]; tried {
		t.Errorf("n1 was dry-run")
	}
}

// The PreFilter extensions keep InterPodAffinity's counts right during the
// dry run: removing the low-priority pod the preemptor is anti-affine to
// makes the node fit.
func TestDryRunUsesPreFilterExtensions(t *testing.T) {
	anti := &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, TopologyKey: api.LabelHostname,
	}}}}
	h := newHandle(
		[]*api.Node{mkNode("n1", "4"), mkNode("n2", "4")},
		[]*api.Pod{
			mkPod(podSpec{name: "db-low", node: "n1", cpu: "100m", prio: 1, start: 1, labels: []string{"app", "db"}}),
			mkPod(podSpec{name: "other-low", node: "n1", cpu: "100m", prio: 1, start: 1, labels: []string{"app", "web"}}),
			mkPod(podSpec{name: "db-high", node: "n2", cpu: "100m", prio: 1000, start: 1, labels: []string{"app", "db"}}),
		},
		tainted{}, fit{}, interpodaffinity.New())
	in := mkPod(podSpec{name: "in", cpu: "100m", prio: 100})
	in.Spec.Affinity = anti
	r := preempt(h, in)
	if r.NominatedNode != "n1" || fmtKeys(keys(r.Victims)) != "[default/db-low]" {
		t.Errorf("got %q %v %q, want n1 [default/db-low]", r.NominatedNode, keys(r.Victims), r.Message)
	}
	if st := r.DryRun["n2"]; st == nil || st.Message() != "No preemption victims found for incoming pod" {
		t.Errorf("n2 dry run = %v", st)
	}
}

func TestVictimsSortedByName(t *testing.T) {
	h := newHandle([]*api.Node{mkNode("n1", "1")}, []*api.Pod{
		mkPod(podSpec{name: "zeta", node: "n1", cpu: "500m", prio: 5, start: 1}),
		mkPod(podSpec{name: "alpha", node: "n1", cpu: "500m", prio: 1, start: 1}),
	})
	r := preempt(h, mkPod(podSpec{name: "in", cpu: "1", prio: 100}))
	if fmtKeys(keys(r.Victims)) != "[default/alpha default/zeta]" {
		t.Errorf("victims = %v", keys(r.Victims))
	}
	if got := keys(r.Candidates[0].Victims); fmtKeys(got) != "[default/zeta default/alpha]" {
		t.Errorf("candidate victims = %v, want importance order", got)
	}
}
