package preemption

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/nodename"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeports"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeunschedulable"
	"podlab.dev/podlab/engine/scheduler/plugins/podtopologyspread"
	"podlab.dev/podlab/engine/scheduler/plugins/tainttoleration"
)

// profileHandle is the fake handle with the default filter plugins, the
// Profile hook and nominated pods, whose RunFilterPlugins is
// RunFilterPluginsWithNominatedPods like the scheduler's.
type profileHandle struct {
	*fakeHandle
	nominated map[string][]*framework.PodInfo
}

func defaultPlugins() []framework.Plugin {
	spread, err := podtopologyspread.New(podtopologyspread.Args{})
	if err != nil {
		panic(err)
	}
	return []framework.Plugin{nodeunschedulable.New(), nodename.New(), tainttoleration.New(), nodeaffinity.New(),
		nodeports.New(), noderesources.NewFit(), spread, interpodaffinity.New()}
}

func (h *profileHandle) PreemptionPlugins() []string {
	var out []string
	for _, p := range h.plugins {
		out = append(out, p.Name())
	}
	return out
}

func (h *profileHandle) NominatedPodsForNode(node string) []*framework.PodInfo {
	return h.nominated[node]
}

func (h *profileHandle) NominatedNodes() []string {
	var out []string
	for name, list := range h.nominated {
		if len(list) > 0 {
			out = append(out, name)
		}
	}
	return out
}

func (h *profileHandle) FilterRunner(state *framework.CycleState) func(*framework.PodInfo, *framework.NodeInfo) *framework.Status {
	return func(pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
		return h.fakeHandle.RunFilterPlugins(state, pod, node)
	}
}

func (h *profileHandle) RunFilterPlugins(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	var nodeOut *framework.NodeInfo
	var stateOut *framework.CycleState
	for _, np := range h.nominated[node.Node.Name] {
		if np.Pod.PriorityValue() < pod.Pod.PriorityValue() || np.Pod.Key() == pod.Pod.Key() {
			continue
		}
		if nodeOut == nil {
			nodeOut, stateOut = node.Clone(), state.Clone()
		}
		nodeOut.AddPodInfo(np)
		if st := h.RunPreFilterExtensionAddPod(stateOut, pod, np, nodeOut); !st.IsSuccess() {
			return st
		}
	}
	if nodeOut != nil {
		if st := h.fakeHandle.RunFilterPlugins(stateOut, pod, nodeOut); !st.IsSuccess() {
			return st
		}
	}
	return h.fakeHandle.RunFilterPlugins(state, pod, node)
}

// cycle is fakeHandle.cycle with the nominated-pods filter.
func (h *profileHandle) cycle(pod *framework.PodInfo) (*framework.CycleState, framework.NodeToStatusMap) {
	state, _ := h.fakeHandle.cycle(pod)
	statuses := map[string]*framework.Status{}
	for _, ni := range h.snap.Nodes() {
		if st := h.RunFilterPlugins(state, pod, ni); !st.IsSuccess() {
			statuses[ni.Node.Name] = st
		}
	}
	return state, statuses
}

// randomCluster builds a small cluster where preemption has something to
// decide: nodes of a few sizes (some tainted, cordoned or with a gpu), pods
// of mixed priorities, start times, labels, host ports and anti-affinity,
// nominated pods, and budgets.
func randomCluster(r *rand.Rand) (*profileHandle, []*api.PodDisruptionBudget) {
	var nodes []*api.Node
	numNodes := 2 + r.IntN(8)
	for i := 0; i < numNodes; i++ {
		n := mkNode(fmt.Sprintf("n%02d", i), fmt.Sprintf("%dm", 1000+500*r.IntN(4)), api.LabelTopologyZone, fmt.Sprintf("z%d", i%3))
		n.Status.Allocatable["pods"] = mustQ(fmt.Sprint(2 + r.IntN(6)))
		if r.IntN(4) == 0 {
			n.Status.Allocatable["example.com/gpu"] = mustQ(fmt.Sprint(1 + r.IntN(2)))
		}
		switch r.IntN(10) {
		case 0:
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
		case 1:
			n.Spec.Unschedulable = true
		}
		n.Status.Capacity = n.Status.Allocatable
		nodes = append(nodes, n)
	}
	var pods []*api.Pod
	for i, n := 0, 3*numNodes+r.IntN(3*numNodes); i < n; i++ {
		p := randomPod(r, fmt.Sprintf("p%02d", i), nodes[r.IntN(numNodes)].Name, nodes)
		p.Status.StartTime = func() *api.Time { t := api.Time(r.IntN(5)) * api.Time(1e9); return &t }()
		if r.IntN(6) == 0 {
			p.Status.StartTime = nil
		}
		pods = append(pods, p)
	}
	h := &profileHandle{fakeHandle: newHandle(nodes, pods, defaultPlugins()...), nominated: map[string][]*framework.PodInfo{}}
	for i, n := 0, r.IntN(3); i < n; i++ {
		np := randomPod(r, fmt.Sprintf("nom%d", i), "", nodes)
		node := nodes[r.IntN(numNodes)].Name
		np.Status.NominatedNodeName = node
		h.nominated[node] = append(h.nominated[node], framework.NewPodInfo(np))
	}
	var pdbs []*api.PodDisruptionBudget
	for _, app := range []string{"a", "b"} {
		if r.IntN(2) == 0 {
			pdbs = append(pdbs, pdb("pdb-"+app, int32(r.IntN(3)), "app", app))
		}
	}
	return h, pdbs
}

