package framework

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// countingIndex counts NodesChanged calls and records the node order it
// was shown.
type countingIndex struct {
	rebuilds int
	seen     []string
}

func (*countingIndex) PodAdded(*NodeInfo, *PodInfo)   {}
func (*countingIndex) PodRemoved(*NodeInfo, *PodInfo) {}
func (c *countingIndex) NodesChanged(s *Snapshot) {
	c.rebuilds++
	c.seen = c.seen[:0]
	for _, ni := range s.Nodes() {
		c.seen = append(c.seen, ni.Node.Name)
	}
}

// Node adds, removes and changes are merged on the next read: a burst of
// them (a zone of thousands of nodes) rebuilds the indexes once, not once
// per node (issue 17), and every read sees the nodes sorted by name with
// Index their position, whatever the order of the changes.
func TestNodeChangesRebuildOncePerRead(t *testing.T) {
	s := NewSnapshot()
	idx := &countingIndex{}
	s.Index("count", func(*Snapshot) PodIndex { return idx })
	r := rand.New(rand.NewPCG(17, 1))
	live := map[string]bool{}
	for round := range 50 {
		before := idx.rebuilds
		for range 1 + r.IntN(40) {
			name := fmt.Sprintf("n%03d", r.IntN(200))
			switch {
			case live[name] && r.IntN(3) == 0:
				s.RemoveNode(name)
				delete(live, name)
			case live[name]:
				s.UpdateNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"round": fmt.Sprint(round)}}})
			default:
				s.AddNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: name}})
				live[name] = true
			}
		}
		if idx.rebuilds != before {
			t.Fatalf("round %d: the indexes were rebuilt before a read", round)
		}
		var want []string
		for n := range live {
			want = append(want, n)
		}
		slices.Sort(want)
		nodes := s.Nodes()
		if idx.rebuilds != before+1 {
			t.Fatalf("round %d: %d rebuilds on the read, want 1", round, idx.rebuilds-before)
		}
		if !slices.Equal(idx.seen, want) {
			t.Fatalf("round %d: the index saw %v, want %v", round, idx.seen, want)
		}
		for i, ni := range nodes {
			if ni.Node.Name != want[i] || ni.Index != i || s.Get(ni.Node.Name) != ni {
				t.Fatalf("round %d: node %d is %s (Index %d), want %s", round, i, ni.Node.Name, ni.Index, want[i])
			}
		}
		if s.NumNodes() != len(want) {
			t.Fatalf("round %d: NumNodes %d, want %d", round, s.NumNodes(), len(want))
		}
		if s.Nodes(); idx.rebuilds != before+1 {
			t.Fatalf("round %d: a second read rebuilt again", round)
		}
	}
}
