package descheduler

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestViewRequestedMatchesRequestsOf pins newView's per-node sums (a fast
// path for single-container cpu/memory pods, the full PodRequests path
// otherwise) to the sum of requestsOf over the node's non-terminal pods,
// and fitsRequest's in-place comparison to the request-list one.
func TestViewRequestedMatchesRequestsOf(t *testing.T) {
	gpu := func(p *api.Pod) { p.Spec.Containers[0].Resources.Requests["example.com/gpu"] = api.Units(1) }
	second := func(p *api.Pod) {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "d", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{api.ResourceCPU: api.Milli(50)}}})
	}
	initC := func(p *api.Pod) {
		p.Spec.InitContainers = []api.Container{{Name: "i", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{api.ResourceCPU: api.Milli(900), api.ResourceMemory: api.Units(1)}}}}
	}
	done := func(p *api.Pod) { p.Status.Phase = api.PodSucceeded }
	nodes := []*api.Node{buildNode("n1", 1000, 1<<30, 10), buildNode("n2", 1000, 1<<30, 10), buildNode("n3", 1000, 1<<30, 10)}
	pods := []*api.Pod{
		buildPod("a", 100, 1<<20, "n1"),
		buildPod("b", 100, -1, "n1"),
		buildPod("c", -1, -1, "n1"),
		buildPod("d", 200, 1<<20, "n2", gpu),
		buildPod("e", 200, 1<<20, "n2", second),
		buildPod("f", 100, 1<<20, "n2", initC),
		buildPod("g", 300, 1<<20, "n2", done),
		buildPod("h", -1, 5, "n3", gpu),
	}
	v := newView(&State{Nodes: nodes, Pods: pods}, nil)
	for _, n := range nodes {
		want := resources{}
		for _, p := range pods {
			if p.Spec.NodeName != n.Name || p.IsTerminal() {
				continue
			}
			for k, q := range requestsOf(p) {
				want[k] += q
			}
		}
		if got := v.requested[n.Name]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: requested %v, want %v", n.Name, got, want)
		}
	}
	// fitsRequest: the in-place path (single container) and the list
	// path agree with a direct comparison against requestsOf.
	for _, p := range pods {
		for _, n := range nodes {
			alloc, used := allocatableOf(n), v.requested[n.Name]
			fits := alloc[api.ResourcePods]-used[api.ResourcePods] > 0
			for k, q := range requestsOf(p) {
				if k != api.ResourcePods && q > alloc[k]-used[k] {
					fits = false
				}
			}
			if got := v.fitsRequest(p, n) == ""; got != fits {
				t.Errorf("fitsRequest(%s, %s) fits=%v, want %v", p.Name, n.Name, got, fits)
			}
		}
	}
}
