package scheduler

import (
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// The node-name cache is kept while the snapshot's node slice is the
// same and rebuilt when nodes are added, removed or swapped for others of
// the same count; a node's update (labels) keeps it.
func TestRefreshNamesFollowsTheSnapshot(t *testing.T) {
	mk := func(name string) *api.Node { return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}} }
	snap := framework.NewSnapshot()
	for _, n := range []string{"b", "a", "c"} {
		snap.AddNode(mk(n))
	}
	var b cycleBuffers
	check := func(step string, wantRebuilt bool, want ...string) {
		t.Helper()
		b.namesChanged = false
		b.refreshNames(snap.Nodes())
		if b.namesChanged != wantRebuilt || !slices.Equal(b.cachedNames, want) {
			t.Fatalf("%s: rebuilt %v names %v, want rebuilt %v names %v", step, b.namesChanged, b.cachedNames, wantRebuilt, want)
		}
	}
	check("first", true, "a", "b", "c")
	check("same slice", false, "a", "b", "c")
	snap.UpdateNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: "b", Labels: map[string]string{"k": "v"}}})
	check("a node updated", false, "a", "b", "c")
	snap.AddNode(mk("d"))
	check("a node added", true, "a", "b", "c", "d")
	snap.RemoveNode("a")
	snap.AddNode(mk("e"))
	check("one removed, one added", true, "b", "c", "d", "e")
	snap.RemoveNode("e")
	check("a node removed", true, "b", "c", "d")
	snap.RemoveNode("d")
	snap.AddNode(mk("d"))
	check("removed and added again (a new NodeInfo)", true, "b", "c", "d")
}
