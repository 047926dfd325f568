package testutil

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

func TestBuildersFeedTheSnapshot(t *testing.T) {
	n := MakeNode().Name("n1").Label("zone", "a").Capacity(Res{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj()
	p := MakePod().Name("p").Req(Res{"cpu": "500m", "memory": "1Gi"}).Obj()
	ni := NodeInfo(n, p)
	if ni.Requested.MilliCPU != 500 || ni.Requested.Memory != 1<<30 {
		t.Fatalf("requested = %+v", ni.Requested)
	}
	if ni.Allocatable.MilliCPU != 4000 || ni.Allocatable.AllowedPods != 110 {
		t.Fatalf("allocatable = %+v", ni.Allocatable)
	}
	if n.Labels[api.LabelHostname] != "n1" || n.Labels["zone"] != "a" {
		t.Fatalf("labels = %v", n.Labels)
	}
	if p.Namespace != "default" || p.Status.QOSClass != api.QOSBurstable {
		t.Fatalf("pod not defaulted: ns=%q qos=%q", p.Namespace, p.Status.QOSClass)
	}
}
