package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"podlab.dev/podlab/lab"
)

const crashLab = `apiVersion: podlab/v1
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
`

// The explain view of a crash-looping pod shows, under the scheduler's
// verdicts, its state as kubectl describe does: the completed init
// container, the app container in CrashLoopBackOff with its last
// termination and restart count, and the conditions.
func TestExplainDescribesThePod(t *testing.T) {
	f, err := lab.LoadFile("crash.yaml", []byte(crashLab))
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	sess, err := lab.NewSession(f, lab.SessionOptions{Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Advance(3 * time.Minute); err != nil {
		t.Fatal(err)
	}
	m := New(sess, Options{Theme: "dark", NoColor: true, Paused: true})
	update(m, tea.WindowSizeMsg{Width: 100, Height: 62})
	press(m, "2")
	s := screen(m)
	for _, want := range []string{"kubectl describe pod default/web", "Reason:       CrashLoopBackOff", "Restart Count:  4", "Conditions:", "ContainersReady", "containers over virtual time"} {
		if !strings.Contains(s, want) {
			t.Fatalf("explain lacks %q:\n%s", want, s)
		}
	}
	golden.RequireEqual(t, s)
}
