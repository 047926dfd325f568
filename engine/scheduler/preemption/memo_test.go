package preemption

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// One evaluator kept across many preemptions, as the scheduler keeps it,
// decides exactly as a fresh reference evaluator while the cluster changes
// between them: victims go, pods arrive, budgets change, nominations come
// and go, nodes are relabelled, and preemptors alternate between a few
// shapes. The memo must be hit often for the test to mean anything.
func TestDryRunMemoEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	hits, steps := 0, 0
	for c := 0; c < 200; c++ {
		h, pdbs := randomCluster(r)
		budgets := func() []*api.PodDisruptionBudget { return pdbs }
		kept := &Evaluator{Handle: h, PDBs: budgets}
		// a few preemptor shapes, reused so the memo can answer
		var shapes []*api.Pod
		for i := 0; i < 2; i++ {
			p := randomPod(r, fmt.Sprintf("incoming-%d", i), "", nil)
			p.Spec.Affinity, p.Spec.TopologySpreadConstraints = nil, nil
			prio := []int32{100, 1000, 5000}[r.IntN(3)]
			p.Spec.Priority = &prio
			shapes = append(shapes, p)
		}
		for step := 0; step < 30; step++ {
			steps++
			pi := framework.NewPodInfo(shapes[r.IntN(len(shapes))])
			state, statuses := h.cycle(pi)
			before := kept.stats.memo
			got := kept.Preempt(state, pi, statuses)
			hits += kept.stats.memo - before
			want := (&Evaluator{Handle: h, PDBs: budgets, referenceOnly: true}).Preempt(state, pi, statuses)
			if describe(got) != describe(want) {
				t.Fatalf("cluster %d step %d: kept evaluator\n%s\nreference\n%s", c, step, describe(got), describe(want))
			}
			mutate(r, h, &pdbs, got)
		}
	}
	t.Logf("%d preemptions, %d dry runs answered by the memo", steps, hits)
	if hits < 1000 {
		t.Errorf("memo hardly used: %d hits", hits)
	}
}

// mutate changes the cluster the way a running lab does between two
// preemptions.
func mutate(r *rand.Rand, h *profileHandle, pdbs *[]*api.PodDisruptionBudget, last Result) {
	nodes := h.snap.Nodes()
	switch r.IntN(7) {
	case 0: // the last preemption's victims are gone
		for _, v := range last.Victims {
			h.snap.RemovePod(v.Pod.Key())
		}
	case 1: // a pod arrives somewhere
		n := nodes[r.IntN(len(nodes))].Node
		var apiNodes []*api.Node
		for _, ni := range nodes {
			apiNodes = append(apiNodes, ni.Node)
		}
		p := randomPod(r, fmt.Sprintf("late-%d", r.IntN(1e6)), n.Name, apiNodes)
		h.snap.AddPod(framework.NewPodInfo(p))
	case 2: // a budget's allowance changes
		if len(*pdbs) > 0 {
			b := *(*pdbs)[0]
			b.Status.DisruptionsAllowed = int32(r.IntN(3))
			(*pdbs)[0] = &b
		}
	case 3: // a nomination comes or goes
		name := nodes[r.IntN(len(nodes))].Node.Name
		if len(h.nominated[name]) > 0 {
			delete(h.nominated, name)
		} else {
			np := randomPod(r, fmt.Sprintf("nom-%d", r.IntN(1e6)), "", nil)
			np.Status.NominatedNodeName = name
			h.nominated[name] = append(h.nominated[name], framework.NewPodInfo(np))
		}
	case 4: // a node is relabelled or tainted
		ni := nodes[r.IntN(len(nodes))]
		n := *ni.Node
		n.Labels = map[string]string{}
		for k, v := range ni.Node.Labels {
			n.Labels[k] = v
		}
		n.Labels["tainted"] = "yes"
		h.snap.UpdateNode(&n)
	case 5: // a pod's labels change (budget matching)
		ni := nodes[r.IntN(len(nodes))]
		if len(ni.Pods) > 0 {
			old := ni.Pods[r.IntN(len(ni.Pods))]
			p := *old.Pod
			p.Labels = map[string]string{"app": []string{"a", "b", "c"}[r.IntN(3)]}
			h.snap.UpdatePod(framework.NewPodInfo(&p))
		}
	}
	// case 6: nothing changes
}