func randomPod(r *rand.Rand, name, node string, nodes []*api.Node) *api.Pod {
	p := mkPod(podSpec{name: name, node: node, cpu: fmt.Sprintf("%dm", 100*(1+r.IntN(12))),
		prio: []int32{0, 10, 10, 100, 1000}[r.IntN(5)], labels: []string{"app", []string{"a", "b", "c"}[r.IntN(3)]}})
	c := &p.Spec.Containers[0]
	c.Resources.Requests["memory"] = mustQ(fmt.Sprintf("%dMi", 256*r.IntN(6)))
	if r.IntN(5) == 0 {
		c.Resources.Requests["example.com/gpu"] = mustQ("1")
		c.Resources.Limits = api.ResourceList{"example.com/gpu": mustQ("1")}
	}
	if r.IntN(6) == 0 {
		c.Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: "TCP"}}
	}
	if r.IntN(6) == 0 {
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": []string{"a", "b", "c"}[r.IntN(3)]}},
			TopologyKey:   []string{api.LabelHostname, api.LabelTopologyZone}[r.IntN(2)]}}}}
	}
	if r.IntN(10) == 0 {
		p.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
	}
	if node == "" && r.IntN(8) == 0 {
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: api.LabelTopologyZone,
			WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}}}}
	}
	if node == "" && r.IntN(8) == 0 {
		p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}, TopologyKey: api.LabelTopologyZone}}}}
	}
	api.DefaultPod(p)
	return p
}

// describe renders everything a preemption decides, for comparison.
func describe(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "node=%q victims=%v by=%q msg=%q\n", r.NominatedNode, keys(r.Victims), r.DecidedBy, r.Message)
	for _, c := range r.Candidates {
		fmt.Fprintf(&b, "  cand %s %v viol=%d\n", c.Node, keys(c.Victims), c.PDBViolations)
	}
	for _, ni := range sortedKeys(r.DryRun) {
		st := r.DryRun[ni]
		fmt.Fprintf(&b, "  dry %s %v %v\n", ni, st.Code, st.Reasons)
	}
	return b.String()
}

func sortedKeys(m map[string]*framework.Status) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// The arithmetic dry run decides exactly as the reference one (full
// RunFilterPlugins per reprieve on cloned node and state) on thousands of
// random clusters: nominated node, victims, candidates with their budget
// violations, every node's dry-run status and the message. The run must
// also exercise both paths.
func TestFastDryRunEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	inPlace, onCopy, ref, nominated := 0, 0, 0, 0
	for i := 0; i < 3000; i++ {
		h, pdbs := randomCluster(r)
		pod := randomPod(r, "incoming", "", nil)
		pod.Spec.Priority = func() *int32 { p := []int32{100, 1000, 5000}[r.IntN(3)]; return &p }()
		pi := framework.NewPodInfo(pod)
		state, statuses := h.cycle(pi)
		budgets := func() []*api.PodDisruptionBudget { return pdbs }
		e := &Evaluator{Handle: h, PDBs: budgets}
		got := e.Preempt(state, pi, statuses)
		want := (&Evaluator{Handle: h, PDBs: budgets, referenceOnly: true}).Preempt(state, pi, statuses)
		if describe(got) != describe(want) {
			t.Fatalf("case %d: fast path\n%s\nreference\n%s", i, describe(got), describe(want))
		}
		inPlace += e.stats.inPlace
		onCopy += e.stats.copy
		ref += e.stats.reference
		if len(h.nominated) > 0 && e.stats.inPlace > 0 {
			nominated++
		}
	}
	t.Logf("dry runs: %d in place, %d filtered on a copy, %d reference; %d clusters with nominated pods on the in-place path", inPlace, onCopy, ref, nominated)
	if inPlace < 1000 || onCopy < 300 || ref < 1000 || nominated < 100 {
		t.Errorf("paths not all exercised: %d in place, %d filtered on a copy, %d reference, %d with nominations", inPlace, onCopy, ref, nominated)
	}
}
