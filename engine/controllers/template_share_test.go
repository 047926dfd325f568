package controllers

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// A ReplicaSet's pods take their labels and annotations maps from its
// template, shared (createPodFromTemplate): nothing edits either in place.
// A rollout that changes the Deployment's template labels and annotations
// makes a new ReplicaSet and leaves the old pods' labels as they were.
func TestReplicaSetPodsShareTheTemplateMaps(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	d := nginxDeployment(3)
	d.Spec.Template.Annotations = map[string]string{"note": "v1"}
	if _, err := fc.m.AddDeployment(d); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(10))
	rss := fc.m.ReplicaSets()
	if len(rss) != 1 || len(fc.pods) != 3 {
		t.Fatalf("%d ReplicaSets, %d pods; want 1 and 3", len(rss), len(fc.pods))
	}
	tmpl := &rss[0].Spec.Template
	old := map[string]map[string]string{}
	for k, p := range fc.pods {
		if reflect.ValueOf(p.Labels).UnsafePointer() != reflect.ValueOf(tmpl.Labels).UnsafePointer() ||
			reflect.ValueOf(p.Annotations).UnsafePointer() != reflect.ValueOf(tmpl.Annotations).UnsafePointer() {
			t.Fatalf("%s does not share its ReplicaSet template's maps", k)
		}
		old[k] = cloneMap(p.Labels)
	}
	err := fc.m.UpdateDeployment("default", d.Name, func(s *api.DeploymentSpec) {
		s.Template.Labels["track"] = "canary"
		s.Template.Annotations["note"] = "v2"
	})
	if err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(20))
	for k, labels := range old {
		if p := fc.pods[k]; p != nil && !reflect.DeepEqual(p.Labels, labels) {
			t.Fatalf("%s: labels %v after the rollout, were %v", k, p.Labels, labels)
		}
	}
	if tmpl.Annotations["note"] != "v1" || tmpl.Labels["track"] != "" {
		t.Fatalf("the old ReplicaSet's template changed: %v %v", tmpl.Labels, tmpl.Annotations)
	}
}
