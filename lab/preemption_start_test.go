package lab

import (
	"strings"
	"testing"
)

const startTimeScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: start-times}
cluster:
  node: {cpu: "2", memory: 4Gi, pods: 110}
  zones: [{name: zone-a, names: [n1, n2]}]
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Pod
metadata: {name: old, creationTimestamp: "2024-05-01T09:00:00Z"}
spec:
  nodeName: n1
  containers: [{name: c, image: i, resources: {requests: {cpu: "2"}}}]
status:
  phase: Running
  startTime: "2024-05-01T09:00:00Z"
---
apiVersion: v1
kind: Pod
metadata: {name: young, creationTimestamp: "2024-05-01T10:00:00Z"}
spec:
  nodeName: n2
  containers: [{name: c, image: i, resources: {requests: {cpu: "2"}}}]
status:
  phase: Running
  startTime: "2024-05-01T10:00:00Z"
---
apiVersion: v1
kind: Pod
metadata: {name: urgent}
spec:
  priorityClassName: high
  containers: [{name: c, image: i, resources: {requests: {cpu: "2"}}}]
`

// Preemption reads the recorded start times: with two equal candidates
// (one victim each, same priority), pickOneNodeForPreemption takes the
// node whose victim started latest — the young pod's node.
func TestPreemptionUsesRecordedStartTime(t *testing.T) {
	for _, swap := range []bool{false, true} {
		src := startTimeScenario
		want := "young"
		if swap {
			src = strings.NewReplacer("2024-05-01T09:00:00Z", "2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z", "2024-05-01T09:00:00Z").Replace(src)
			want = "old"
		}
		f, err := LoadFile("start.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSession(f, SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p := s.Engine().Pod("default/" + want)
		if p == nil || p.DeletionTimestamp == nil {
			t.Errorf("swap=%v: %s was not preempted; it started latest", swap, want)
		}
	}
}
