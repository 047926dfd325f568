package interpodaffinity

import (
	"fmt"
	"math/rand"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// TestPresenceFollowsTheSnapshot: after random binds, deletions, updates
// and node changes the counts equal a rescan of every node.
func TestPresenceFollowsTheSnapshot(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	snap := snapshot([]*api.Node{node("n0", map[string]string{"zone": "a"}), node("n1", map[string]string{"zone": "b"})}, nil)
	p := presenceOf(snap)
	var bound []string
	for i := 0; i < 2000; i++ {
		switch op := rng.Intn(10); {
		case op < 5:
			w := pod().Name(fmt.Sprintf("p%d", i)).Node(fmt.Sprintf("n%d", rng.Intn(3))).Label("app", "x")
			switch rng.Intn(4) {
			case 0:
				w.PodAffinityTerm(true, term("zone", in("app", "x")))
			case 1:
				w.PreferredPodAffinityTerm(false, 5, term("zone", in("app", "x")))
			}
			snap.AddPod(w.Info())
			bound = append(bound, "default/"+fmt.Sprintf("p%d", i))
		case op < 8 && len(bound) > 0:
			snap.RemovePod(bound[rng.Intn(len(bound))])
		case op == 8:
			snap.AddNode(node("n2", map[string]string{"zone": "c"}))
		default:
			snap.RemoveNode("n2")
		}
		var want presence
		for _, ni := range snap.Nodes() {
			for _, pi := range ni.Pods {
				if framework.HasAffinity(pi) {
					want.withAffinity++
				}
				if len(pi.RequiredAntiAffinityTerms) > 0 {
					want.withRequiredAnti++
				}
			}
		}
		if *p != want {
			t.Fatalf("step %d: index %+v, rescan %+v", i, *p, want)
		}
	}
}

// TestSkipWithoutAffinityAnywhere: with no affinity in the cluster and
// none on the incoming pod both PreFilter and PreScore skip; a single pod
// with terms (existing or incoming) turns the work back on.
func TestSkipWithoutAffinityAnywhere(t *testing.T) {
	plain := pod().Name("in").Label("app", "x").Info()
	withReq := pod().Name("in").Label("app", "x").PodAffinityTerm(false, term("zone", in("app", "x"))).Info()
	withPref := pod().Name("in").Label("app", "x").PreferredPodAffinityTerm(false, 3, term("zone", in("app", "x"))).Info()
	nodes := []*api.Node{node("n0", map[string]string{"zone": "a"}), node("n1", map[string]string{"zone": "b"})}
	snap := snapshot(nodes, []*api.Pod{pod().Name("e").Node("n0").Label("app", "x").Obj()})
	pl := New()
	if _, st := pl.PreFilter(framework.NewCycleState(), plain, snap); !st.IsSkip() {
		t.Fatalf("PreFilter %+v, want Skip", st)
	}
	if st := pl.PreScore(framework.NewCycleState(), plain, snap, snap.Nodes()); !st.IsSkip() {
		t.Fatalf("PreScore %+v, want Skip", st)
	}
	if _, st := pl.PreFilter(framework.NewCycleState(), withReq, snap); st != nil {
		t.Fatalf("PreFilter with terms %+v", st)
	}
	if st := pl.PreScore(framework.NewCycleState(), withPref, snap, snap.Nodes()); st != nil {
		t.Fatalf("PreScore with terms %+v", st)
	}
	// An existing pod with required anti-affinity matching the incoming pod.
	snap.AddPod(pod().Name("anti").Node("n1").PodAffinityTerm(true, term("zone", in("app", "x"))).Info())
	if _, st := pl.PreFilter(framework.NewCycleState(), plain, snap); st != nil {
		t.Fatalf("PreFilter with an existing anti-affinity pod %+v", st)
	}
	// An existing pod whose preferred affinity the incoming pod matches.
	snap.AddPod(pod().Name("pref").Node("n1").PreferredPodAffinityTerm(false, 4, term("zone", in("app", "x"))).Info())
	if st := pl.PreScore(framework.NewCycleState(), plain, snap, snap.Nodes()); st != nil {
		t.Fatalf("PreScore with an existing preferred-affinity pod %+v", st)
	}
}
