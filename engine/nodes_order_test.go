package engine

import (
	"slices"
	"testing"
)

func nodeNamesOf(e *Engine) []string {
	var out []string
	for _, n := range e.Nodes() {
		out = append(out, n.Name)
	}
	return out
}

// AddNode appends a name and RemoveNode leaves it for the next read to
// tidy (issue 17: a zone of thousands of nodes shifted the list per
// node). Whatever the order of adds and removes, and in a clone taken
// before the list was read, Nodes lists the nodes that exist, sorted,
// once each — and the scheduler's snapshot lists the same.
func TestNodesSortedAfterAddsAndRemoves(t *testing.T) {
	steps := []struct {
		add, remove string
		want        []string
	}{
		{add: "c", want: []string{"c"}},
		{add: "a", want: []string{"a", "c"}},
		{add: "b", want: []string{"a", "b", "c"}},
		{remove: "a", want: []string{"b", "c"}},
		{add: "a", want: []string{"a", "b", "c"}},
		{remove: "c", want: []string{"a", "b"}},
		{add: "d", want: []string{"a", "b", "d"}},
	}
	e := newTestEngine(t)
	for i, s := range steps {
		if s.add != "" {
			if err := e.AddNode(node(s.add, "4", "8Gi")); err != nil {
				t.Fatal(err)
			}
		} else if err := e.RemoveNode(s.remove); err != nil {
			t.Fatal(err)
		}
		c := e.Clone() // copies the list untidied
		for _, x := range []*Engine{c, e} {
			if got := nodeNamesOf(x); !slices.Equal(got, s.want) {
				t.Fatalf("step %d: nodes %v, want %v", i, got, s.want)
			}
			var snap []string
			for _, ni := range x.snap.Nodes() {
				snap = append(snap, ni.Node.Name)
			}
			if !slices.Equal(snap, s.want) {
				t.Fatalf("step %d: snapshot nodes %v, want %v", i, snap, s.want)
			}
		}
	}
	// several changes between reads
	for _, n := range []string{"z", "e", "y"} {
		if err := e.AddNode(node(n, "4", "8Gi")); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"a", "y", "z"} {
		if err := e.RemoveNode(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.AddNode(node("a", "4", "8Gi")); err != nil {
		t.Fatal(err)
	}
	if got, want := nodeNamesOf(e), []string{"a", "b", "d", "e"}; !slices.Equal(got, want) {
		t.Fatalf("nodes %v, want %v", got, want)
	}
	if e.NumNodes() != 4 || e.Snapshot().Counts.Nodes != 4 {
		t.Fatalf("NumNodes %d, Counts.Nodes %d, want 4", e.NumNodes(), e.Snapshot().Counts.Nodes)
	}
}
