package engine

import (
	"fmt"
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestNodesRequestedMatchesLookups pins NodesRequested to Nodes and
// NodeRequested, node by node, as pods come and go and nodes change.
func TestNodesRequestedMatchesLookups(t *testing.T) {
	e := New(Config{Seed: 1})
	check := func(when string) {
		t.Helper()
		nodes, reqs := e.NodesRequested(nil, nil)
		if want := e.Nodes(); len(nodes) != len(want) || (len(want) > 0 && !reflect.DeepEqual(nodes, want)) {
			t.Fatalf("%s: nodes differ from Nodes()", when)
		}
		for i, n := range nodes {
			r, ok := e.NodeRequested(n.Name)
			if !ok || reqs[i] != (NodeRequests{r.MilliCPU, r.Memory}) {
				t.Fatalf("%s: node %s: %+v, NodeRequested says %+v", when, n.Name, reqs[i], r)
			}
		}
	}
	check("empty")
	for i := 0; i < 5; i++ {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("n%d", 4-i)}}
		n.Status.Allocatable = api.ResourceList{api.ResourceCPU: q("4"), api.ResourceMemory: q("8Gi"), api.ResourcePods: q("110")}
		if err := e.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 12; i++ {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "default"}}
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
			api.ResourceCPU: q(fmt.Sprintf("%dm", 100*(i+1))), api.ResourceMemory: q("256Mi")}}}}
		if err := e.CreatePod(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Step(0); err != nil {
		t.Fatal(err)
	}
	check("pods bound")
	var cpu int64
	for _, r := range func() []NodeRequests { _, r := e.NodesRequested(make([]*api.Node, 9), nil); return r }() {
		cpu += r.MilliCPU
	}
	if cpu != 7800 {
		t.Fatalf("requested cpu %dm in all, want 7800m (the 12 pods bound)", cpu)
	}
	if err := e.DeletePod("default/p3", DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := e.RemoveNode("n2"); err != nil {
		t.Fatal(err)
	}
	if err := e.UpdateNode("n0", func(n *api.Node) { n.Labels = map[string]string{"x": "y"} }); err != nil {
		t.Fatal(err)
	}
	check("after delete, removal and update")
}
