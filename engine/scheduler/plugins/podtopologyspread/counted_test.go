package podtopologyspread

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// A cloned snapshot's index shares the counted pods with its original
// until either side writes; each side's later changes stay its own, and a
// pod counted before the clone is still uncounted on both sides.
func TestCountedSharedWithACloneCopyOnWrite(t *testing.T) {
	snap := newSnapshot(t, nodes("a zone=z1", "b zone=z2"), pods("p1 @a app=web", "p2 @b app=web"))
	sel := api.MustCompileSelector(matchLabels("app", "web"))
	orig := index(snap, "default", sel)
	clone := snap.Clone()
	cidx := index(clone, "default", sel)
	if cidx.counted.chunks[0] != orig.counted.chunks[0] {
		t.Fatal("the clone copied the counted pods instead of sharing them")
	}

	snap.RemovePod("default/p2") // the original writes first
	clone.RemovePod("default/p1")
	clone.AddPod(podInfo(pods("p3 @b app=web")[0]))
	if cidx.counted.chunks[0] == orig.counted.chunks[0] {
		t.Error("a write to a shared chunk did not copy it")
	}

	for _, c := range []struct {
		name string
		got  map[string]int32
		want string
	}{
		{"original", perNodeCounts(index(snap, "default", sel), snap), "map[a:1]"},
		{"clone", perNodeCounts(index(clone, "default", sel), clone), "map[b:2]"},
	} {
		if fmt.Sprint(c.got) != c.want {
			t.Errorf("%s: counts %v, want %s", c.name, c.got, c.want)
		}
	}

	// p1, counted before the clone, is still known to the original
	snap.RemovePod("default/p1")
	if got := perNodeCounts(index(snap, "default", sel), snap); len(got) != 0 {
		t.Errorf("original after removing p1: %v, want none", got)
	}
	if got := perNodeCounts(index(clone, "default", sel), clone); fmt.Sprint(got) != "map[b:2]" {
		t.Errorf("the original's removal changed the clone: %v", got)
	}
	// p2, which the original uncounted after the clone, is still counted
	// in the clone
	clone.RemovePod("default/p2")
	if got := perNodeCounts(index(clone, "default", sel), clone); fmt.Sprint(got) != "map[b:1]" {
		t.Errorf("clone after removing p2: %v, want map[b:1]", got)
	}
}
