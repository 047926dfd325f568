package autoscaler

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/clock"
)

func groupsOf(opts []Option) []string {
	var out []string
	for _, o := range opts {
		out = append(out, o.Group)
	}
	return out
}

// Ported from cluster-autoscaler expander/leastnodes/leastnodes_test.go
// TestLeastNodes (commit 58e1cf3a): the same table, Debug names as groups.
func TestLeastNodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []Option
		want []string
	}{
		{"no options", nil, nil},
		{"no valid options", []Option{{Group: "EO0", NodeCount: 0}}, nil},
		{"1 valid option", []Option{{Group: "EO0", NodeCount: 2}}, []string{"EO0"}},
		{"2 valid options, not equal", []Option{{Group: "EO0", NodeCount: 2}, {Group: "EO1", NodeCount: 1}}, []string{"EO1"}},
		{"3 valid options, 2 equal", []Option{{Group: "EO0", NodeCount: 6}, {Group: "EO1", NodeCount: 2}, {Group: "EO2", NodeCount: 2}}, []string{"EO1", "EO2"}},
		{"3 valid options, all equal", []Option{{Group: "EO0", NodeCount: 8}, {Group: "EO1", NodeCount: 8}, {Group: "EO2", NodeCount: 8}}, []string{"EO0", "EO1", "EO2"}},
		{"6 valid options, 1 invalid option, 3 equal", []Option{
			{Group: "EO0", NodeCount: 23}, {Group: "EO1", NodeCount: 0}, {Group: "EO2", NodeCount: 5}, {Group: "EO3", NodeCount: 8},
			{Group: "EO4", NodeCount: 5}, {Group: "EO5", NodeCount: 5}, {Group: "EO6", NodeCount: 22}}, []string{"EO2", "EO4", "EO5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := groupsOf(leastNodes(tc.in)); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("leastNodes = %v, want %v", got, tc.want)
			}
		})
	}
}

// Ported from expander/mostpods/mostpods_test.go TestMostPods (commit
// 58e1cf3a).
func TestMostPods(t *testing.T) {
	eo0 := Option{Group: "EO0"}
	if got := groupsOf(mostPods([]Option{eo0})); !reflect.DeepEqual(got, []string{"EO0"}) {
		t.Fatalf("one option: %v", got)
	}
	eo1 := Option{Group: "EO1", Pods: []*api.Pod{nil}}
	if got := groupsOf(mostPods([]Option{eo0, eo1})); !reflect.DeepEqual(got, []string{"EO1"}) {
		t.Fatalf("eo0, eo1: %v", got)
	}
	eo1b := Option{Group: "EO1b", Pods: []*api.Pod{nil}}
	if got := groupsOf(mostPods([]Option{eo0, eo1, eo1b})); !reflect.DeepEqual(got, []string{"EO1", "EO1b"}) {
		t.Fatalf("eo0, eo1, eo1b: %v", got)
	}
}

// Ported from expander/waste/waste_test.go TestLeastWaste: 500m/1000Mi
// pods, a balanced node (16×), a high-memory one (2× memory) and a
// low-CPU one (half the CPU); the low-CPU node wastes least.
func TestLeastWaste(t *testing.T) {
	cpuPerPod, memPerPod := int64(500), int64(1000*1024*1024)
	node := func(cpu, mem int64) *api.Node {
		n := &api.Node{}
		n.Status.Capacity = api.ResourceList{api.ResourceCPU: api.Milli(cpu), api.ResourceMemory: api.Units(mem), api.ResourcePods: api.Units(100)}
		n.Status.Allocatable = n.Status.Capacity
		return n
	}
	templates := map[string]*api.Node{"balanced": node(16*cpuPerPod, 16*memPerPod)}
	balanced := Option{Group: "balanced", NodeCount: 1}
	if got := groupsOf(leastWaste([]Option{balanced}, templates)); !reflect.DeepEqual(got, []string{"balanced"}) {
		t.Fatalf("no pods, one node: %v", got)
	}
	p := &api.Pod{}
	p.Spec.Containers = []api.Container{{Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.Milli(cpuPerPod), api.ResourceMemory: api.Units(memPerPod)}}}}
	balanced.Pods = []*api.Pod{p}
	templates["highmem"] = node(16*cpuPerPod, 32*memPerPod)
	highmem := Option{Group: "highmem", NodeCount: 1, Pods: []*api.Pod{p}}
	if got := groupsOf(leastWaste([]Option{balanced, highmem}, templates)); !reflect.DeepEqual(got, []string{"balanced"}) {
		t.Fatalf("balanced vs highmem: %v", got)
	}
	templates["lowcpu"] = node(8*cpuPerPod, 16*memPerPod)
	lowcpu := Option{Group: "lowcpu", NodeCount: 1, Pods: []*api.Pod{p}}
	if got := groupsOf(leastWaste([]Option{balanced, highmem, lowcpu}, templates)); !reflect.DeepEqual(got, []string{"lowcpu"}) {
		t.Fatalf("three nodes: %v", got)
	}
}

// After expander/priority/priority_test.go: the highest priority whose
// regexp matches wins; several matches at that priority are all kept;
// when nothing matches, every option is kept (random decides).
func TestPriority(t *testing.T) {
	opts := []Option{{Group: "highmem-a"}, {Group: "lowcpu-b"}, {Group: "spot-c"}, {Group: "spot-d"}}
	for _, tc := range []struct {
		name string
		prio map[int][]string
		want []string
	}{
		{"highest priority wins", map[int][]string{1: {"highmem.*"}, 10: {"lowcpu.*"}}, []string{"lowcpu-b"}},
		{"several groups at the top priority", map[int][]string{50: {"spot-.*"}, 10: {".*"}}, []string{"spot-c", "spot-d"}},
		{"a group matched at two priorities counts at its highest", map[int][]string{5: {"highmem-a"}, 100: {"high.*"}, 20: {"lowcpu.*"}}, []string{"highmem-a"}},
		{"nothing matches: all kept", map[int][]string{1: {"none"}}, []string{"highmem-a", "lowcpu-b", "spot-c", "spot-d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := groupsOf(byPriority(opts, tc.prio)); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("byPriority = %v, want %v", got, tc.want)
			}
		})
	}
}

// The chain (expander/factory/chain.go): a single survivor wins without
// drawing; otherwise random picks, reproducibly from the seed.
func TestExpanderChainIsDeterministic(t *testing.T) {
	opts := []Option{{Group: "a", NodeCount: 2}, {Group: "b", NodeCount: 1}, {Group: "c", NodeCount: 1}}
	ch := chooseOption([]string{ExpanderLeastNodes, ExpanderRandom}, nil, opts, nil, clock.NewRand(1))
	first := ch.Chosen.Group
	if first != "b" && first != "c" {
		t.Fatalf("least-nodes then random chose %s", first)
	}
	for i := 0; i < 5; i++ {
		if again := chooseOption([]string{ExpanderLeastNodes, ExpanderRandom}, nil, opts, nil, clock.NewRand(1)); again.Chosen.Group != first {
			t.Fatalf("same seed chose %s then %s", first, again.Chosen.Group)
		}
	}
	single := chooseOption([]string{ExpanderMostPods, ExpanderLeastNodes}, nil, []Option{{Group: "a", NodeCount: 2}, {Group: "b", NodeCount: 1}}, nil, clock.NewRand(1))
	if single.Chosen.Group != "b" {
		t.Fatalf("least-nodes after most-pods chose %s", single.Chosen.Group)
	}
}
