package controllers

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestRandomOperationsConverge drives the controllers with random user
// operations (scale, image changes, undo, restart, pause, pod deletions,
// node loss) and checks that, given room and time, every workload
// converges to its spec, that no rollout instant exceeds
// replicas+maxSurge non-terminating pods when replicas did not change,
// and that a run is reproducible.
func TestRandomOperationsConverge(t *testing.T) {
	for seed := uint64(1); seed <= 25; seed++ {
		a := runRandomOps(t, seed)
		b := runRandomOps(t, seed)
		if a != b {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

func runRandomOps(t *testing.T, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 7))
	fc := newFakeCluster(t, nodes(6)...)
	fc.m = New(fc, int64(seed))
	d := nginxDeployment(3)
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: intStr(fmt.Sprint(r.IntN(3))), MaxUnavailable: intStr(fmt.Sprint(1 + r.IntN(2)))}}
	if _, err := fc.m.AddDeployment(d); err != nil {
		t.Fatal(err)
	}
	if _, err := fc.m.AddStatefulSet(webStatefulSet(2, "")); err != nil {
		t.Fatal(err)
	}
	if _, err := fc.m.AddDaemonSet(fluentd()); err != nil {
		t.Fatal(err)
	}
	now := api.Time(0)
	var steady bool
	fc.afterInstant = func(at api.Time) {
		dep := fc.m.Deployment("default", "nginx-deployment")
		if !steady || dep.Spec.Paused {
			return
		}
		live := 0
		for _, p := range fc.pods {
			if p.Labels["app"] == "nginx" && p.Namespace == "default" && p.DeletionTimestamp == nil && !p.IsTerminal() && strings.HasPrefix(p.Name, "nginx-deployment") {
				live++
			}
		}
		if limit := int(*dep.Spec.Replicas + maxSurge(dep)); live > limit {
			t.Errorf("seed %d at %v: %d deployment pods > %d", seed, at, live, limit)
		}
	}
	for op := 0; op < 40; op++ {
		steady = true
		switch r.IntN(9) {
		case 0:
			steady = false
			_ = fc.m.Scale(KindDeployment, "default", "nginx-deployment", int32(r.IntN(8)))
		case 1:
			_ = fc.m.SetImage("default", "nginx-deployment", "app", fmt.Sprintf("nginx:%d", r.IntN(3)))
		case 2:
			_, _ = fc.m.Undo("default", "nginx-deployment", 0)
		case 3:
			_ = fc.m.Restart("default", "nginx-deployment")
		case 4:
			_ = fc.m.Pause("default", "nginx-deployment", r.IntN(2) == 0)
		case 5:
			_ = fc.m.Scale(KindStatefulSet, "default", "web", int32(r.IntN(5)))
		case 6:
			pods := fc.podsWith(func(p *api.Pod) bool { return p.DeletionTimestamp == nil })
			if len(pods) > 0 {
				p := pods[r.IntN(len(pods))]
				_ = fc.DeletePod(p.Namespace, p.Name)
			}
		case 7:
			_ = fc.m.UpdateStatefulSet("default", "web", func(s *api.StatefulSetSpec) {
				s.Template.Spec.Containers[0].Image = fmt.Sprintf("slim:%d", r.IntN(3))
			})
		case 8:
			_ = fc.m.UpdateDaemonSet("kube-system", "fluentd-elasticsearch", func(s *api.DaemonSetSpec) {
				s.Template.Spec.Containers[0].Image = fmt.Sprintf("fluentd:%d", r.IntN(3))
			})
		}
		now += sec(float64(1 + r.IntN(40)))
		fc.runUntil(now)
	}
	_ = fc.m.Pause("default", "nginx-deployment", false)
	fc.runUntil(now + sec(2000))

	dep := fc.m.Deployment("default", "nginx-deployment")
	want := *dep.Spec.Replicas
	if dep.Status.Replicas != want || dep.Status.UpdatedReplicas != want || dep.Status.AvailableReplicas != want {
		t.Errorf("seed %d: deployment did not converge: spec %d status %+v", seed, want, dep.Status)
	}
	img := dep.Spec.Template.Spec.Containers[0].Image
	sts := fc.m.StatefulSet("default", "web")
	var stsPods []string
	live := 0
	for _, p := range fc.podsWith(func(p *api.Pod) bool { return p.DeletionTimestamp == nil }) {
		if strings.HasPrefix(p.Name, "nginx-deployment") {
			live++
			if p.Spec.Containers[0].Image != img {
				t.Errorf("seed %d: pod %s runs %s, want %s", seed, p.Name, p.Spec.Containers[0].Image, img)
			}
		}
		if parent, _ := parentAndOrdinal(p.Name); parent == "web" {
			stsPods = append(stsPods, p.Name)
		}
	}
	if live != int(want) {
		t.Errorf("seed %d: %d deployment pods, want %d", seed, live, want)
	}
	var wantSts []string
	for i := 0; i < int(*sts.Spec.Replicas); i++ {
		wantSts = append(wantSts, fmt.Sprintf("web-%d", i))
	}
	if strings.Join(stsPods, ",") != strings.Join(wantSts, ",") || sts.Status.UpdatedReplicas != *sts.Spec.Replicas {
		t.Errorf("seed %d: statefulset pods %v status %+v, want %v", seed, stsPods, sts.Status, wantSts)
	}
	ds := fc.m.DaemonSet("kube-system", "fluentd-elasticsearch")
	if ds.Status.NumberAvailable != 6 || ds.Status.UpdatedNumberScheduled != 6 {
		t.Errorf("seed %d: daemonset status %+v", seed, ds.Status)
	}
	var sb strings.Builder
	for _, e := range fc.events {
		fmt.Fprintf(&sb, "%v %s %s\n", e.Time, e.Reason, e.Message)
	}
	return sb.String()
}
