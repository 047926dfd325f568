package lab

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/controllers"
)

const rcScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: rc}
cluster: {zones: [{name: zone-a, names: [n1, n2]}]}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: web}
spec:
  replicas: 3
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: orphan, labels: {app: web}}
spec:
  nodeName: n1
  containers: [{name: c, image: nginx}]
status:
  phase: Running
  conditions: [{type: Ready, status: "False"}]
`

// A ReplicationController runs as a ReplicaSet: its selector defaults to
// the template's labels (SetDefaults_ReplicationController), it adopts the
// matching orphan, creates the rest with ownerReferences of kind
// ReplicationController, and `scale rc/web` deletes by the ReplicaSet's
// ranking (the not-ready orphan goes first).
func TestReplicationControllerRunsAsReplicaSet(t *testing.T) {
	f, err := LoadFile("rc.yaml", []byte(rcScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rc := s.Controllers().ReplicationController("default", "web")
	if rc == nil || rc.Spec.Selector == nil || rc.Spec.Selector.MatchLabels["app"] != "web" {
		t.Fatalf("rc %+v: want a selector defaulted to app=web", rc)
	}
	owned := 0
	for _, p := range s.Engine().Pods() {
		ref := p.ControllerRef()
		if ref == nil || ref.Kind != controllers.KindReplicationController || ref.Name != "web" {
			t.Errorf("pod %s owner %+v, want ReplicationController web", p.Name, ref)
			continue
		}
		owned++
	}
	if owned != 3 {
		t.Fatalf("%d pods owned by the RC, want 3 (the orphan adopted, two created)", owned)
	}
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("scale rc/web --replicas=2"); err != nil {
		t.Fatal(err)
	}
	if p := s.Engine().Pod("default/orphan"); p != nil && p.DeletionTimestamp == nil {
		t.Errorf("the not-ready orphan is still running; the RC's scale-down ranks it first")
	}
	found := false
	for _, w := range s.Workloads() {
		if w.Kind == "replicationcontroller" && w.Name == "web" && w.Desired == 2 {
			found = true
		}
	}
	if !found {
		t.Errorf("workloads %v lack replicationcontroller/web with 2 desired", s.Workloads())
	}
}
