package lab

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

func TestAutoscalerSectionErrors(t *testing.T) {
	head := "apiVersion: podlab/v1\nkind: Scenario\n"
	for _, c := range []struct{ body, want string }{
		{"autoscaler: {expander: cheapest, nodeGroups: [{name: a, max: 2}]}\n", `x.yaml:3:24: autoscaler.expander: unknown expander "cheapest"`},
		{"autoscaler:\n  nodeGroups:\n  - {name: a, min: 1}\n", "x.yaml:5:5: autoscaler.nodeGroups[0] needs max"},
		{"autoscaler:\n  nodeGroups:\n  - {name: a, min: 3, max: 2}\n", "min 3 is above max 2"},
		{"autoscaler:\n  nodeGroups:\n  - {name: a, max: 2}\n  - {name: a, max: 2}\n", `node group "a" is declared twice`},
		{"autoscaler:\n  nodeGroups:\n  - {name: Pool_A, max: 2}\n", "must be lower-case letters"},
		{"autoscaler:\n  nodeGroups:\n  - {name: a, max: 2, cpu: lots}\n", `autoscaler.nodeGroups[0].cpu: quantity "lots"`},
		{"autoscaler:\n  scaleDownUnneededTime: soon\n  nodeGroups: [{name: a, max: 2}]\n", `autoscaler.scaleDownUnneededTime: bad duration "soon"`},
		{"autoscaler:\n  scaleDownUtilizationThreshold: 2\n  nodeGroups: [{name: a, max: 2}]\n", "must be a number from 0.01 to 1"},
		{"autoscaler:\n  expanders: random\n  nodeGroups: [{name: a, max: 2}]\n", `autoscaler: unknown field "expanders"`},
		{"autoscaler: {expander: random}\n", "autoscaler needs nodeGroups"},
		{"autoscaler:\n  priorities: {high: [a]}\n  nodeGroups: [{name: a, max: 2}]\n", `priority "high" must be a whole number`},
	} {
		t.Run(c.want, func(t *testing.T) {
			_, err := LoadFile("x.yaml", []byte(head+c.body))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

const autoscalerScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: as}
seed: 3
autoscaler:
  nodeProvisioningTime: 30s
  nodeGroups:
  - {name: pool, min: 1, max: 3, zone: zone-a, cpu: "2", memory: 4Gi}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx
        resources: {requests: {cpu: 1200m, memory: 1Gi}}
`

func TestAutoscalerInASession(t *testing.T) {
	f, err := LoadFile("as.yaml", []byte(autoscalerScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(time.Minute); err != nil {
		t.Fatal(err)
	}
	if n := len(s.Engine().Nodes()); n != 3 {
		t.Fatalf("%d nodes after a minute, want 3", n)
	}
	var triggered []string
	for _, e := range s.Engine().Events() {
		if e.Reason == "TriggeredScaleUp" {
			triggered = append(triggered, e.Message)
		}
	}
	if len(triggered) != 2 || triggered[0] != "pod triggered scale-up: [{pool 1->3 (max: 3)}]" {
		t.Fatalf("TriggeredScaleUp events: %q", triggered)
	}
	out, err := s.Apply("autoscaler status")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"node groups:", "pool             zone zone-a     size 3 (min 1, max 3)  at max size", "in cooldown: scale-up at 0s"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if len(s.History()) != 0 {
		t.Fatalf("autoscaler status was recorded: %v", s.History())
	}
	v := s.AutoscalerView()
	if !v.Enabled || len(v.Groups) != 1 || len(v.ScaleDown) != 3 {
		t.Fatalf("view: %+v", v)
	}
}

// Saving keeps the autoscaler section, and the saved session resumes to
// the same cluster.
func TestAutoscalerSaveRoundTrip(t *testing.T) {
	f, err := LoadFile("as.yaml", []byte(autoscalerScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("advance 45s"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	f2, err := LoadFile("saved.yaml", buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	s2, err := NewSession(f2, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.advanceTo(s.Now()); err != nil {
		t.Fatal(err)
	}
	if a, b := nodeList(s.Engine()), nodeList(s2.Engine()); a != b {
		t.Fatalf("nodes %s, resumed %s", a, b)
	}
}

func nodeList(e *engine.Engine) string {
	var names []string
	for _, n := range e.Nodes() {
		names = append(names, n.Name)
	}
	return strings.Join(names, " ")
}

func TestNoAutoscaler(t *testing.T) {
	f, err := LoadFile("x.yaml", []byte("apiVersion: podlab/v1\nkind: Scenario\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Apply("autoscaler status")
	if err != nil || !strings.Contains(out, "no cluster autoscaler") {
		t.Fatalf("%q, %v", out, err)
	}
}

// The lownodeutilization-vs-scale-down preset's claim: without the
// descheduler pass the autoscaler has removed a node by 6m; with it, the
// refilled node makes the scale-down start over.
func TestLowNodeUtilizationDelaysScaleDown(t *testing.T) {
	for _, tc := range []struct {
		deschedule bool
		nodes      int
	}{{false, 2}, {true, 3}} {
		f, err := LoadPreset("lownodeutilization-vs-scale-down")
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSession(f, SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lines := []string{"scale deployment/web --replicas=5", "advance 2m", "scale deployment/web --replicas=4", "advance 2m"}
		if tc.deschedule {
			lines = append(lines, "deschedule")
		}
		for _, l := range append(lines, "advance 2m") {
			if _, err := s.Apply(l); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(s.Engine().Nodes()); n != tc.nodes {
			t.Errorf("deschedule=%v: %d nodes at %s, want %d", tc.deschedule, n, s.Now(), tc.nodes)
		}
	}
}

// Undo restores a checkpoint whose engine runs a clone of the
// autoscaler; the session's view follows it.
func TestAutoscalerViewAfterUndo(t *testing.T) {
	f, err := LoadFile("as.yaml", []byte(autoscalerScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"advance 20s", "advance 40s", "undo"} {
		if _, err := s.Apply(l); err != nil {
			t.Fatal(err)
		}
	}
	v := s.AutoscalerView()
	if s.Now() != api.Time(20*time.Second) || v.LoopAt != s.Now() {
		t.Fatalf("after undo: now %s, view loop at %s", s.Now(), v.LoopAt)
	}
	found := false
	for _, c := range s.Engine().Controllers() {
		if c == any(s.Autoscaler()) {
			found = true
		}
	}
	if !found {
		t.Fatal("the session's autoscaler is not the engine's")
	}
}
