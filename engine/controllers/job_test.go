package controllers

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

func piJob(completions, parallelism int32) *api.Job {
	tmpl := template("perl:5.34.0")
	tmpl.Spec.RestartPolicy = "Never"
	return &api.Job{ObjectMeta: api.ObjectMeta{Name: "pi", Namespace: "default"},
		Spec: api.JobSpec{Completions: ptr(completions), Parallelism: ptr(parallelism), Template: tmpl}}
}

func TestJobCompletionsAndParallelism(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	obj := piJob(5, 2)
	obj.Spec.Template.Annotations = map[string]string{AnnotationRunFor: "30s"}
	if _, err := fc.m.AddJob(obj); err != nil {
		t.Fatal(err)
	}
	maxActive := 0
	fc.afterInstant = func(api.Time) {
		n := 0
		for _, p := range fc.pods {
			if !p.IsTerminal() && p.DeletionTimestamp == nil {
				n++
			}
		}
		maxActive = max(maxActive, n)
	}
	fc.runUntil(sec(600))
	j := fc.m.Job("default", "pi")
	if j.Status.Succeeded != 5 || j.Status.Active != 0 || findCondition(j.Status.Conditions, JobComplete) == nil {
		t.Fatalf("status %+v", j.Status)
	}
	if maxActive != 2 {
		t.Fatalf("max active pods %d, want parallelism 2", maxActive)
	}
	// 3 waves of 33s (start 1s, ready 2s later, then run 30s): complete at 99s.
	if got := *j.Status.CompletionTime; got != sec(99) {
		t.Fatalf("completed at %v, want 99s", got)
	}
	if got := fc.eventMessages("Completed"); len(got) != 1 || got[0] != "Job completed" {
		t.Fatalf("events %v", got)
	}
	for _, p := range fc.pods {
		if p.Labels[LabelJobName] != "pi" || p.Labels[LabelJobControllerUID] != j.UID {
			t.Fatalf("pod labels %v", p.Labels)
		}
	}
}

func TestJobBackoffLimit(t *testing.T) {
	fc := newFakeCluster(t, nodes(1)...)
	obj := piJob(1, 1)
	obj.Spec.BackoffLimit = ptr(int32(2))
	obj.Spec.Template.Annotations = map[string]string{AnnotationRunFor: "5s", AnnotationFail: "true"}
	if _, err := fc.m.AddJob(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(600))
	var creates []api.Time
	for _, e := range fc.events {
		if e.Reason == "SuccessfulCreate" {
			creates = append(creates, e.Time)
		}
	}
	// Attempt 1 at 0 runs from 3s (ready) and fails at 8s; backoff 10s ->
	// attempt 2 at 18s fails at 26s; backoff 20s -> attempt 3 at 46s fails
	// at 54s: failed 3 > backoffLimit 2.
	want := []api.Time{0, sec(18), sec(46)}
	if len(creates) != 3 || creates[0] != want[0] || creates[1] != want[1] || creates[2] != want[2] {
		t.Fatalf("creates at %v, want %v", creates, want)
	}
	j := fc.m.Job("default", "pi")
	c := findCondition(j.Status.Conditions, JobFailed)
	if c == nil || c.Reason != "BackoffLimitExceeded" || j.Status.Failed != 3 {
		t.Fatalf("status %+v", j.Status)
	}
	if got := fc.eventMessages("BackoffLimitExceeded"); len(got) != 1 || got[0] != "Job has reached the specified backoff limit" {
		t.Fatalf("events %v", got)
	}
}

func TestJobFailCountThenSucceeds(t *testing.T) {
	fc := newFakeCluster(t, nodes(1)...)
	obj := piJob(1, 1)
	obj.Spec.Template.Annotations = map[string]string{AnnotationRunFor: "1s", AnnotationFail: "1"}
	if _, err := fc.m.AddJob(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(100))
	j := fc.m.Job("default", "pi")
	if j.Status.Failed != 1 || j.Status.Succeeded != 1 || findCondition(j.Status.Conditions, JobComplete) == nil {
		t.Fatalf("status %+v", j.Status)
	}
}

func TestJobActiveDeadlineAndTTL(t *testing.T) {
	fc := newFakeCluster(t, nodes(1)...)
	obj := piJob(1, 1)
	obj.Spec.ActiveDeadlineSeconds = ptr(int64(20))
	obj.Spec.TTLSecondsAfterFinished = ptr(int32(100))
	obj.Spec.Template.Annotations = map[string]string{AnnotationRunFor: "1h"}
	g := 5 * time.Second
	fc.grace = &g
	if _, err := fc.m.AddJob(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(21))
	j := fc.m.Job("default", "pi")
	if c := findCondition(j.Status.Conditions, JobFailureTarget); c == nil || c.Reason != "DeadlineExceeded" || c.LastTransitionTime != sec(20) {
		t.Fatalf("conditions %+v", j.Status.Conditions)
	}
	fc.runUntil(sec(30))
	if c := findCondition(j.Status.Conditions, JobFailed); c == nil || c.LastTransitionTime != sec(25) {
		t.Fatalf("Failed should follow once the pod is gone (25s): %+v", j.Status.Conditions)
	}
	fc.runUntil(sec(124))
	if fc.m.Job("default", "pi") == nil {
		t.Fatal("job deleted before its TTL")
	}
	fc.runUntil(sec(200))
	if fc.m.Job("default", "pi") != nil {
		t.Fatal("job not deleted 100s after it finished")
	}
}

func TestCronJob(t *testing.T) {
	fc := newFakeCluster(t, nodes(1)...)
	tmpl := template("busybox")
	tmpl.Spec.RestartPolicy = "OnFailure"
	tmpl.Annotations = map[string]string{AnnotationRunFor: "5s"}
	cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "hello", Namespace: "default"},
		Spec: api.CronJobSpec{Schedule: "* * * * *", JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{Template: tmpl}}}}
	if _, err := fc.m.AddCronJob(cj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(60*5 + 30))
	got := fc.eventMessages("SuccessfulCreate")
	var jobs []string
	for _, e := range fc.events {
		if e.Kind == KindCronJob && e.Reason == "SuccessfulCreate" {
			jobs = append(jobs, e.Message)
		}
	}
	// Epoch 2026-01-01T00:00:00Z is Unix minute 29453760 (1767225600 s).
	want := []string{"Created job hello-29453761", "Created job hello-29453762", "Created job hello-29453763", "Created job hello-29453764", "Created job hello-29453765"}
	if strings.Join(jobs, "|") != strings.Join(want, "|") {
		t.Fatalf("cron jobs %v (all creates %v)", jobs, got)
	}
	if n := len(fc.m.Jobs()); n != 3 {
		t.Fatalf("%d jobs kept, want successfulJobsHistoryLimit 3", n)
	}
	if lst := fc.m.CronJob("default", "hello").Status.LastScheduleTime; *lst != sec(300) {
		t.Fatalf("lastScheduleTime %v", *lst)
	}
}
