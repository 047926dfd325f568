package nodetraits

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

func TestIndexFollowsNodes(t *testing.T) {
	snap := framework.NewSnapshot()
	mk := func(name string, unsched bool, effects ...string) *api.Node {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}}
		n.Spec.Unschedulable = unsched
		for _, e := range effects {
			n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: "k" + e, Effect: e})
		}
		return n
	}
	snap.AddNode(mk("b", false))
	idx := Of(snap)
	snap.AddNode(mk("a", true, api.TaintEffectNoExecute))
	snap.AddNode(mk("c", false, api.TaintEffectPreferNoSchedule, api.TaintEffectNoSchedule))
	want := map[string]Traits{"a": Unschedulable | HardTaints, "b": 0, "c": PreferTaints | HardTaints}
	for _, ni := range snap.Nodes() {
		got, ok := idx.Get(ni)
		if !ok || got != want[ni.Node.Name] {
			t.Errorf("%s: got %v %v, want %v", ni.Node.Name, got, ok, want[ni.Node.Name])
		}
	}
	snap.UpdateNode(mk("b", true))
	if got, _ := idx.Get(snap.Get("b")); got != Unschedulable {
		t.Errorf("after update: %v", got)
	}
	if _, ok := idx.Get(snap.Get("b").Clone()); ok {
		t.Error("a copy of a NodeInfo must not be served from the index")
	}
	var none *Index
	if _, ok := none.Get(snap.Get("b")); ok {
		t.Error("nil index")
	}
}

func TestAtTreatsThePositionAsAHint(t *testing.T) {
	snap := framework.NewSnapshot()
	for _, name := range []string{"a", "b"} {
		snap.AddNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.NodeSpec{Unschedulable: name == "b"}})
	}
	idx := Of(snap)
	b := snap.Get("b")
	for _, k := range []int32{1, 0, -1, 7} {
		if got, ok := idx.At(k, b); !ok || got != Unschedulable {
			t.Errorf("At(%d, b) = %v %v", k, got, ok)
		}
	}
}
