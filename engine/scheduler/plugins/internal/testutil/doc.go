// Package testutil holds fluent builders for scheduler plugin tests, shaped
// after kube-scheduler's pkg/scheduler/testing/wrappers.go:
//
//	node := testutil.MakeNode().Name("n1").Label("zone", "a").Capacity(testutil.Res{"cpu": "4", "pods": "110"}).Obj()
//	pod := testutil.MakePod().Name("p").Req(testutil.Res{"cpu": "1"}).Node("n1").Obj()
//	snap := testutil.NewSnapshot([]*api.Node{node}, []*api.Pod{pod})
//
// Builders panic on malformed quantities: they are for tests only. It
// imports engine/api and engine/scheduler/framework only.
package testutil
