package controllers

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

func TestSpreadOf(t *testing.T) {
	ns := []*api.Node{
		mkNode("a1", map[string]string{api.LabelTopologyZone: "a"}),
		mkNode("a2", map[string]string{api.LabelTopologyZone: "a"}),
		mkNode("b1", map[string]string{api.LabelTopologyZone: "b", "disk": "hdd"}),
		mkNode("c1", map[string]string{api.LabelTopologyZone: "c"}),
		mkNode("nozone", nil),
	}
	pods := []*api.Pod{
		mkPod("p1").node("a1").running().obj(),
		mkPod("p2").node("a2").running().obj(),
		mkPod("p3").node("b1").running().obj(),
		mkPod("p4").node("nozone").running().obj(),
		mkPod("p5").obj(), // pending
		mkPod("p6").node("c1").terminating(0).obj(),
		mkPod("p7").node("c1").phase(api.PodSucceeded).obj(),
	}
	s := SpreadOf(pods, ns, api.LabelTopologyZone, nil)
	if len(s.Domains) != 3 || s.Domains[0] != (DomainCount{"a", 2}) || s.Domains[1] != (DomainCount{"b", 1}) || s.Domains[2] != (DomainCount{"c", 0}) {
		t.Fatalf("domains %+v", s.Domains)
	}
	if s.Skew != 2 || s.Pods != 4 || s.Unscheduled != 1 {
		t.Fatalf("skew %d pods %d unscheduled %d", s.Skew, s.Pods, s.Unscheduled)
	}
	noHDD := func(n *api.Node) bool { return n.Labels["disk"] != "hdd" }
	s = SpreadOf(pods, ns, api.LabelTopologyZone, noHDD)
	if len(s.Domains) != 2 || s.Skew != 2 {
		t.Fatalf("with eligibility: %+v", s)
	}
	s = SpreadOf(pods, ns, api.LabelHostname, nil)
	if len(s.Domains) != 5 || s.Skew != 1 {
		t.Fatalf("per host: %+v", s)
	}
}

func TestScaleOf(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	if _, err := fc.m.AddDeployment(nginxDeployment(4)); err != nil {
		t.Fatal(err)
	}
	if _, err := fc.m.AddStatefulSet(webStatefulSet(2, "")); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	d := fc.m.Deployment("default", "nginx-deployment")
	rs := fc.m.ReplicaSets()[0]
	if uid, n, ok := fc.m.ScaleOf("default", controllerRef(KindReplicaSet, &rs.ObjectMeta)); !ok || uid != d.UID || n != 4 {
		t.Fatalf("ReplicaSet of a Deployment: %s %d %v", uid, n, ok)
	}
	s := fc.m.StatefulSet("default", "web")
	if _, n, ok := fc.m.ScaleOf("default", controllerRef(KindStatefulSet, &s.ObjectMeta)); !ok || n != 2 {
		t.Fatalf("StatefulSet: %d %v", n, ok)
	}
	if _, _, ok := fc.m.ScaleOf("default", api.OwnerReference{Kind: KindDaemonSet, Name: "x"}); ok {
		t.Fatal("DaemonSets have no scale")
	}
}
