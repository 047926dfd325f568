package lab

import (
	"strings"
	"testing"
	"time"
)

const crashScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: crash}
cluster: {zones: [{name: zone-a, names: [n1]}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
  annotations: {lab.podlab.dev/exit: "1@20s", lab.podlab.dev/exit.migrate: "0@3s"}
spec:
  initContainers: [{name: migrate, image: busybox}]
  containers:
  - name: app
    image: nginx
    readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}
---
apiVersion: v1
kind: Pod
metadata: {name: api, labels: {app: api}}
spec:
  containers:
  - name: app
    image: nginx
    readinessProbe: {tcpSocket: {port: 80}}
`

// describe pod shows what kubectl describe shows: the init container
// completed, the app container backing off with its last termination and
// restart count, the probes, the conditions and the kubelet's events.
func TestDescribePodCrashLoop(t *testing.T) {
	f, err := LoadFile("crash.yaml", []byte(crashScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(3 * time.Minute); err != nil {
		t.Fatal(err)
	}
	out, err := s.DescribePod("web")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Status:           Running",
		"Init Containers:\n  migrate:\n    Image:          busybox\n    State:          Terminated\n      Reason:       Completed\n      Exit Code:    0",
		"    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n      Started:      155s\n      Finished:     175s",
		"    Restart Count:  4\n",
		"    Readiness:      http-get delay=0s timeout=1s period=5s #success=1 #failure=3",
		"  Ready                        False   175s",
		"Normal   Started              25s (x5 over 2m55s)    kubelet            Started container app\n",
		"Warning  BackOff              5s (x4 over 2m15s)     kubelet            Back-off restarting failed container app in pod web_default(",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("describe lacks %q:\n%s", want, out)
		}
	}
	if got := PodHealth(s.Engine().Pod("default/web")); got != "crash-loop" {
		t.Errorf("PodHealth(web) = %q, want crash-loop", got)
	}
}

// break pod / heal pod drive the readiness probe through the session.
func TestBreakAndHealPod(t *testing.T) {
	f, err := LoadFile("crash.yaml", []byte(crashScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got := PodHealth(s.Engine().Pod("default/api")); got != "" {
		t.Fatalf("api health %q at 5s, want ready", got)
	}
	if _, err := s.Apply("break pod api readiness"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("break pod api liveness"); err == nil || !strings.Contains(err.Error(), "has no liveness probe") {
		t.Fatalf("break liveness without a probe: %v, want an error naming the missing probe", err)
	}
	// probes at 12, 22, 32 fail ⇒ not ready at 32s
	if err := s.Advance(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got := PodHealth(s.Engine().Pod("default/api")); got != "not-ready" {
		t.Fatalf("api health %q at 35s, want not-ready", got)
	}
	if _, err := s.Apply("heal pod api"); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got := PodHealth(s.Engine().Pod("default/api")); got != "" {
		t.Fatalf("api health %q after heal, want ready", got)
	}
	// undo goes back to just before the heal (35s, not ready); redo heals
	// again at 35s and the next probe (42s) makes it ready
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := PodHealth(s.Engine().Pod("default/api")); got != "not-ready" || s.Now() != 35*1e9 {
		t.Fatalf("after undo: health %q at %v, want not-ready at 35s", got, s.Now())
	}
	if _, err := s.Redo(); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got := PodHealth(s.Engine().Pod("default/api")); got != "" {
		t.Fatalf("api health %q after undo/redo, want ready", got)
	}
}

// The palette completes break pod's probe and the pod names.
func TestCompleteBreakPod(t *testing.T) {
	f, err := LoadFile("crash.yaml", []byte(crashScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, got := s.Complete("break pod api re"); len(got) != 1 || got[0] != "readiness" {
		t.Errorf("break pod api re → %v, want [readiness]", got)
	}
	if _, got := s.Complete("heal pod a"); len(got) != 1 || got[0] != "api" {
		t.Errorf("heal pod a → %v, want [api]", got)
	}
	if _, got := s.Complete("br"); len(got) != 1 || got[0] != "break" {
		t.Errorf("br → %v, want [break]", got)
	}
}

// The container timeline of a crash-looping pod: the init container's
// run, then runs of 20 s separated by back-off waits of 10, 20, 40 s.
func TestContainerTimeline(t *testing.T) {
	f, err := LoadFile("crash.yaml", []byte(crashScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(2 * time.Minute); err != nil {
		t.Fatal(err)
	}
	spans, _ := s.ContainerTimeline("default/web")
	var got []string
	for _, sp := range spans {
		got = append(got, sp.Container+" "+sp.Kind+" "+sp.From.String()+"-"+sp.To.String())
	}
	want := []string{
		"migrate init 2s-5s",
		"app run 5s-25s", "app run 25s-45s", "app back-off 45s-55s", "app run 55s-75s",
		"app back-off 75s-95s", "app run 95s-115s", "app back-off 115s-120s",
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Fatalf("spans\n%s\nwant\n%s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
}
