package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ghostTimeline is issue 17's repro: a timeline entry naming a pod that
// does not exist. It used to be recorded internally and never shown.
const ghostTimeline = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: ghost}
cluster:
  node: {cpu: "4", memory: 8Gi, pods: 110}
  zones: [{name: zone-a, nodes: 1}]
timeline:
- {at: 1s, do: "delete pod ghost"}
lesson:
  steps:
  - title: nothing to do
    checks:
    - check: pending(deployment/web) == 0
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
`

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunReportsAFailedTimelineCommandAndExitsOne(t *testing.T) {
	path := writeTemp(t, "ghost.yaml", ghostTimeline)
	for _, output := range []string{"text", "json"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"run", "-f", path, "--for", "10s", "-o", output}, nil, &stdout, &stderr)
		if code != 1 {
			t.Errorf("-o %s: exit %d, want 1 (stderr %q)", output, code, stderr.String())
		}
		out := stdout.String()
		if !strings.Contains(out, "TimelineCommandFailed") || !strings.Contains(out, "delete pod ghost") {
			t.Errorf("-o %s: the failure is not in the output:\n%s", output, out)
		}
		if !strings.Contains(stderr.String(), "1 timeline command failed") || !strings.Contains(stderr.String(), "ghost.yaml:8:3") {
			t.Errorf("-o %s: stderr %q does not say which command failed and where", output, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "-f", path, "--for", "10s", "-o", "json"}, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(stdout.String(), `"kind":"timelineFailure"`) {
		t.Errorf("json has no timelineFailure line:\n%s", stdout.String())
	}
}

func TestRunWithAFineTimelineExitsZero(t *testing.T) {
	path := writeTemp(t, "fine.yaml", strings.Replace(ghostTimeline, "delete pod ghost", "cordon node-1", 1))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "-f", path, "--for", "10s"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if strings.Contains(stdout.String(), "TimelineCommandFailed") {
		t.Fatalf("a failure reported for a command that worked:\n%s", stdout.String())
	}
}

func TestCheckFailsOnAFailedTimelineCommand(t *testing.T) {
	path := writeTemp(t, "ghost.yaml", ghostTimeline)
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "-f", path, "--solutions"}, nil, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1 (stderr %q)", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "! timeline: at 1s, delete pod ghost failed") {
		t.Errorf("check does not print the failure:\n%s", stdout.String())
	}
}

func TestCompareExitsOneOnAFailedTimelineCommand(t *testing.T) {
	path := writeTemp(t, "ghost.yaml", ghostTimeline)
	var stdout, stderr bytes.Buffer
	code := run([]string{"compare", "-f", path, "--for", "10s", "--b", "cordon node-1"}, nil, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "lane a: 1 timeline command failed: at 1s, delete pod ghost failed") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}

func TestDescribeExitsOneOnAFailedTimelineCommand(t *testing.T) {
	path := writeTemp(t, "ghost.yaml", ghostTimeline+"---\napiVersion: v1\nkind: Pod\nmetadata: {name: solo}\nspec:\n  containers: [{name: c, image: nginx}]\n")
	var stdout, stderr bytes.Buffer
	code := run([]string{"describe", "-f", path, "--pod", "solo", "--at", "5s"}, nil, &stdout, &stderr)
	if code != 1 || !strings.Contains(stdout.String(), "solo") || !strings.Contains(stderr.String(), "1 timeline command failed: at 1s, delete pod ghost failed") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
