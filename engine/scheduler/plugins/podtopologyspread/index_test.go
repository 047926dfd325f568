package podtopologyspread

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

func perNodeCounts(idx *matchIndex, snap *framework.Snapshot) map[string]int32 {
	out := map[string]int32{}
	for _, ni := range snap.Nodes() {
		if c := idx.perNode[ni.Index]; c > 0 {
			out[ni.Node.Name] = c
		}
	}
	return out
}

func TestIndexFollowsPodLifecycle(t *testing.T) {
	snap := newSnapshot(t, nodes("a zone=z1", "b zone=z2"), pods("p1 @a app=web", "p2 @b app=web", "x @b app=db", "o @a app=web ns:other"))
	sel := api.MustCompileSelector(matchLabels("app", "web"))
	idx := index(snap, "default", sel)
	check := func(step string, want map[string]int32) {
		t.Helper()
		got := perNodeCounts(index(snap, "default", sel), snap)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: counts %v, want %v", step, got, want)
		}
	}
	check("built over existing pods (own namespace only)", map[string]int32{"a": 1, "b": 1})
	zone := snap.Topology("zone")
	if got := idx.domainSums(zone, nil); fmt.Sprint(got) != "[1 1]" {
		t.Errorf("domain sums %v", got)
	}

	snap.AddPod(podInfo(pods("p3 @a app=web")[0]))
	check("a matching pod binds", map[string]int32{"a": 2, "b": 1})
	if got := idx.domainSums(zone, nil); fmt.Sprint(got) != "[2 1]" {
		t.Errorf("cached domain sums not updated: %v", got)
	}

	// graceful deletion starts: the engine delivers the updated pod.
	terminating := *pods("p3 @a app=web")[0]
	now := api.Time(5)
	terminating.DeletionTimestamp = &now
	snap.UpdatePod(podInfo(&terminating))
	check("a terminating pod stops counting", map[string]int32{"a": 1, "b": 1})

	snap.RemovePod("default/p3")
	check("removing the terminating pod changes nothing more", map[string]int32{"a": 1, "b": 1})

	relabelled := *pods("p2 @b app=db")[0]
	snap.UpdatePod(podInfo(&relabelled))
	check("a relabelled pod stops matching", map[string]int32{"a": 1})

	before := index(snap, "default", sel).perNode
	snap.UpdateNode(nodes("b zone=z1 taint:gpu:NoSchedule")[0])
	if after := index(snap, "default", sel).perNode; &after[0] != &before[0] {
		t.Errorf("relabelling a node rebuilt the counts")
	}
	if got := index(snap, "default", sel).domainSums(snap.Topology("zone"), nil); fmt.Sprint(got) != "[1]" {
		t.Errorf("domain sums after b moved to z1: %v", got)
	}
	check("after a node is relabelled (counts kept)", map[string]int32{"a": 1})

	snap.AddNode(nodes("c zone=z1")[0])
	snap.AddPod(podInfo(pods("p4 @c app=web")[0]))
	check("after a node is added (rebuild on next use)", map[string]int32{"a": 1, "c": 1})

	snap.RemoveNode("a")
	check("a removed node's pods are gone", map[string]int32{"c": 1})
}

func TestIndexGoesDormantWhenUnused(t *testing.T) {
	defer func(n int) { dormantAfter = n }(dormantAfter)
	dormantAfter = 1000
	snap := newSnapshot(t, nodes("a"), pods("p0 @a app=web"))
	sel := api.MustCompileSelector(matchLabels("app", "web"))
	idx := index(snap, "default", sel)
	for i := range dormantAfter + 1 {
		p := pods(fmt.Sprintf("q%d @a app=web", i%3))[0]
		snap.AddPod(podInfo(p))
	}
	if !idx.stale || idx.perNode != nil {
		t.Fatalf("index still maintained after %d unused events", dormantAfter+1)
	}
	// next use rebuilds: p0 + q0, q1, q2
	if got := index(snap, "default", sel).perNode[0]; got != 4 {
		t.Errorf("rebuilt count %d, want 4", got)
	}
}
