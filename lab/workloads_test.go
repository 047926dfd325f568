package lab

import (
	"slices"
	"testing"
	"time"

	"podlab.dev/podlab/engine/controllers"
)

const cronScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: cron}
cluster: {zones: [{name: zone-a, nodes: 2}]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: tick}
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: c, image: busybox}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
`

// A CronJob is one workload: the list shows cronjob/tick (not the Jobs it
// spawned), every pod of those Jobs maps to it, and completion offers it;
// a Job of its own stays a job.
func TestCronJobIsOneWorkload(t *testing.T) {
	f, err := LoadFile("cron.yaml", []byte(cronScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(3*time.Minute + 10*time.Second); err != nil {
		t.Fatal(err)
	}
	spawned := 0
	for _, j := range s.Controllers().Jobs() {
		if ref := j.ControllerRef(); ref != nil && ref.Kind == controllers.KindCronJob {
			spawned++
		}
	}
	if spawned == 0 {
		t.Fatal("the CronJob spawned no Job in 3 minutes")
	}
	refs := map[string]Workload{}
	for _, w := range s.Workloads() {
		refs[w.Ref()] = w
	}
	if len(refs) != 2 || refs["cronjob/tick"].Name != "tick" || refs["job/once"].Name != "once" {
		t.Fatalf("workloads %v, want cronjob/tick and job/once", refs)
	}
	active := len(s.Controllers().CronJob("default", "tick").Status.Active)
	if w := refs["cronjob/tick"]; w.Template == nil || active == 0 || w.Desired != int32(active) {
		t.Errorf("cronjob/tick: template %v, desired %d, want the job template and %d (one pod per active Job)", w.Template, w.Desired, active)
	}
	cronPods := 0
	for _, p := range s.Engine().Pods() {
		kind, name := s.WorkloadOf(p)
		if _, ok := refs[kind+"/"+name]; !ok {
			t.Errorf("pod %s belongs to %s/%s, which the workload list lacks", p.Key(), kind, name)
		}
		if kind == "cronjob" {
			cronPods++
		}
	}
	if got := len(s.workloadPods("cronjob", "default", "tick")); got != cronPods || got < spawned {
		t.Errorf("workloadPods(cronjob/tick) = %d pods, WorkloadOf maps %d there (want at least %d)", got, cronPods, spawned)
	}
	if _, got := s.Complete("delete cro"); !slices.Contains(got, "cronjob/tick") {
		t.Errorf("completion of %q: %v lacks cronjob/tick", "delete cro", got)
	}
}
