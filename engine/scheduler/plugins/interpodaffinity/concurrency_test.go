package interpodaffinity

import (
	"sync"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Filter runs in parallel, and so do the AddPod calls the runtime makes on
// per-node clones for nominated pods; with -race this checks that neither
// writes shared data (a new topology key in AddPod must not touch the
// snapshot's topology cache).
func TestParallelFilterWithAddPodOnClones(t *testing.T) {
	snap := oracleCluster()
	pl := New()
	pi := pod().Name("p").Label("app", "web").PodAffinityTerm(true, term(api.LabelHostname, in("app", "web"))).Info()
	state := framework.NewCycleState()
	if _, st := pl.PreFilter(state, pi, snap); !st.IsSuccess() {
		t.Fatalf("PreFilter = %v", st)
	}
	nominated := pod().Name("nom").Label("app", "other").
		PodAffinityTerm(true, term(api.LabelHostname, in("app", "web"))).Info() // a key the state has no counts for yet
	var wg sync.WaitGroup
	results := make([]framework.Code, len(snap.Nodes()))
	for i, ni := range snap.Nodes() {
		wg.Add(1)
		go func(i int, ni *framework.NodeInfo) {
			defer wg.Done()
			clone := state.Clone()
			node := ni.Clone()
			node.AddPodInfo(nominated)
			pl.AddPod(clone, pi, nominated, node)
			results[i] = pl.Filter(clone, pi, node).CodeOf()
			pl.Filter(state, pi, ni)
		}(i, ni)
	}
	wg.Wait()
	// On every clone the nominated pod repels the incoming one from its host.
	for i, c := range results {
		if want := framework.Unschedulable; c != want {
			t.Errorf("%s: %v, want %v", snap.Nodes()[i].Node.Name, c, want)
		}
	}
}
