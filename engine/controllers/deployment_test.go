package controllers

import (
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

func nodes(n int) []*api.Node {
	var out []*api.Node
	for i := 0; i < n; i++ {
		out = append(out, mkNode("node-"+string(rune('a'+i)), nil))
	}
	return out
}

func nginxDeployment(replicas int32) *api.Deployment {
	return &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "nginx-deployment", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: ptr(replicas), Selector: labelSel("app", "nginx"), Template: template("nginx:1.14.2", "app", "nginx")}}
}

// liveCounts counts a deployment's pods: not terminating, and available.
func liveCounts(fc *fakeCluster) (live, available int) {
	for _, p := range fc.pods {
		if p.DeletionTimestamp != nil || p.IsTerminal() {
			continue
		}
		live++
		if isPodReady(p) {
			available++
		}
	}
	return
}

// The seed's rolling update: 3 replicas, default maxSurge/maxUnavailable
// 25% (=1 up, 0 down): never more than 4 pods, never fewer than 3
// available, and the ScalingReplicaSet events of the documentation.
func TestRollingUpdateSeed(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	if _, err := fc.m.AddDeployment(nginxDeployment(3)); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(60))
	d := fc.m.Deployment("default", "nginx-deployment")
	if d.Status.AvailableReplicas != 3 || d.Status.UpdatedReplicas != 3 {
		t.Fatalf("status after create: %+v", d.Status)
	}
	oldRS := fc.m.ReplicaSets()[0].Name
	fc.afterInstant = func(now api.Time) {
		live, avail := liveCounts(fc)
		if live > 4 {
			t.Errorf("at %v: %d live pods > replicas+maxSurge 4", now, live)
		}
		if avail < 3 {
			t.Errorf("at %v: %d available < replicas-maxUnavailable 3", now, avail)
		}
	}
	if err := fc.m.SetImage("default", "nginx-deployment", "app", "nginx:1.16.1"); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(300))
	rss := fc.m.ReplicaSets()
	if len(rss) != 2 {
		t.Fatalf("want 2 ReplicaSets, got %d", len(rss))
	}
	newRS := rss[0].Name
	if newRS == oldRS {
		newRS = rss[1].Name
	}
	want := []string{
		"Scaled up replica set " + oldRS + " from 0 to 3",
		"Scaled up replica set " + newRS + " from 0 to 1",
		"Scaled down replica set " + oldRS + " from 3 to 2",
		"Scaled up replica set " + newRS + " from 1 to 2",
		"Scaled down replica set " + oldRS + " from 2 to 1",
		"Scaled up replica set " + newRS + " from 2 to 3",
		"Scaled down replica set " + oldRS + " from 1 to 0",
	}
	if got := fc.eventMessages("ScalingReplicaSet"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d.Annotations[RevisionAnnotation] != "2" || fc.m.ReplicaSet("default", newRS).Annotations[RevisionAnnotation] != "2" {
		t.Fatalf("revision annotations: deployment %q", d.Annotations[RevisionAnnotation])
	}
	for _, p := range fc.pods {
		if p.Labels[api.LabelPodTemplateHash] != strings.TrimPrefix(newRS, "nginx-deployment-") {
			t.Fatalf("pod %s has pod-template-hash %q, want the new RS's", p.Name, p.Labels[api.LabelPodTemplateHash])
		}
	}
	if c := d.condition(DeploymentProgressing); c == nil || c.Reason != reasonNewRSAvailable {
		t.Fatalf("Progressing condition %+v", c)
	}
}

// The seed's proportional scaling example: 10 replicas, maxSurge 3,
// maxUnavailable 2, a broken image: new RS 5, old 8; scaling to 15 spreads
// the 5 extra replicas 3:2 -> old 11, new 7.
func TestProportionalScalingSeed(t *testing.T) {
	fc := newFakeCluster(t, nodes(5)...)
	obj := nginxDeployment(10)
	obj.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: intStr("3"), MaxUnavailable: intStr("2")}}
	if _, err := fc.m.AddDeployment(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(60))
	err := fc.m.UpdateDeployment("default", "nginx-deployment", func(s *api.DeploymentSpec) {
		s.Template.Spec.Containers[0].Image = "nginx:sometag"
		s.Template.Annotations = map[string]string{"test/never-ready": "true"}
	})
	if err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(120))
	sizes := func() map[string]int32 {
		out := map[string]int32{}
		for _, rs := range fc.m.ReplicaSets() {
			img := rs.Spec.Template.Spec.Containers[0].Image
			out[img] = *rs.Spec.Replicas
		}
		return out
	}
	if s := sizes(); s["nginx:1.14.2"] != 8 || s["nginx:sometag"] != 5 {
		t.Fatalf("stuck rollout sizes %v, want old 8 new 5", s)
	}
	if err := fc.m.Scale(KindDeployment, "default", "nginx-deployment", 15); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(180))
	if s := sizes(); s["nginx:1.14.2"] != 11 || s["nginx:sometag"] != 7 {
		t.Fatalf("after scaling to 15: %v, want old 11 new 7", s)
	}
}

