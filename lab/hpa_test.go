package lab

import (
	"strings"
	"testing"

	"podlab.dev/podlab/lab/manifest"
)

func (s *Session) applyInline(text string) (string, error) {
	objs, err := manifest.Load("inline.yaml", []byte(text), manifest.Options{})
	if err != nil {
		return "", err
	}
	return s.applyObjects(objs)
}

func hpaSession(t *testing.T) *Session {
	t.Helper()
	f, err := LoadFile("example.yaml", mustRead(t, "testdata/example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// kubectl autoscale, a scripted load and the HPA's table: the same
// commands give the same table after undo and replay.
func TestAutoscaleAndScriptedLoad(t *testing.T) {
	s := hpaSession(t)
	out, err := s.Apply("autoscale deployment/web --min=2 --max=10 --cpu-percent=50")
	if err != nil || out != "horizontalpodautoscaler.autoscaling/web autoscaled" {
		t.Fatalf("autoscale: %q %v", out, err)
	}
	if _, err := s.Apply("autoscale deployment/web --max=3"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("second autoscale: %v", err)
	}
	out, err = s.Apply("usage deployment/web cpu=80% at 1m")
	if err != nil || !strings.Contains(out, "from 1m") {
		t.Fatalf("usage: %q %v", out, err)
	}
	if _, err := s.Apply("advance 30s"); err != nil {
		t.Fatal(err)
	}
	rows := s.HPARows()
	if len(rows) != 1 || !strings.HasPrefix(rows[0].Targets, "cpu: <unknown>/50%") {
		t.Fatalf("before the load (no usage modelled): %+v", rows)
	}
	if _, err := s.Apply("advance 2m"); err != nil {
		t.Fatal(err)
	}
	rows = s.HPARows()
	if rows[0].Replicas <= 8 || rows[0].Reference != "Deployment/web" {
		t.Fatalf("after the load: %+v", rows[0])
	}
	before := rows[0]
	if r, ok := s.HPAOf("deployment", "default", "web"); !ok || r.Name != "web" {
		t.Fatalf("HPAOf: %+v %v", r, ok)
	}
	if _, ok := s.HPAOf("statefulset", "default", "web"); ok {
		t.Fatal("HPAOf matched the wrong kind")
	}
	if _, err := s.Apply("usage deployment/web cpu=1 at 10s"); err == nil || !strings.Contains(err.Error(), "in the past") {
		t.Fatalf("past load: %v", err)
	}
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("advance 2m"); err != nil {
		t.Fatal(err)
	}
	if got := s.HPARows()[0]; got.Replicas != before.Replicas || got.Targets != before.Targets {
		t.Fatalf("replay differs: %+v vs %+v", got, before)
	}
	if _, err := s.Apply("delete hpa web"); err != nil {
		t.Fatal(err)
	}
	if len(s.HPARows()) != 0 {
		t.Fatal("hpa not deleted")
	}
}

// An HPA applied from a manifest, and a pod's own cpu use.
func TestApplyHPAAndPodCPU(t *testing.T) {
	s := hpaSession(t)
	m := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 4\n"
	out, err := s.applyInline(m)
	if err != nil || out != "horizontalpodautoscaler.autoscaling/web created" {
		t.Fatalf("apply: %q %v", out, err)
	}
	out, err = s.applyInline(strings.Replace(m, "maxReplicas: 4", "maxReplicas: 5", 1))
	if err != nil || out != "horizontalpodautoscaler.autoscaling/web configured" || s.HPARows()[0].MaxPods != 5 {
		t.Fatalf("re-apply: %q %v", out, err)
	}
	if s.HPARows()[0].Targets != "cpu: <unknown>/80%" {
		t.Fatalf("defaulted metric: %q", s.HPARows()[0].Targets)
	}
}

// A pod's own cpu use overrides its workload's share, and the HPA's
// average reflects it.
func TestPodCPUOverride(t *testing.T) {
	s := hpaSession(t)
	if _, err := s.Apply("autoscale deployment/web --min=1 --max=20 --cpu-percent=50"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("usage deployment/web cpu=50%"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("advance 20s"); err != nil {
		t.Fatal(err)
	}
	pods := s.workloadPods("deployment", "default", "web")
	if len(pods) == 0 {
		t.Fatal("no pods")
	}
	out, err := s.Apply("usage pod/" + pods[0].Name + " cpu=1")
	if err != nil || !strings.Contains(out, "cpu usage 1") {
		t.Fatalf("%q %v", out, err)
	}
	if v, ok := s.ctl.PodCPUUsage(s.Engine().Pod(pods[0].Key())); !ok || v != 1000 {
		t.Fatalf("pod cpu %d %v", v, ok)
	}
	if v, ok := s.ctl.PodCPUUsage(s.Engine().Pod(pods[1].Key())); !ok || v != 50 {
		t.Fatalf("share %d %v, want 50m (50%% of 100m)", v, ok)
	}
}
