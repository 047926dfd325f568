package autoscaler

import (
	"sort"
	"strings"
	"testing"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

// eligible reports the nodes that passed the eligibility checks
// (FilterOutUnremovable) in the last loop: unneeded ones and those the
// removal simulation then kept.
func eligible(st Status) []string {
	out := []string{}
	for _, n := range st.ScaleDown.Nodes {
		r := n.Reason
		switch {
		case n.Unneeded, strings.HasPrefix(r, "NoPlaceToMovePods"), strings.HasPrefix(r, string(NotReplicated)):
			out = append(out, n.Node)
		}
	}
	sort.Strings(out)
	return out
}

// Ported from cluster-autoscaler core/scaledown/eligibility/
// eligibility_test.go getTestCases/TestFilterOutUnremovable (commit
// 0fc5c402): nodes of 1000m CPU, a 600m pod makes a node highly
// utilised, a 100m pod leaves it under the 0.5 threshold, a 500m
// DaemonSet pod counts unless --ignore-daemonsets-utilization; an unready
// node stays a candidate unless scale-down of unready nodes is disabled.
func TestFilterOutUnremovable(t *testing.T) {
	mk := func(name string, mut func(*api.Node)) *api.Node {
		n := nodeFromTemplate(template("1", "10Gi", ""), name)
		n.Labels[NodeGroupLabel] = "ng1"
		if mut != nil {
			mut(n)
		}
		return n
	}
	regular := mk("regular", nil)
	justDeleted := mk("justDeleted", func(n *api.Node) {
		n.Spec.Taints = []api.Taint{{Key: ToBeDeletedTaint, Value: "0", Effect: api.TaintEffectNoSchedule}}
	})
	noScaleDown := mk("noScaleDown", func(n *api.Node) {
		n.Annotations = map[string]string{ScaleDownDisabledAnnotation: "true"}
	})
	unready := mk("unready", func(n *api.Node) {
		n.Status.Conditions = []api.Condition{{Type: api.NodeReady, Status: api.ConditionFalse}}
	})
	bound := func(name, cpu, owner, kind string) *api.Pod {
		p := pod(name, cpu, "0", owner)
		if kind != "" {
			p.OwnerReferences[0].Kind = kind
		}
		p.Spec.NodeName = "regular"
		return p
	}
	for _, tc := range []struct {
		desc     string
		nodes    []*api.Node
		pods     []*api.Pod
		ignoreDS bool
		want     []string
		// noUnready turns --scale-down-unready-enabled off
		noUnready bool
	}{
		{"regular node stays", []*api.Node{regular}, nil, false, []string{"regular"}, false},
		{"recently deleted node is filtered out", []*api.Node{regular, justDeleted}, nil, false, []string{"regular"}, false},
		{"marked no scale down is filtered out", []*api.Node{noScaleDown, regular}, nil, false, []string{"regular"}, false},
		{"highly utilized node is filtered out", []*api.Node{regular}, []*api.Pod{bound("bigPod", "600m", "rs", "")}, false, []string{}, false},
		{"underutilized node stays", []*api.Node{regular}, []*api.Pod{bound("smallPod", "100m", "rs", "")}, false, []string{"regular"}, false},
		{"unready node stays", []*api.Node{unready}, nil, false, []string{"unready"}, false},
		{"unready node is filtered out when scale-down of unready is disabled", []*api.Node{unready}, nil, false, []string{}, true},
		{"high utilization daemonsets node is filtered out", []*api.Node{regular}, []*api.Pod{bound("smallPod", "100m", "rs", ""), bound("dsPod", "500m", "ds", "DaemonSet")}, false, []string{}, false},
		{"high utilization daemonsets node stays", []*api.Node{regular}, []*api.Pod{bound("smallPod", "100m", "rs", ""), bound("dsPod", "500m", "ds", "DaemonSet")}, true, []string{"regular"}, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.ByNameScheduler})
			for _, n := range tc.nodes {
				if err := e.AddNode(n); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range tc.pods {
				if err := e.CreatePod(p); err != nil {
					t.Fatal(err)
				}
			}
			a, err := New([]NodeGroup{group("ng1", 0, 10, template("1", "10Gi", ""))}, Options{IgnoreDaemonSetsUtilization: tc.ignoreDS, ScaleDownUnreadyDisabled: tc.noUnready}, scheduler.Config{}, "", 1)
			if err != nil {
				t.Fatal(err)
			}
			a.RunOnce(e, e.Now())
			if got := eligible(a.Status()); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("eligible = %v, want %v\n%+v", got, tc.want, a.Status().ScaleDown.Nodes)
			}
		})
	}
}
