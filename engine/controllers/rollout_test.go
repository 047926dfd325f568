package controllers

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

func rsWith(name string, replicas int32, annotations map[string]string) *ReplicaSet {
	return &ReplicaSet{ReplicaSet: api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Annotations: annotations},
		Spec: api.ReplicaSetSpec{Replicas: ptr(replicas)}}}
}

func rollingDeployment(replicas int32, surge, unavailable string) *Deployment {
	d := &Deployment{Deployment: api.Deployment{Spec: api.DeploymentSpec{Replicas: ptr(replicas),
		Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: intStr(surge), MaxUnavailable: intStr(unavailable)}}}}}
	return d
}

// deployment/util NewRSNewReplicas cases.
func TestNewRSNewReplicas(t *testing.T) {
	for _, tc := range []struct {
		name         string
		d            *Deployment
		newRS, oldRS int32
		want         int32
	}{
		{"surge room", rollingDeployment(10, "3", "2"), 0, 10, 3},
		{"no room left", rollingDeployment(10, "3", "2"), 3, 10, 3},
		{"never above replicas", rollingDeployment(10, "30%", "0"), 8, 2, 10},
		{"percent surge rounds up", rollingDeployment(3, "25%", "25%"), 0, 3, 1},
		{"recreate jumps to replicas", &Deployment{Deployment: api.Deployment{Spec: api.DeploymentSpec{Replicas: ptr(int32(4)), Strategy: api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}}}}, 0, 0, 4},
	} {
		newRS, oldRS := rsWith("new", tc.newRS, nil), rsWith("old", tc.oldRS, nil)
		if got := newRSNewReplicas(tc.d, []*ReplicaSet{oldRS, newRS}, newRS); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// deployment/util GetReplicaSetProportion cases: the share of a scaling
// step an RS gets from max-replicas, bounded by what is left to add.
func TestReplicaSetProportion(t *testing.T) {
	d := rollingDeployment(15, "3", "2") // new max 18, annotations say 13
	ann := map[string]string{MaxReplicasAnnotation: "13"}
	for _, tc := range []struct {
		name         string
		rs           *ReplicaSet
		toAdd, added int32
		want         int32
	}{
		{"8 of 13 -> round(8*18/13)=11: +3", rsWith("old", 8, ann), 5, 0, 3},
		{"5 of 13 -> round(5*18/13)=7: +2", rsWith("new", 5, ann), 5, 3, 2},
		{"capped by what is left", rsWith("new", 5, ann), 5, 4, 1},
		{"empty RS gets nothing", rsWith("empty", 0, ann), 5, 0, 0},
		{"nothing left", rsWith("old", 8, ann), 5, 5, 0},
		{"no annotation: falls back to status.replicas 0", rsWith("old", 8, nil), 5, 0, 0},
	} {
		if got := replicaSetProportion(tc.rs, d, tc.toAdd, tc.added); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	down := rollingDeployment(5, "3", "2") // max 8, was 13
	if got := replicaSetProportion(rsWith("old", 8, ann), down, -5, 0); got != -3 {
		t.Errorf("scale-down share: %d, want -3 (round(8*8/13)=5)", got)
	}
}

func TestRolloutStatusMessages(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	if _, err := fc.m.AddDeployment(nginxDeployment(3)); err != nil {
		t.Fatal(err)
	}
	fc.m.SetNow(0)
	msg, done, _ := fc.m.RolloutStatus("default", "nginx-deployment")
	if done || msg != "Waiting for deployment spec update to be observed..." {
		t.Fatalf("%q", msg)
	}
	fc.runUntil(sec(1))
	msg, _, _ = fc.m.RolloutStatus("default", "nginx-deployment")
	if msg != `Waiting for deployment "nginx-deployment" rollout to finish: 0 of 3 updated replicas are available...` {
		t.Fatalf("%q", msg)
	}
	fc.runUntil(sec(30))
	if msg, done, _ = fc.m.RolloutStatus("default", "nginx-deployment"); !done || msg != `deployment "nginx-deployment" successfully rolled out` {
		t.Fatalf("%q", msg)
	}
}
