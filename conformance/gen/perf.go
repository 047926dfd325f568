package gen

import (
	"fmt"
	"strings"
)

// Perf shapes from test/integration/scheduler_perf/topology_spreading/
// performance-config.yaml (v1.36): nodes from templates/node-default.yaml
// (cpu 4, memory 32Gi, pods 110, no hostname label) labelled
// topology.kubernetes.io/zone moon-1..3 (round-robin here; upstream picks
// at random), init pods from templates/pod-default.yaml (100m/500Mi, here
// bound round-robin instead of scheduled), then the measured pods:
//
//   - PerfTopologySpreading: templates/pod-with-topology-spreading.yaml
//     (label color=blue, zone maxSkew 5 DoNotSchedule on color=blue);
//   - PerfDefaultTopologySpreading: templates/pod-with-label.yaml
//     (app=scheduler-perf, no constraints, no requests) in namespace
//     service-ns, which has a Service selecting app=scheduler-perf, so the
//     system default constraints apply (the caller adds the Service).
const (
	PerfTopologySpreading        = "TopologySpreading"
	PerfDefaultTopologySpreading = "DefaultTopologySpreading"
)

// PerfZones are the zone values of the perf shapes.
var PerfZones = []string{"moon-1", "moon-2", "moon-3"}

// PerfServiceNamespace is the namespace of DefaultTopologySpreading's
// Service and measured pods.
const PerfServiceNamespace = "service-ns"

// Perf returns a perf-shape scenario as YAML.
func Perf(shape string, nodes, initPods, pods int) ([]byte, error) {
	if shape != PerfTopologySpreading && shape != PerfDefaultTopologySpreading {
		return nil, fmt.Errorf("unknown perf shape %q", shape)
	}
	var b strings.Builder
	for i := 0; i < nodes; i++ {
		fmt.Fprintf(&b, `---
apiVersion: v1
kind: Node
metadata: {name: scheduler-perf-%05d, labels: {topology.kubernetes.io/zone: %s}}
status:
  capacity: {pods: "110", cpu: "4", memory: 32Gi}
  conditions: [{status: "True", type: Ready}]
`, i, PerfZones[i%len(PerfZones)])
	}
	for i := 0; i < initPods; i++ {
		fmt.Fprintf(&b, `---
apiVersion: v1
kind: Pod
metadata: {name: pod-%05d}
spec:
  nodeName: scheduler-perf-%05d
  containers:
  - {image: "registry.k8s.io/pause:3.10.2", name: pause, ports: [{containerPort: 80}], resources: {limits: {cpu: 100m, memory: 500Mi}, requests: {cpu: 100m, memory: 500Mi}}}
status: {phase: Running, startTime: "2028-12-31T00:00:00Z"}
`, i, i%max(nodes, 1))
	}
	for i := 0; i < pods; i++ {
		if shape == PerfTopologySpreading {
			fmt.Fprintf(&b, `---
apiVersion: v1
kind: Pod
metadata: {name: spreading-pod-%05d, labels: {color: blue}}
spec:
  topologySpreadConstraints:
  - {maxSkew: 5, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {color: blue}}}
  containers:
  - {image: "registry.k8s.io/pause:3.10.2", name: pause, ports: [{containerPort: 80}], resources: {limits: {cpu: 100m, memory: 500Mi}, requests: {cpu: 100m, memory: 500Mi}}}
`, i)
		} else {
			fmt.Fprintf(&b, `---
apiVersion: v1
kind: Pod
metadata: {name: pod-%05d, namespace: %s, labels: {app: scheduler-perf}}
spec:
  containers:
  - {image: "registry.k8s.io/pause:3.10.1", name: pause}
`, i, PerfServiceNamespace)
		}
	}
	return []byte(b.String()), nil
}
