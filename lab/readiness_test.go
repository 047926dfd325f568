package lab

import (
	"strings"
	"testing"
	"time"
)

const rolloutScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: rollout}
cluster: {zones: [{name: zone-a, nodes: 3}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  minReadySeconds: 10
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {lab.podlab.dev/ready-after: 20s}}
    spec:
      containers:
      - name: web
        image: nginx
        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}
`

// Readiness drives a rollout: with maxUnavailable 0 the Deployment never
// has fewer than 3 ready pods, and each step waits for the new pod's
// warm-up (20 s behind its readiness probe) plus minReadySeconds.
func TestRolloutWaitsForReadiness(t *testing.T) {
	f, err := LoadFile("rollout.yaml", []byte(rolloutScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(time.Minute); err != nil {
		t.Fatal(err)
	}
	d := s.Controllers().Deployment("default", "web")
	if d.Status.AvailableReplicas != 3 {
		t.Fatalf("after warm-up: %d available, want 3", d.Status.AvailableReplicas)
	}
	if _, err := s.Apply("rollout restart deployment/web"); err != nil {
		t.Fatal(err)
	}
	start := s.Now()
	for range 60 {
		if err := s.Advance(5 * time.Second); err != nil {
			t.Fatal(err)
		}
		if r := s.Controllers().Deployment("default", "web").Status.ReadyReplicas; r < 3 {
			t.Fatalf("at %s: %d ready pods; maxUnavailable 0 keeps 3", s.Now(), r)
		}
		if st := s.workloadStatus("deployment", "default", "web"); strings.Contains(st, "successfully rolled out") {
			took := s.Now().Sub(start)
			// three steps of ≥ 20 s warm-up + 10 s minReadySeconds
			if took < 90*time.Second {
				t.Fatalf("rolled out in %s; three warm-ups and minReadySeconds take at least 90s", took)
			}
			return
		}
	}
	t.Fatalf("rollout not finished after 5 minutes: %s", s.workloadStatus("deployment", "default", "web"))
}

const availabilityScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: avail}
cluster: {zones: [{name: zone-a, names: [n1]}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, uid: rs-uid}
spec:
  replicas: 1
  minReadySeconds: 30
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata:
  name: web-1
  labels: {app: web}
  creationTimestamp: "2024-05-01T10:00:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: rs-uid, controller: true}]
spec:
  nodeName: n1
  containers: [{name: c, image: nginx}]
status:
  phase: Running
  startTime: "2024-05-01T10:00:00Z"
  conditions:
  - {type: Ready, status: "True", lastTransitionTime: "2024-05-01T10:00:10Z"}
  - {type: PodScheduled, status: "True", lastTransitionTime: "2024-05-01T10:00:20Z"}
`

// Availability honours the recorded ready time: ready since -10s with
// minReadySeconds 30 is available only after 20s (strictly).
func TestAvailabilityFromRecordedReadyTime(t *testing.T) {
	f, err := LoadFile("avail.yaml", []byte(availabilityScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rs := s.Controllers().ReplicaSet("default", "rs")
	if rs.Status.ReadyReplicas != 1 || rs.Status.AvailableReplicas != 0 {
		t.Fatalf("t=0: ready %d available %d, want 1 and 0", rs.Status.ReadyReplicas, rs.Status.AvailableReplicas)
	}
	if err := s.Advance(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got := s.Controllers().ReplicaSet("default", "rs").Status.AvailableReplicas; got != 0 {
		t.Fatalf("t=20s: available %d, want 0 (strictly after ready+30s)", got)
	}
	if err := s.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if got := s.Controllers().ReplicaSet("default", "rs").Status.AvailableReplicas; got != 1 {
		t.Fatalf("t=21s: available %d, want 1", got)
	}
}

const jobExitScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: job-exit}
cluster: {zones: [{name: zone-a, nodes: 1}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: migrate}
spec:
  backoffLimit: 2
  template:
    metadata: {annotations: {lab.podlab.dev/exit: "1@30s"}}
    spec:
      restartPolicy: Never
      containers: [{name: m, image: busybox}]
`

// A Job whose pods carry lab.podlab.dev/exit runs on the kubelet model:
// each pod fails 30 s after its start (not after run-for's 10 s), and the
// Job fails once backoffLimit is exceeded.
func TestJobPodsExitOnKubeletModel(t *testing.T) {
	f, err := LoadFile("job.yaml", []byte(jobExitScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	if j := s.Controllers().Job("default", "migrate"); j.Status.Failed != 0 {
		t.Fatalf("at 20s: %d failed pods, want 0 (they exit at 30s)", j.Status.Failed)
	}
	if err := s.Advance(10 * time.Minute); err != nil {
		t.Fatal(err)
	}
	if j := s.Controllers().Job("default", "migrate"); j.Status.Failed != 3 {
		t.Fatalf("after 10m: %d failed pods, want 3 (backoffLimit 2)", j.Status.Failed)
	}
}

// Scale-down order follows readiness: the pod whose readiness probe fails
// is the one a Deployment's ReplicaSet deletes first.
func TestScaleDownDeletesThePodFailingReadiness(t *testing.T) {
	f, err := LoadFile("rollout.yaml", []byte(rolloutScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(time.Minute); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range s.Engine().Pods() {
		names = append(names, p.Name)
	}
	if len(names) != 3 {
		t.Fatalf("pods %v, want 3", names)
	}
	victim := names[2] // the last by name: without the probe failure it would not go first
	if _, err := s.Apply("break pod " + victim + " readiness"); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got := PodHealth(s.Engine().Pod("default/" + victim)); got != "not-ready" {
		t.Fatalf("%s health %q, want not-ready", victim, got)
	}
	if _, err := s.Apply("scale deployment/web --replicas=2"); err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Engine().Pods() {
		if (p.DeletionTimestamp != nil) != (p.Name == victim) {
			t.Errorf("%s: deleting=%v; only %s (not ready) should be deleted", p.Name, p.DeletionTimestamp != nil, victim)
		}
	}
}
