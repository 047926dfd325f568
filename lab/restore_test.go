package lab

import (
	"strings"
	"testing"
)

// restoreScenario is a ReplicaSet owning two bound pods whose recorded
// statuses differ only in what a case sets (STATUS_A / STATUS_B).
const restoreScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: restore}
cluster: {zones: [{name: zone-a, names: [n1, n2]}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, uid: rs-uid, creationTimestamp: "2024-05-01T10:00:00Z"}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata:
  name: a-ready
  uid: uid-a
  labels: {app: web}
  creationTimestamp: "2024-05-01T10:00:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: rs-uid, controller: true}]
spec:
  nodeName: n1
  containers: [{name: c, image: nginx}]
status:
STATUS_A
---
apiVersion: v1
kind: Pod
metadata:
  name: b-not-ready
  uid: uid-b
  labels: {app: web}
  creationTimestamp: "2024-05-01T10:00:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: rs-uid, controller: true}]
spec:
  nodeName: n2
  containers: [{name: c, image: nginx}]
status:
STATUS_B
`

const (
	readyStatus = `  phase: Running
  startTime: "2024-05-01T10:00:05Z"
  conditions:
  - {type: Ready, status: "True", lastTransitionTime: "2024-05-01T10:00:20Z"}
  containerStatuses:
  - {name: c, ready: true, restartCount: 0, state: {running: {startedAt: "2024-05-01T10:00:10Z"}}}`
	notReadyStatus = `  phase: Running
  startTime: "2024-05-01T10:00:05Z"
  conditions:
  - {type: Ready, status: "False", lastTransitionTime: "2024-05-01T10:00:20Z", reason: ContainersNotReady}
  containerStatuses:
  - {name: c, ready: false, restartCount: 0, state: {running: {startedAt: "2024-05-01T10:00:10Z"}}}`
	restartedStatus = `  phase: Running
  startTime: "2024-05-01T10:00:05Z"
  conditions:
  - {type: Ready, status: "True", lastTransitionTime: "2024-05-01T10:00:20Z"}
  containerStatuses:
  - name: c
    ready: true
    restartCount: 4
    state: {running: {startedAt: "2024-05-01T10:00:10Z"}}
    lastState: {terminated: {exitCode: 137, reason: OOMKilled, startedAt: "2024-05-01T10:00:06Z", finishedAt: "2024-05-01T10:00:09Z"}}`
)

// The repro of issue 13: scaling a ReplicaSet down deletes the pod that
// upstream's ActivePodsWithRanks puts first (pkg/controller/controller_utils.go
// Less: "3. Not ready < ready", "7. higher restart counts < lower"), which
// needs the recorded status; before RestorePod every bound pod of a
// scenario was Running and Ready with no restarts, and a-ready went first
// (name order).
func TestScaleDownHonoursRecordedStatus(t *testing.T) {
	for _, tc := range []struct {
		name       string
		a, b       string
		wantGone   string
		wantRemain string
	}{
		{"not ready goes first", readyStatus, notReadyStatus, "b-not-ready", "a-ready"},
		{"more restarts go first", readyStatus, restartedStatus, "b-not-ready", "a-ready"},
		{"control: identical pods keep name order", readyStatus, readyStatus, "a-ready", "b-not-ready"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(strings.Replace(restoreScenario, "STATUS_A", tc.a, 1), "STATUS_B", tc.b, 1)
			f, err := LoadFile("restore.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewSession(f, SessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Apply("scale replicaset/rs --replicas=1"); err != nil {
				t.Fatal(err)
			}
			gone := s.Engine().Pod("default/" + tc.wantGone)
			if gone != nil && gone.DeletionTimestamp == nil {
				t.Errorf("%s is still running; want it deleted", tc.wantGone)
			}
			kept := s.Engine().Pod("default/" + tc.wantRemain)
			if kept == nil || kept.DeletionTimestamp != nil {
				t.Errorf("%s was deleted; upstream deletes %s", tc.wantRemain, tc.wantGone)
			}
		})
	}
}
