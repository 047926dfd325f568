package nodename

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

// Cases follow upstream node_name_test.go TestNodeName.
func TestFilter(t *testing.T) {
	cases := []struct {
		name string
		pod  *tu.PodWrapper
		want *framework.Status
	}{
		{"no host specified", tu.MakePod().Name("p"), nil},
		{"host matches", tu.MakePod().Name("p").Node("foo"), nil},
		{"host doesn't match", tu.MakePod().Name("p").Node("bar"),
			framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason)},
	}
	node := tu.NodeInfo(tu.MakeNode().Name("foo").Obj())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := New().Filter(framework.NewCycleState(), c.pod.Info(), node)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
