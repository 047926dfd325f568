package nodeports

import (
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

const benchNodes = 5000

// BenchmarkFilter: one Filter pass over 5,000 nodes for a pod asking for
// a host port (no node has one in use).
func BenchmarkFilter(b *testing.B) {
	snap := tu.BenchSnapshot(benchNodes)
	pod := tu.MakePod().Name("p").HostPort(8080).Info()
	pl, state := New(), framework.NewCycleState()
	pl.PreFilter(state, pod, snap)
	tu.PerNode(b, benchNodes, func() {
		for _, ni := range snap.Nodes() {
			pl.Filter(state, pod, ni)
		}
	})
}

// BenchmarkFilterPortsInUse: every node holds other host ports.
func BenchmarkFilterPortsInUse(b *testing.B) {
	free := tu.NodeInfo(tu.MakeNode().Name("busy").Obj(), newPod("e", "TCP/0.0.0.0/9090", "UDP/0.0.0.0/8080").Obj())
	pod := newPod("p", "TCP/0.0.0.0/8080").Info()
	pl, state := New(), framework.NewCycleState()
	pl.PreFilter(state, pod, nil)
	tu.PerNode(b, 1, func() { pl.Filter(state, pod, free) })
}
