package autoscaler

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

func q(s string) api.Quantity {
	v, err := api.ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return v
}

// template builds a node with cpu/memory, a zone and extra labels.
func template(cpu, mem, zone string, labels ...string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Labels: map[string]string{}}}
	if zone != "" {
		n.Labels[api.LabelTopologyZone] = zone
	}
	for i := 0; i+1 < len(labels); i += 2 {
		n.Labels[labels[i]] = labels[i+1]
	}
	n.Status.Capacity = api.ResourceList{api.ResourceCPU: q(cpu), api.ResourceMemory: q(mem), api.ResourcePods: q("110")}
	n.Status.Allocatable = n.Status.Capacity.Clone()
	return n
}

func group(name string, min, max int, t *api.Node) NodeGroup {
	return NodeGroup{Name: name, Min: min, Max: max, Template: t}
}

// pod builds a pod with a request; owner "" makes a bare pod.
func pod(name, cpu, mem, owner string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}}}
	p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q(cpu), api.ResourceMemory: q(mem)}}}}
	if owner != "" {
		p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: owner, UID: "uid-" + owner, Controller: true}}
	}
	return p
}

// cluster is an engine with the default scheduler and an autoscaler whose
// groups start at their min size.
func cluster(t *testing.T, groups []NodeGroup, opts Options) (*engine.Engine, *Autoscaler) {
	t.Helper()
	e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.ByNameScheduler})
	a, err := New(groups, opts, scheduler.Config{TieBreak: scheduler.TieBreakByName}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range a.InitialNodes(func(string) int { return 0 }) {
		if err := e.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	e.AddController(a)
	return e, a
}

func create(t *testing.T, e *engine.Engine, pods ...*api.Pod) {
	t.Helper()
	for _, p := range pods {
		if err := e.CreatePod(p); err != nil {
			t.Fatal(err)
		}
	}
}

func run(t *testing.T, e *engine.Engine, d time.Duration) {
	t.Helper()
	if err := e.Step(d); err != nil {
		t.Fatal(err)
	}
}

// events returns "reason object: message" lines of the given reasons.
func events(e *engine.Engine, reasons ...string) []string {
	var out []string
	for _, ev := range e.Events() {
		for _, r := range reasons {
			if ev.Reason == r {
				out = append(out, ev.Reason+" "+ev.Object+": "+ev.Message)
			}
		}
	}
	return out
}

func nodeNames(e *engine.Engine) string {
	var names []string
	for _, n := range e.Nodes() {
		names = append(names, n.Name)
	}
	return strings.Join(names, " ")
}
