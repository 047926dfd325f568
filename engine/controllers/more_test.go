package controllers

import (
	"sort"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

func TestIndexedJob(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	obj := piJob(3, 2)
	obj.Spec.CompletionMode = "Indexed"
	obj.Spec.Template.Annotations = map[string]string{AnnotationRunFor: "5s"}
	if _, err := fc.m.AddJob(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(0.5))
	var first []string
	for _, p := range fc.pods {
		first = append(first, p.Annotations[AnnotationJobCompletionIdx])
	}
	sort.Strings(first)
	if strings.Join(first, ",") != "0,1" {
		t.Fatalf("first wave indexes %v, want 0,1", first)
	}
	fc.runUntil(sec(60))
	j := fc.m.Job("default", "pi")
	if findCondition(j.Status.Conditions, JobComplete) == nil || len(j.completedIndexes) != 3 {
		t.Fatalf("indexed job status %+v, completed %v", j.Status, j.completedIndexes)
	}
}

func cronWith(policy string) *api.CronJob {
	tmpl := template("busybox")
	tmpl.Spec.RestartPolicy = "Never"
	tmpl.Annotations = map[string]string{AnnotationRunFor: "90s"} // outlives the 60s period
	return &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "hello", Namespace: "default"},
		Spec: api.CronJobSpec{Schedule: "* * * * *", ConcurrencyPolicy: policy, JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{Template: tmpl}}}}
}

func TestCronJobConcurrencyPolicies(t *testing.T) {
	for _, tc := range []struct {
		policy       string
		wantCreated  int
		wantReason   string
		wantReplaced bool
	}{
		{ConcurrencyAllow, 3, "", false},
		{ConcurrencyForbid, 2, "JobAlreadyActive", false},
		{ConcurrencyReplace, 3, "", true},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			fc := newFakeCluster(t, nodes(2)...)
			if _, err := fc.m.AddCronJob(cronWith(tc.policy)); err != nil {
				t.Fatal(err)
			}
			fc.runUntil(sec(185))
			created, replaced, reason := 0, false, 0
			for _, e := range fc.events {
				if e.Kind != KindCronJob {
					continue
				}
				switch {
				case e.Reason == "SuccessfulCreate":
					created++
				case e.Reason == "SuccessfulDelete":
					replaced = true
				case e.Reason == tc.wantReason:
					reason++
				}
			}
			if created != tc.wantCreated || replaced != tc.wantReplaced || (tc.wantReason != "" && reason != 1) {
				t.Fatalf("created %d replaced %v reason %v", created, replaced, reason)
			}
		})
	}
}

func TestStatefulSetOnDelete(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	obj := webStatefulSet(2, "")
	obj.Spec.UpdateStrategy = api.StatefulSetUpdateStrategy{Type: api.OnDeleteStrategyType}
	if _, err := fc.m.AddStatefulSet(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	if err := fc.m.UpdateStatefulSet("default", "web", func(s *api.StatefulSetSpec) { s.Template.Spec.Containers[0].Image = "v2" }); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(120))
	for _, p := range fc.pods {
		if p.Spec.Containers[0].Image == "v2" {
			t.Fatalf("OnDelete replaced %s on its own", p.Name)
		}
	}
	_ = fc.DeletePod("default", "web-1")
	fc.runUntil(sec(300))
	if img := fc.pods["default/web-1"].Spec.Containers[0].Image; img != "v2" {
		t.Fatalf("web-1 recreated with %s, want the update revision v2", img)
	}
	if img := fc.pods["default/web-0"].Spec.Containers[0].Image; img == "v2" {
		t.Fatal("web-0 must keep the old revision until deleted")
	}
}
