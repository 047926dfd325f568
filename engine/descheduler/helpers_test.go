package descheduler

import (
	"sort"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// Builders mirroring upstream's test.BuildTestNode / BuildTestPod
// (descheduler test/test_utils.go:60, :204).

func buildNode(name string, milliCPU, mem, pods int64, edit ...func(*api.Node)) *api.Node {
	rl := api.ResourceList{api.ResourceCPU: api.Milli(milliCPU), api.ResourceMemory: api.Units(mem), api.ResourcePods: api.Units(pods)}
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{}},
		Status: api.NodeStatus{Capacity: rl, Allocatable: rl.Clone(), Conditions: []api.Condition{{Type: "Ready", Status: "True"}}}}
	for _, e := range edit {
		e(n)
	}
	return n
}

func buildPod(name string, milliCPU, mem int64, node string, edit ...func(*api.Pod)) *api.Pod {
	req := api.ResourceList{}
	if milliCPU >= 0 {
		req[api.ResourceCPU] = api.Milli(milliCPU)
	}
	if mem >= 0 {
		req[api.ResourceMemory] = api.Units(mem)
	}
	start := api.Time(0)
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
		Spec:   api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: req}}}},
		Status: api.PodStatus{Phase: api.PodRunning, StartTime: &start}}
	for _, e := range edit {
		e(p)
	}
	return p
}

// rsOwner is test.GetReplicaSetOwnerRefList.
func rsOwner(p *api.Pod) {
	p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", APIVersion: "v1", Name: "replicaset-1", UID: "rs-uid-1", Controller: true}}
}

func labels(kv ...string) func(*api.Pod) {
	return func(p *api.Pod) {
		p.Labels = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			p.Labels[kv[i]] = kv[i+1]
		}
	}
}

func nodeLabels(kv ...string) func(*api.Node) {
	return func(n *api.Node) {
		for i := 0; i+1 < len(kv); i += 2 {
			n.Labels[kv[i]] = kv[i+1]
		}
	}
}

func ptr[T any](v T) *T { return &v }

// runPlugin runs one plugin of a one-profile policy over nodes and pods
// with every eviction accepted, returning the evicted pods' names.
func runPlugin(t *testing.T, pol *Policy, nodes []*api.Node, pods []*api.Pod) ([]string, *Result) {
	t.Helper()
	res := Run(pol, &State{Now: api.Time(3600e9), Nodes: nodes, Pods: pods}, false, func(*api.Pod, *Eviction) string { return "" })
	var names []string
	for _, e := range res.Evictions {
		if e.Evicted {
			names = append(names, e.Pod[strings.IndexByte(e.Pod, '/')+1:])
		}
	}
	sort.Strings(names)
	for _, err := range res.Errors {
		t.Fatalf("pass error: %s", err)
	}
	return names, res
}
