package manifest

import (
	"fmt"
	"strings"
	"testing"
)

// bigManifest is a cluster at the limits of a real one: nodes across
// three zones and pods with requests, labels, owner references and a
// spread constraint each.
func bigManifest(nodes, pods int) []byte {
	var b strings.Builder
	for i := 0; i < nodes; i++ {
		fmt.Fprintf(&b, `---
apiVersion: v1
kind: Node
metadata:
  name: node-%d
  labels: {kubernetes.io/hostname: node-%d, topology.kubernetes.io/zone: zone-%d}
status:
  capacity: {cpu: "8", memory: 32Gi, pods: "110"}
  conditions: [{type: Ready, status: "True", lastTransitionTime: "2024-05-01T10:00:00Z"}]
`, i, i, i%3)
	}
	for i := 0; i < pods; i++ {
		fmt.Fprintf(&b, `---
apiVersion: v1
kind: Pod
metadata:
  name: web-%d
  namespace: shop
  labels: {app: web, pod-template-hash: abc}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-abc, uid: u1, controller: true}]
  creationTimestamp: "2024-05-01T12:00:00Z"
spec:
  nodeName: node-%d
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}
  containers:
  - name: web
    image: nginx:1.25
    resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {memory: 256Mi}}
status: {phase: Running}
`, i, i%nodes)
	}
	return []byte(b.String())
}

func BenchmarkLoad(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{100, 1000}, {5000, 50000}} {
		data := bigManifest(size.nodes, size.pods)
		b.Run(fmt.Sprintf("nodes=%d/pods=%d", size.nodes, size.pods), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				objs, err := Load("big.yaml", data, Options{})
				if err != nil || len(objs.Pods) != size.pods {
					b.Fatalf("%v", err)
				}
			}
		})
	}
}

func TestBigManifestLoads(t *testing.T) {
	objs, err := Load("big.yaml", bigManifest(30, 300), Options{})
	if err != nil || len(objs.Nodes) != 30 || len(objs.Pods) != 300 || len(objs.Warnings) != 0 {
		t.Fatalf("%v %v", err, objs)
	}
}
