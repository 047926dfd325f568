package framework

import (
	"fmt"
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// The pod → (node, PodInfo) slots must follow every way a pod's PodInfo
// changes — add, re-add, replace and clone — so RemovePod
// always takes out the pod's current PodInfo and the node's sums drop
// by exactly its requests.
func TestRemovePodFollowsReplacedAndClonedInfos(t *testing.T) {
	pod := func(name, node string, milli int64) *PodInfo {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
		p.Spec.NodeName = node
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{api.ResourceCPU: api.Milli(milli)}}}}
		return NewPodInfo(p)
	}
	names := func(ni *NodeInfo) []string {
		var out []string
		for _, pi := range ni.Pods {
			out = append(out, fmt.Sprintf("%s:%d", pi.Pod.Name, pi.Requests.MilliCPU))
		}
		return out
	}
	s := NewSnapshot()
	s.AddNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}})
	s.AddNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n2"}})
	for i := 0; i < 4; i++ {
		s.AddPod(pod(fmt.Sprintf("p%d", i), "n1", 100))
	}
	s.AddPod(pod("p1", "n2", 200)) // re-added elsewhere: moves
	old := s.NodeOfPod("default/p2").Pods[1]
	if !s.ReplacePodInfo(old, pod("p2", "n1", 100)) {
		t.Fatal("replace did not find p2")
	}
	c := s.Clone()
	c.RemovePod("default/p2")
	c.RemovePod("default/p1")
	s.RemovePod("default/p0")
	s.RemovePod("default/p2")
	s.RemovePod("default/missing")
	checks := []struct {
		snap      *Snapshot
		node      string
		want      []string
		wantMilli int64
	}{
		{s, "n1", []string{"p3:100"}, 100},
		{s, "n2", []string{"p1:200"}, 200},
		{c, "n1", []string{"p0:100", "p3:100"}, 200},
		{c, "n2", nil, 0},
	}
	for i, ck := range checks {
		ni := ck.snap.Get(ck.node)
		if got := names(ni); !slices.Equal(got, ck.want) || ni.Requested.MilliCPU != ck.wantMilli {
			t.Errorf("check %d (%s): pods %v cpu %d, want %v cpu %d", i, ck.node, got, ni.Requested.MilliCPU, ck.want, ck.wantMilli)
		}
	}
	if s.NodeOfPod("default/p2") != nil || c.NodeOfPod("default/p0") == nil {
		t.Error("the pod → node index disagrees with the nodes' lists")
	}
}
