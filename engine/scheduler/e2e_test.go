package scheduler

import (
	"reflect"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// End-to-end cycles with the real default profile on the classic cases of
// ../shared/oracle/testdata, built in Go. Expected values are what
// `/tmp/oracle explain` / `schedule` (kube-scheduler v1.36.3) print for
// those files.

func classicNode(name, zone string, cpu string, mem string, pods int64) *api.Node {
	q := func(s string) api.Quantity {
		v, err := api.ParseQuantity(s)
		if err != nil {
			panic(err)
		}
		return v
	}
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}}}
	if zone != "" {
		n.Labels["zone"] = zone
		n.Labels[api.LabelTopologyZone] = zone
	}
	n.Status.Allocatable = api.ResourceList{api.ResourceCPU: q(cpu), api.ResourceMemory: q(mem), api.ResourcePods: api.Units(pods)}
	n.Status.Capacity = n.Status.Allocatable
	return n
}

func classicPod(name, node string, milliCPU, memMi int64, labels map[string]string, prio int32, start int) *api.Pod {
	p := benchPod(name, milliCPU, memMi*mi, labels)
	p.UID = "uid-" + name
	p.Spec.NodeName = node
	p.Spec.Priority = &prio
	if node != "" {
		p.Status.Phase = api.PodRunning
		t := api.Time(time.Duration(start) * time.Second)
		p.Status.StartTime = &t
	}
	return p
}

func spreadScenario(hostnameToo bool) (*framework.Snapshot, *framework.PodInfo) {
	snap := framework.NewSnapshot()
	for _, n := range []struct{ name, zone string }{{"node1", "zoneA"}, {"node2", "zoneA"}, {"node3", "zoneB"}, {"node4", "zoneB"}} {
		snap.AddNode(classicNode(n.name, n.zone, "4", "8Gi", 110))
	}
	foo := map[string]string{"foo": "bar"}
	for i, node := range []string{"node1", "node2", "node3"} {
		snap.AddPod(framework.NewPodInfo(classicPod("p"+node[4:], node, 100, 128, foo, 0, i)))
	}
	in := classicPod("incoming", "", 100, 128, foo, 0, 0)
	sel := &api.LabelSelector{MatchLabels: foo}
	in.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel}}
	if hostnameToo {
		in.Spec.TopologySpreadConstraints = append(in.Spec.TopologySpreadConstraints,
			api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel})
	}
	return snap, framework.NewPodInfo(in)
}

const errSpread = "node(s) didn't match pod topology spread constraints"

// spread-zone.yaml
func TestClassicSpreadZone(t *testing.T) {
	snap, pi := spreadScenario(false)
	s := New(Config{TieBreak: TieBreakByName}, snap)
	e := s.Explain(pi)
	if !reflect.DeepEqual(e.Feasible, []string{"node3", "node4"}) || e.Chosen != "node4" {
		t.Fatalf("feasible %v chosen %q", e.Feasible, e.Chosen)
	}
	want := map[string]struct {
		reasons       []string
		total         int64
		fit, balanced int64
	}{
		"node1": {reasons: []string{errSpread}},
		"node2": {reasons: []string{errSpread}},
		"node3": {total: 470, fit: 95, balanced: 75},
		"node4": {total: 471, fit: 97, balanced: 74},
	}
	for _, v := range e.Nodes {
		w := want[v.Node]
		if !reflect.DeepEqual(v.Reasons, w.reasons) || v.Total != w.total {
			t.Errorf("%s: reasons %v total %d, want %v %d", v.Node, v.Reasons, v.Total, w.reasons, w.total)
		}
		if v.Feasible && (v.Scores["NodeResourcesFit"] != w.fit || v.Scores["NodeResourcesBalancedAllocation"] != w.balanced ||
			v.Scores["TaintToleration"] != 100 || v.Scores["PodTopologySpread"] != 0 || len(v.Scores) != 9) {
			t.Errorf("%s scores %v", v.Node, v.Scores)
		}
		if v.Node == "node1" && (v.Plugin != "PodTopologySpread" || v.Code != framework.Unschedulable) {
			t.Errorf("node1 rejected by %s/%v", v.Plugin, v.Code)
		}
	}
	if res := s.ScheduleOne(pi); res.Node != "node4" {
		t.Errorf("scheduled to %q", res.Node)
	}
	wantWeights := map[string]int64{"TaintToleration": 3, "NodeAffinity": 2, "NodeResourcesFit": 1, "VolumeBinding": 1,
		"PodTopologySpread": 2, "InterPodAffinity": 2, "DynamicResources": 2, "NodeResourcesBalancedAllocation": 1, "ImageLocality": 1}
	if !reflect.DeepEqual(s.Weights(), wantWeights) {
		t.Errorf("weights %v", s.Weights())
	}
}

