package lab

import (
	"reflect"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/podtopologyspread"
)

// spreadViaExplain is Spread as it was before ExplainPlugin: the full
// explanation of the next pod, the first node with spread details.
func spreadViaExplain(s *Session, w Workload) *podtopologyspread.Explanation {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: w.Namespace, Name: w.Name + "-next", Labels: copyMap(w.Template.Labels)}, Spec: w.Template.Spec}
	var newest *api.Pod
	for _, p := range s.workloadPods(w.Kind, w.Namespace, w.Name) {
		if newest == nil || p.CreationTimestamp > newest.CreationTimestamp {
			newest = p
		}
	}
	if newest != nil {
		pod.Labels = copyMap(newest.Labels)
		pod.OwnerReferences = newest.OwnerReferences
	}
	api.DefaultPod(pod)
	for _, v := range s.sched.Explain(framework.NewPodInfo(pod)).Nodes {
		if x, ok := v.Details[podtopologyspread.Name].(*podtopologyspread.Explanation); ok && x != nil && (len(x.Hard) > 0 || len(x.Soft) > 0) {
			return x
		}
	}
	return nil
}

// TestSpreadMatchesExplain: Spread (one plugin's account through
// ExplainPlugin) gives the constraints the full explanation gives, for
// workloads that fit, that stay Pending (a hard constraint, a full
// zone: PostFilter runs in Explain) and that use the default constraints.
func TestSpreadMatchesExplain(t *testing.T) {
	const y = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: spread}
seed: 1
cluster:
  node: {cpu: "4", memory: 8Gi, pods: 20}
  zones:
  - {name: zone-a, nodes: 2}
  - {name: zone-b, nodes: 2}
  - {name: zone-c, nodes: 1}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: hard}
spec:
  replicas: 16
  selector: {matchLabels: {app: hard}}
  template:
    metadata: {labels: {app: hard}}
    spec:
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: hard}}}
      - {maxSkew: 2, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: hard}}}
      containers: [{name: c, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: soft}
spec:
  replicas: 5
  selector: {matchLabels: {app: soft}}
  template:
    metadata: {labels: {app: soft}}
    spec:
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: soft}}}
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: plain}
spec:
  replicas: 3
  selector: {matchLabels: {app: plain}}
  template:
    metadata: {labels: {app: plain}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
`
	f, err := LoadFile("spread.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	if s.Engine().Snapshot().Counts.Pending == 0 {
		t.Fatal("want Pending pods of deployment hard (zone-c is full)")
	}
	checked := 0
	for _, w := range s.Workloads() {
		want := spreadViaExplain(s, w)
		got := s.Spread(w)
		var wantC []podtopologyspread.ConstraintExplanation
		if want != nil {
			wantC = append(append(wantC, want.Hard...), want.Soft...)
		}
		if len(got) != len(wantC) {
			t.Fatalf("%s: %d constraints, want %d", w.Ref(), len(got), len(wantC))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i].ConstraintExplanation, wantC[i]) {
				t.Errorf("%s constraint %d:\n got %+v\nwant %+v", w.Ref(), i, got[i].ConstraintExplanation, wantC[i])
			}
			checked++
		}
	}
	if checked < 4 {
		t.Fatalf("checked %d constraints, want the 3 explicit ones and the default ones", checked)
	}
}
