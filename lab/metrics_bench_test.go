package lab

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// bigSession is 1,000 nodes in 4 zones and 30,000 pods of 10 Deployments
// spread over zones (the scale the issues' speed goals name).
func bigSession(b *testing.B) *Session {
	b.Helper()
	var y strings.Builder
	y.WriteString("apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: big}\nseed: 1\ncluster:\n  node: {cpu: \"64\", memory: 256Gi, pods: 110}\n  zones:\n")
	for z := range 4 {
		fmt.Fprintf(&y, "  - {name: zone-%d, nodes: 250}\n", z)
	}
	for d := range 10 {
		fmt.Fprintf(&y, `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-%d}
spec:
  replicas: 3000
  selector: {matchLabels: {app: web-%d}}
  template:
    metadata: {labels: {app: web-%d}}
    spec:
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web-%d}}}
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
`, d, d, d, d)
	}
	f, err := LoadFile("big.yaml", []byte(y.String()))
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Advance(time.Minute); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkMetricsSample is one sample of a 30,000-pod cluster: a full
// pass and an incremental sample after a pod moved (benchSample).
func BenchmarkMetricsSample(b *testing.B) { benchSample(b, bigSession(b)) }

// BenchmarkFork is forking a 1,000-node / 30,000-pod session: lane b is
// rebuilt from the scenario and the history.
func BenchmarkFork(b *testing.B) {
	s := bigSession(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Fork(); err != nil {
			b.Fatal(err)
		}
	}
}