// spread-zone-hostname.yaml: only node4 is feasible; it is chosen without
// scoring, and explain still scores it (471).
func TestClassicSpreadZoneHostname(t *testing.T) {
	snap, pi := spreadScenario(true)
	s := New(Config{}, snap)
	e := s.Explain(pi)
	if !reflect.DeepEqual(e.Feasible, []string{"node4"}) || e.Chosen != "node4" || e.Nodes[3].Total != 471 {
		t.Fatalf("feasible %v chosen %q node4 %+v", e.Feasible, e.Chosen, e.Nodes[3])
	}
	for _, v := range e.Nodes[:3] {
		if !reflect.DeepEqual(v.Reasons, []string{errSpread}) {
			t.Errorf("%s reasons %v", v.Node, v.Reasons)
		}
	}
	if res := s.ScheduleOne(pi); res.Node != "node4" {
		t.Errorf("scheduled to %q", res.Node)
	}
}

// preempt.yaml: urgent fits nowhere; preemption picks node-a and evicts
// low-a2 (low-a1 is older and is reprieved first).
func TestClassicPreemption(t *testing.T) {
	snap := framework.NewSnapshot()
	snap.AddNode(classicNode("node-a", "", "1", "4Gi", 10))
	snap.AddNode(classicNode("node-b", "", "1", "4Gi", 10))
	snap.AddPod(framework.NewPodInfo(classicPod("low-a1", "node-a", 400, 256, map[string]string{"app": "a"}, 100, 1)))
	snap.AddPod(framework.NewPodInfo(classicPod("low-a2", "node-a", 400, 256, map[string]string{"app": "a"}, 100, 2)))
	snap.AddPod(framework.NewPodInfo(classicPod("mid-b1", "node-b", 800, 256, map[string]string{"app": "b"}, 1000, 3)))
	urgent := framework.NewPodInfo(classicPod("urgent", "", 600, 256, nil, 10000, 0))

	s := New(Config{TieBreak: TieBreakByName}, snap)
	res := s.ScheduleOne(urgent)
	if res.Node != "" || res.Message != "0/2 nodes are available: 2 Insufficient cpu." ||
		!reflect.DeepEqual(res.Reasons, map[string]int{"Insufficient cpu": 2}) {
		t.Fatalf("result %+v", res)
	}
	if res.NominatedNode != "node-a" || len(res.Victims) != 1 || res.Victims[0].Pod.Name != "low-a2" {
		t.Fatalf("preemption: %q %v", res.NominatedNode, res.Victims)
	}
	// As the engine does: remove the victims, record the nomination, retry.
	snap.RemovePod(res.Victims[0].Pod.Key())
	urgent.Pod.Status.NominatedNodeName = res.NominatedNode
	s.Nominator().AddNominatedPod(urgent, res.NominatedNode)
	if again := s.ScheduleOne(urgent); again.Node != "node-a" {
		t.Errorf("retry: %+v", again)
	}
	// A lower-priority pod that would fit node-a's freed room must leave
	// it to the nominated preemptor.
	small := framework.NewPodInfo(classicPod("small", "", 500, 128, nil, 0, 0))
	if r := s.ScheduleOne(small); r.Node != "" || r.Reasons["Insufficient cpu"] != 2 {
		t.Errorf("small pod: %+v", r)
	}
	// Without preemption the message has no PostFilter part.
	noPreempt := New(Config{DisablePreemption: true}, snap)
	if r := noPreempt.ScheduleOne(framework.NewPodInfo(classicPod("huge", "", 3000, 128, nil, 10000, 0))); r.NominatedNode != "" ||
		r.Message != "0/2 nodes are available: 2 Insufficient cpu." {
		t.Errorf("no preemption: %+v", r)
	}
}
