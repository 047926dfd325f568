package framework

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// A dry run edits a clone; the live node's extended-resource sums (a map)
// must stay as they were.
func TestCloneOwnsScalarSums(t *testing.T) {
	gpu := func(name string) *PodInfo {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{"example.com/gpu": api.Units(1)}}}}
		return NewPodInfo(p)
	}
	live := &NodeInfo{}
	a := gpu("a")
	live.AddPodInfo(a)
	c := live.Clone()
	c.RemovePodInfo(a)
	c.AddPodInfo(gpu("b"))
	c.AddPodInfo(gpu("c"))
	if got := live.Requested.Scalar["example.com/gpu"]; got != 1 {
		t.Fatalf("live node's gpu sum = %d after editing a clone, want 1", got)
	}
	if got := c.Requested.Scalar["example.com/gpu"]; got != 2 {
		t.Fatalf("clone's gpu sum = %d, want 2", got)
	}
}
