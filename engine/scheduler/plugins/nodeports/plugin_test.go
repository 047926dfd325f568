package nodeports

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

// newPod builds a pod with one container per "PROTO/IP/PORT" spec, as the
// upstream test's newPod.
func newPod(name string, specs ...string) *tu.PodWrapper {
	var ports []api.ContainerPort
	for _, s := range specs {
		parts := strings.Split(s, "/")
		port, _ := strconv.Atoi(parts[2])
		ports = append(ports, api.ContainerPort{HostPort: int32(port), ContainerPort: int32(port), Protocol: parts[0], HostIP: parts[1]})
	}
	p := tu.MakePod().Name(name)
	if len(ports) > 0 {
		p.ContainerPort(ports...)
	}
	return p
}

var conflict = framework.NewStatus(framework.Unschedulable, ErrReason)

// Cases follow upstream node_ports_test.go TestNodePorts.
func TestFilter(t *testing.T) {
	cases := []struct {
		name          string
		pod           *tu.PodWrapper
		existing      []*tu.PodWrapper
		wantPreFilter *framework.Status
		want          *framework.Status
	}{
		{name: "skip filter", pod: tu.MakePod().Name("p"), wantPreFilter: framework.NewStatus(framework.Skip)},
		{name: "other port", pod: newPod("p", "UDP/127.0.0.1/8080"), existing: []*tu.PodWrapper{newPod("e", "UDP/127.0.0.1/9090")}},
		{name: "same udp port", pod: newPod("p", "UDP/127.0.0.1/8080"), existing: []*tu.PodWrapper{newPod("e", "UDP/127.0.0.1/8080")}, want: conflict},
		{name: "same tcp port", pod: newPod("p", "TCP/127.0.0.1/8080"), existing: []*tu.PodWrapper{newPod("e", "TCP/127.0.0.1/8080")}, want: conflict},
		{name: "different host ip", pod: newPod("p", "TCP/127.0.0.1/8080"), existing: []*tu.PodWrapper{newPod("e", "TCP/127.0.0.2/8080")}},
		{name: "different protocol", pod: newPod("p", "UDP/127.0.0.1/8080"), existing: []*tu.PodWrapper{newPod("e", "TCP/127.0.0.1/8080")}},
		{name: "second udp port conflict", pod: newPod("p", "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"),
			existing: []*tu.PodWrapper{newPod("e", "UDP/127.0.0.1/8080")}, want: conflict},
		{name: "first tcp port conflict", pod: newPod("p", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
			existing: []*tu.PodWrapper{newPod("e", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081")}, want: conflict},
		{name: "tcp conflict due to 0.0.0.0 hostIP", pod: newPod("p", "TCP/0.0.0.0/8001"),
			existing: []*tu.PodWrapper{newPod("e", "TCP/127.0.0.1/8001")}, want: conflict},
		{name: "tcp conflict due to a second 0.0.0.0 port", pod: newPod("p", "TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"),
			existing: []*tu.PodWrapper{newPod("e", "TCP/127.0.0.1/8001")}, want: conflict},
		{name: "existing 0.0.0.0 conflicts with a specific IP", pod: newPod("p", "TCP/127.0.0.1/8001"),
			existing: []*tu.PodWrapper{newPod("e", "TCP/0.0.0.0/8001")}, want: conflict},
		{name: "0.0.0.0 on another protocol", pod: newPod("p", "UDP/127.0.0.1/8001"), existing: []*tu.PodWrapper{newPod("e", "TCP/0.0.0.0/8001")}},
		{name: "udp conflict due to 0.0.0.0", pod: newPod("p", "UDP/127.0.0.1/8001"),
			existing: []*tu.PodWrapper{newPod("e", "TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001")}, want: conflict},
		{name: "empty IP and protocol default to 0.0.0.0 and TCP", pod: newPod("p", "//8001"),
			existing: []*tu.PodWrapper{newPod("e", "TCP/10.1.1.1/8001")}, want: conflict},
		{name: "a regular init container's port is not requested",
			pod:      tu.MakePod().Name("p").InitContainerPort(false, api.ContainerPort{ContainerPort: 8001, HostPort: 8001, Protocol: "TCP"}),
			existing: []*tu.PodWrapper{newPod("e", "TCP/0.0.0.0/8001")}, wantPreFilter: framework.NewStatus(framework.Skip)},
		{name: "a sidecar's port is requested",
			pod:      tu.MakePod().Name("p").InitContainerPort(true, api.ContainerPort{ContainerPort: 8001, HostPort: 8001, Protocol: "TCP"}),
			existing: []*tu.PodWrapper{newPod("e", "TCP/0.0.0.0/8001")}, want: conflict},
		{name: "an assigned pod's regular init container holds no port", pod: newPod("p", "TCP/0.0.0.0/8001"),
			existing: []*tu.PodWrapper{tu.MakePod().Name("e").InitContainerPort(false, api.ContainerPort{ContainerPort: 8001, HostPort: 8001, Protocol: "TCP"})}},
		{name: "an assigned pod's sidecar holds its port", pod: newPod("p", "TCP/0.0.0.0/8001"),
			existing: []*tu.PodWrapper{tu.MakePod().Name("e").InitContainerPort(true, api.ContainerPort{ContainerPort: 8001, HostPort: 8001, Protocol: "TCP"})},
			want:     conflict},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var pods []*api.Pod
			for _, e := range c.existing {
				pods = append(pods, e.Node("n").Obj())
			}
			snap := tu.NewSnapshot([]*api.Node{tu.MakeNode().Name("n").Obj()}, pods)
			res := tu.RunFilter(New(), c.pod.Info(), snap)
			if !reflect.DeepEqual(res.PreFilter, c.wantPreFilter) {
				t.Fatalf("PreFilter %+v, want %+v", res.PreFilter, c.wantPreFilter)
			}
			if !reflect.DeepEqual(res.Nodes[0], c.want) {
				t.Fatalf("Filter %+v, want %+v", res.Nodes[0], c.want)
			}
		})
	}
}

func TestFilterWithoutPreFilter(t *testing.T) {
	ni := tu.NodeInfo(tu.MakeNode().Name("n").Obj(), newPod("e", "TCP/0.0.0.0/80").Obj())
	if got := New().Filter(framework.NewCycleState(), newPod("p", "TCP/1.2.3.4/80").Info(), ni); !reflect.DeepEqual(got, conflict) {
		t.Fatalf("got %+v", got)
	}
}
