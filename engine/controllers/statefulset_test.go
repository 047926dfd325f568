package controllers

import (
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

func webStatefulSet(replicas int32, policy string) *api.StatefulSet {
	return &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.StatefulSetSpec{Replicas: ptr(replicas), Selector: labelSel("app", "nginx"), ServiceName: "nginx",
			PodManagementPolicy: policy, Template: template("registry.k8s.io/nginx-slim:0.8", "app", "nginx")}}
}

func TestStatefulSetOrderedReadyStartAndReverseTermination(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	if _, err := fc.m.AddStatefulSet(webStatefulSet(3, "")); err != nil {
		t.Fatal(err)
	}
	// OrderedReady: web-N is created only once web-(N-1) is Running and Ready.
	fc.afterInstant = func(now api.Time) {
		for _, p := range fc.pods {
			_, ord := parentAndOrdinal(p.Name)
			if ord == 0 {
				continue
			}
			prev := fc.pods[key("default", "web-"+string(rune('0'+ord-1)))]
			if prev == nil || !isPodReady(prev) {
				t.Errorf("at %v: %s exists while its predecessor is not ready", now, p.Name)
			}
		}
	}
	fc.runUntil(sec(60))
	want := []string{
		"create Pod web-0 in StatefulSet web successful",
		"create Pod web-1 in StatefulSet web successful",
		"create Pod web-2 in StatefulSet web successful",
	}
	if got := fc.eventMessages("SuccessfulCreate"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("creates %v", got)
	}
	creates := fc.events
	if creates[1].Time-creates[0].Time != sec(3) {
		t.Fatalf("web-1 created %v after web-0, want 3s (start 1s + ready 2s)", creates[1].Time-creates[0].Time)
	}
	if p := fc.pods["default/web-1"]; p.Labels[LabelStatefulSetPodName] != "web-1" || p.Labels[LabelPodIndex] != "1" {
		t.Fatalf("identity labels %v", p.Labels)
	}
	// Scale to 0: web-2 first, web-1 only once web-2 is gone (30s grace).
	fc.afterInstant = nil
	if err := fc.m.Scale(KindStatefulSet, "default", "web", 0); err != nil {
		t.Fatal(err)
	}
	start := fc.now
	fc.runUntil(sec(300))
	var dels []Event
	for _, e := range fc.events {
		if e.Reason == "SuccessfulDelete" {
			dels = append(dels, e)
		}
	}
	if len(dels) != 3 || !strings.Contains(dels[0].Message, "web-2") || !strings.Contains(dels[1].Message, "web-1") || !strings.Contains(dels[2].Message, "web-0") {
		t.Fatalf("deletes %+v", dels)
	}
	if dels[0].Time != start || dels[1].Time != start+sec(30) || dels[2].Time != start+sec(60) {
		t.Fatalf("delete times %v %v %v, want each after the previous pod's 30s grace", dels[0].Time, dels[1].Time, dels[2].Time)
	}
}

func TestStatefulSetParallelAndOrdinalsStart(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	obj := webStatefulSet(3, api.ParallelPodManagement)
	obj.Spec.OrdinalsStart = 5
	if _, err := fc.m.AddStatefulSet(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(0)
	var names []string
	for _, p := range fc.podsWith(func(*api.Pod) bool { return true }) {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "web-5,web-6,web-7" {
		t.Fatalf("Parallel with ordinals.start 5 at t=0: %v", names)
	}
}

func TestStatefulSetRecreatesSameNameAfterOldGone(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	if _, err := fc.m.AddStatefulSet(webStatefulSet(2, "")); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	old := fc.pods["default/web-0"]
	if err := fc.DeletePod("default", "web-0"); err != nil {
		t.Fatal(err)
	}
	deletedAt := fc.now
	fc.runUntil(sec(100))
	p := fc.pods["default/web-0"]
	if p == nil || p == old || p.UID == old.UID {
		t.Fatal("web-0 not recreated")
	}
	if p.CreationTimestamp != deletedAt+sec(30) {
		t.Fatalf("web-0 recreated at %v, want when the old one was gone (%v)", p.CreationTimestamp, deletedAt+sec(30))
	}
}

func TestStatefulSetRollingUpdatePartition(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	obj := webStatefulSet(3, "")
	obj.Spec.UpdateStrategy = api.StatefulSetUpdateStrategy{Type: "RollingUpdate", RollingUpdate: &api.RollingUpdateStatefulSetStrategy{Partition: ptr(int32(1))}}
	if _, err := fc.m.AddStatefulSet(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	if err := fc.m.UpdateStatefulSet("default", "web", func(s *api.StatefulSetSpec) { s.Template.Spec.Containers[0].Image = "nginx-slim:0.9" }); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(300))
	images := map[string]string{}
	for _, p := range fc.pods {
		images[p.Name] = p.Spec.Containers[0].Image
	}
	if images["web-0"] != "registry.k8s.io/nginx-slim:0.8" || images["web-1"] != "nginx-slim:0.9" || images["web-2"] != "nginx-slim:0.9" {
		t.Fatalf("images with partition 1: %v", images)
	}
	var dels []string
	for _, e := range fc.events {
		if e.Reason == "SuccessfulDelete" {
			dels = append(dels, e.Message)
		}
	}
	if len(dels) != 2 || !strings.Contains(dels[0], "web-2") || !strings.Contains(dels[1], "web-1") {
		t.Fatalf("update order %v, want web-2 then web-1", dels)
	}
	s := fc.m.StatefulSet("default", "web")
	if s.Status.UpdatedReplicas != 2 || s.Status.CurrentReplicas != 1 || s.Status.CurrentRevision == s.Status.UpdateRevision {
		t.Fatalf("status %+v", s.Status)
	}
}
