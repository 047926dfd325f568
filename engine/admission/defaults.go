package admission

import "podlab.dev/podlab/engine/api"

// defaultPorts completes api.DefaultPod with the port defaulting of
// pkg/apis/core/v1: a container port's protocol defaults to TCP
// (zz_generated.defaults.go), and on a hostNetwork pod every port without
// a hostPort gets hostPort = containerPort (SetDefaults_Pod,
// defaultHostNetworkPorts) — which the NodePorts filter then sees.
func defaultPorts(pod *api.Pod) {
	for _, cs := range [][]api.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			for j := range cs[i].Ports {
				p := &cs[i].Ports[j]
				if p.Protocol == "" {
					p.Protocol = "TCP"
				}
				if pod.Spec.HostNetwork && p.HostPort == 0 {
					p.HostPort = p.ContainerPort
				}
			}
		}
	}
}
