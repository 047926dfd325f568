package preemption

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

func TestNumCandidates(t *testing.T) {
	for _, tc := range []struct{ potential, want int }{
		{0, 0}, {1, 1}, {100, 100}, {101, 100}, {1000, 100}, {1009, 100}, {1010, 101}, {2000, 200}, {5000, 500},
	} {
		if got := NumCandidates(tc.potential); got != tc.want {
			t.Errorf("NumCandidates(%d) = %d, want %d", tc.potential, got, tc.want)
		}
	}
}

// fullCluster: n one-cpu nodes, each full with one low pod (labelled
// app=a on the nodes in budgeted, covered by a budget allowing nothing).
func fullCluster(n int, budgeted func(i int) bool) (*fakeHandle, []*api.PodDisruptionBudget) {
	var nodes []*api.Node
	var pods []*api.Pod
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("node-%03d", i)
		nodes = append(nodes, mkNode(name, "1"))
		app := "b"
		if budgeted(i) {
			app = "a"
		}
		pods = append(pods, mkPod(podSpec{name: "low-" + name, node: name, cpu: "1", prio: 1, start: 1, labels: []string{"app", app}}))
	}
	return newHandle(nodes, pods), []*api.PodDisruptionBudget{pdb("a", 0, "app", "a")}
}

func candidateNodes(r Result) []string {
	var out []string
	for _, c := range r.Candidates {
		out = append(out, c.Node)
	}
	return out
}

func TestUpstreamWindow(t *testing.T) {
	run := func(h *fakeHandle, pdbs []*api.PodDisruptionBudget, offset int) (Result, int) {
		pi := framework.NewPodInfo(mkPod(podSpec{name: "in", cpu: "1", prio: 100}))
		state, statuses := h.cycle(pi)
		draws := 0
		e := &Evaluator{Handle: h, PDBs: func() []*api.PodDisruptionBudget { return pdbs }, Window: UpstreamWindow,
			Offset: func(n int) int { draws++; return offset }}
		return e.Preempt(state, pi, statuses), draws
	}
	none := func(int) bool { return false }

	t.Run("stops after 100 candidates from the offset, wrapping", func(t *testing.T) {
		h, pdbs := fullCluster(250, none)
		r, draws := run(h, pdbs, 240)
		got := candidateNodes(r)
		if draws != 1 || len(got) != 100 || got[0] != "node-000" || got[89] != "node-089" || got[90] != "node-240" || got[99] != "node-249" {
			t.Fatalf("draws %d, %d candidates %v…", draws, len(got), got)
		}
		if r.NominatedNode != "node-000" || len(r.DryRun) != 0 {
			t.Errorf("nominated %q, %d dry-run failures", r.NominatedNode, len(r.DryRun))
		}
	})
	t.Run("violating candidates alone do not stop it; each list keeps its first 100", func(t *testing.T) {
		h, pdbs := fullCluster(250, func(i int) bool { return i != 200 })
		r, _ := run(h, pdbs, 10)
		// node-010 … node-199 are violating (the first 100 kept), node-200
		// is the first non-violating one: 101 candidates ≥ 100, stop.
		got := candidateNodes(r)
		if len(got) != 101 || got[0] != "node-010" || got[99] != "node-109" || got[100] != "node-200" {
			t.Fatalf("%d candidates %v", len(got), got)
		}
		if r.NominatedNode != "node-200" || r.DecidedBy != ByPDBViolations {
			t.Errorf("nominated %q by %q", r.NominatedNode, r.DecidedBy)
		}
		// With no non-violating node at all every node is dry-run.
		h, pdbs = fullCluster(250, func(int) bool { return true })
		r, _ = run(h, pdbs, 10)
		if got := candidateNodes(r); len(got) != 100 || got[0] != "node-010" {
			t.Fatalf("all violating: %d candidates %v", len(got), got)
		}
	})
	t.Run("100 nodes or fewer: every node, no draw, as AllCandidates", func(t *testing.T) {
		h, pdbs := fullCluster(100, func(i int) bool { return i%3 == 0 })
		r, draws := run(h, pdbs, 57)
		pi := framework.NewPodInfo(mkPod(podSpec{name: "in", cpu: "1", prio: 100}))
		state, statuses := h.cycle(pi)
		all := (&Evaluator{Handle: h, PDBs: func() []*api.PodDisruptionBudget { return pdbs }}).Preempt(state, pi, statuses)
		if draws != 0 || describe(r) != describe(all) || len(r.Candidates) != 100 {
			t.Errorf("draws %d\nwindow %s\nall %s", draws, describe(r), describe(all))
		}
	})
	t.Run("no candidate: every node dry-run, same message as AllCandidates", func(t *testing.T) {
		h, pdbs := fullCluster(150, none)
		pi := framework.NewPodInfo(mkPod(podSpec{name: "in", cpu: "1", prio: 1}))
		state, statuses := h.cycle(pi)
		e := &Evaluator{Handle: h, Window: UpstreamWindow, Offset: func(int) int { return 3 }}
		r := e.Preempt(state, pi, statuses)
		want := "preemption: 0/150 nodes are available: 150 No preemption victims found for incoming pod."
		if r.Message != want || len(pdbs) != 1 {
			t.Errorf("message %q", r.Message)
		}
	})
}