func TestRecreate(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	obj := nginxDeployment(2)
	obj.Spec.Strategy.Type = api.RecreateDeploymentStrategyType
	if _, err := fc.m.AddDeployment(obj); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	fc.afterInstant = func(now api.Time) {
		images := map[string]bool{}
		for _, p := range fc.pods {
			images[p.Spec.Containers[0].Image] = true
		}
		if len(images) > 1 {
			t.Errorf("at %v: old and new pods coexist under Recreate", now)
		}
	}
	if err := fc.m.SetImage("default", "nginx-deployment", "app", "nginx:2"); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(120))
	if live, avail := liveCounts(fc); live != 2 || avail != 2 {
		t.Fatalf("live %d available %d", live, avail)
	}
}

func TestUndoAndRestart(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	if _, err := fc.m.AddDeployment(nginxDeployment(2)); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(30))
	if err := fc.m.SetImage("default", "nginx-deployment", "app", "nginx:2"); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(120))
	msg, err := fc.m.Undo("default", "nginx-deployment", 0)
	if err != nil || msg != "deployment.apps/nginx-deployment rolled back" {
		t.Fatalf("undo: %q %v", msg, err)
	}
	fc.runUntil(sec(240))
	d := fc.m.Deployment("default", "nginx-deployment")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "nginx:1.14.2" {
		t.Fatalf("image after undo %q", img)
	}
	h, _ := fc.m.History("default", "nginx-deployment")
	if len(h) != 2 || h[0].Revision != 2 || h[1].Revision != 3 || !h[1].Current {
		t.Fatalf("history after undo %+v (the old RS becomes revision 3)", h)
	}
	if rs := fc.m.ReplicaSet("default", h[1].ReplicaSet); rs.Annotations[RevisionHistoryAnnotation] != "1" {
		t.Fatalf("revision-history %q", rs.Annotations[RevisionHistoryAnnotation])
	}
	if err := fc.m.Restart("default", "nginx-deployment"); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(400))
	if got := d.Spec.Template.Annotations[RestartedAtAnnotation]; got != "2026-01-01T00:04:00Z" {
		t.Fatalf("restartedAt %q", got)
	}
	if h, _ := fc.m.History("default", "nginx-deployment"); len(h) != 3 || !h[2].Current || h[2].Revision != 4 {
		t.Fatalf("history after restart %+v", h)
	}
	for _, p := range fc.pods {
		if p.Annotations[RestartedAtAnnotation] == "" {
			t.Fatalf("pod %s not replaced by the restart", p.Name)
		}
	}
}

func TestResolveFenceposts(t *testing.T) {
	for _, tc := range []struct {
		surge, unavail string
		desired        int32
		wantS, wantU   int32
	}{
		{"25%", "25%", 3, 1, 0},
		{"25%", "25%", 10, 3, 2},
		{"25%", "25%", 4, 1, 1},
		{"0", "0%", 3, 0, 1},
		{"1%", "0", 2, 1, 0},
		{"0%", "1%", 2, 0, 1},
		{"3", "2", 10, 3, 2},
		{"100%", "100%", 7, 7, 7},
	} {
		s, u, err := ResolveFenceposts(intStr(tc.surge), intStr(tc.unavail), tc.desired)
		if err != nil || s != tc.wantS || u != tc.wantU {
			t.Errorf("ResolveFenceposts(%s,%s,%d) = %d,%d,%v want %d,%d", tc.surge, tc.unavail, tc.desired, s, u, err, tc.wantS, tc.wantU)
		}
	}
	if _, _, err := ResolveFenceposts(intStr("abc"), nil, 3); err == nil {
		t.Error("a non-percentage string must be an error")
	}
}

func TestDeleteDeploymentCascades(t *testing.T) {
	for _, tc := range []struct {
		policy       string
		wantPods     int
		wantRS       int
		podsOrphaned bool
	}{
		{PropagationBackground, 0, 0, false},
		{PropagationForeground, 0, 0, false},
		{PropagationOrphan, 3, 1, true},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			fc := newFakeCluster(t, nodes(3)...)
			if _, err := fc.m.AddDeployment(nginxDeployment(3)); err != nil {
				t.Fatal(err)
			}
			fc.runUntil(sec(30))
			if err := fc.m.Delete(KindDeployment, "default", "nginx-deployment", tc.policy); err != nil {
				t.Fatal(err)
			}
			fc.runUntil(sec(31))
			if tc.policy != PropagationOrphan {
				for _, p := range fc.pods {
					if p.DeletionTimestamp == nil {
						t.Fatalf("pod %s not terminating 1s after the delete", p.Name)
					}
				}
			}
			fc.runUntil(sec(120))
			if len(fc.pods) != tc.wantPods || len(fc.m.ReplicaSets()) != tc.wantRS || (tc.policy != PropagationForeground && fc.m.Deployment("default", "nginx-deployment") != nil) {
				t.Fatalf("pods %d RS %d", len(fc.pods), len(fc.m.ReplicaSets()))
			}
			if tc.policy == PropagationForeground && fc.m.Deployment("default", "nginx-deployment") != nil {
				t.Fatal("foreground-deleted deployment not removed after its pods")
			}
			if tc.podsOrphaned && fc.m.ReplicaSets()[0].ControllerRef() != nil {
				t.Fatal("orphan delete must strip the owner reference")
			}
		})
	}
}
