package lab

import (
	"strings"
	"testing"
	"time"
)

// partialDump is `kubectl get nodes,pods -A -o yaml`: a pod owned by a
// ReplicaSet that is not in the file.
const partialDump = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: worker-1, labels: {kubernetes.io/hostname: worker-1}}
  status:
    allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-6c8b9d7f5d-abcde
    namespace: shop
    uid: pod-uid-1
    labels: {app: web, pod-template-hash: 6c8b9d7f5d}
    creationTimestamp: "2024-05-01T10:00:00Z"
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-6c8b9d7f5d, uid: rs-outside-the-lab, controller: true, blockOwnerDeletion: true}]
  spec:
    nodeName: worker-1
    containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m}}}]
  status:
    phase: Running
    startTime: "2024-05-01T10:00:05Z"
    conditions: [{type: Ready, status: "True", lastTransitionTime: "2024-05-01T10:00:20Z"}]
`

// An imported pod whose owner is outside the dump is not garbage-collected:
// the lab's collector judges only owners it has known
// (docs/controllers.md, "Garbage collection and deletion").
func TestPartialDumpPodsSurvive(t *testing.T) {
	f, err := ReadStdinScenario(strings.NewReader(partialDump))
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
	p := s.Engine().Pod("shop/web-6c8b9d7f5d-abcde")
	if p == nil || p.DeletionTimestamp != nil {
		t.Fatalf("imported pod was garbage-collected: %+v", p)
	}
}
