package nodeunschedulable

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

// Cases follow upstream node_unschedulable_test.go TestNodeUnschedulable.
func TestFilter(t *testing.T) {
	cases := []struct {
		name string
		pod  *tu.PodWrapper
		node *tu.NodeWrapper
		want *framework.Status
	}{
		{"does not schedule to an unschedulable node", tu.MakePod().Name("p"), tu.MakeNode().Name("n").Unschedulable(true),
			framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable)},
		{"schedules to a normal node", tu.MakePod().Name("p"), tu.MakeNode().Name("n"), nil},
		{"toleration of the unschedulable taint lets the pod in", tu.MakePod().Name("p").Tolerations(api.Toleration{
			Key: api.TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule,
		}), tu.MakeNode().Name("n").Unschedulable(true), nil},
		{"toleration of everything lets the pod in", tu.MakePod().Name("p").Tolerations(api.Toleration{Operator: api.TolerationOpExists}),
			tu.MakeNode().Name("n").Unschedulable(true), nil},
		{"a NoExecute toleration does not cover NoSchedule", tu.MakePod().Name("p").Tolerations(api.Toleration{
			Key: api.TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute,
		}), tu.MakeNode().Name("n").Unschedulable(true),
			framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := New().Filter(framework.NewCycleState(), c.pod.Info(), tu.NodeInfo(c.node.Obj()))
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			// With PreFilter the node traits index answers for plain nodes.
			res := tu.RunFilter(New(), c.pod.Info(), tu.NewSnapshot([]*api.Node{c.node.Obj()}, nil))
			if res.PreFilter != nil || !reflect.DeepEqual(res.Nodes[0], c.want) {
				t.Fatalf("with PreFilter: got %+v %+v, want %+v", res.PreFilter, res.Nodes[0], c.want)
			}
		})
	}
}
