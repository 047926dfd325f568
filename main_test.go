package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// evilLesson is a lesson whose header carries the escape sequences of the
// issue: SGR blink (ESC[5m), OSC 52 (write the clipboard), OSC 0 (retitle
// the window) and CSI 2J (clear the screen), as YAML escapes — the loader
// decodes them into the strings the commands print. A solution that fails
// makes the step title appear in an error message too.
const evilLesson = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: evil}
title: "Evil \e]0;owned\a title"
cluster:
  node: {cpu: "4", memory: 8Gi, pods: 110}
  zones: [{name: zone-a, nodes: 2}]
lesson:
  steps:
  - title: "Blink \e[5mnow\e[0m, copy \e]52;c;ZWNobyBoaQ==\a, clear \e[2J\e[H"
    text: "Prose \e[2J"
    do: [cordon node-1]
    checks:
    - check: pending(deployment/web) == 0
      hint: "hint \e]52;c;AAAA\a"
  - title: "Broken \e[5m step"
    solution: [cordon node-9]
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: {note: "\e[2J\u202e"}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "64"}}}]
`

// assertSafe fails if out holds anything a terminal acts on: C0 controls
// other than newline, DEL, C1 controls or bidi overrides.
func assertSafe(t *testing.T, what, out string) {
	t.Helper()
	for i, r := range out {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Errorf("%s: raw %U at byte %d: %q", what, r, i, out[max(0, i-20):min(len(out), i+20)])
			return
		}
	}
}

func TestHeadlessOutputsShowEscapesVisibly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evil.yaml")
	if err := os.WriteFile(path, []byte(evilLesson), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		// want is in stdout+stderr: the payload shown in caret notation.
		want string
		json bool
	}{
		{args: []string{"check", "-f", path}, want: "Blink ^[[5mnow^[[0m, copy ^[]52;c;ZWNobyBoaQ==^G, clear ^[[2J^[[H"},
		{args: []string{"check", "-f", path, "--solutions"}, want: "step 2 (Broken ^[[5m step): solution"},
		{args: []string{"validate", "-f", path}, want: "valid"},
		{args: []string{"explain", "-f", path, "--pod", "big"}, want: "pod default/big"},
		{args: []string{"explain", "-f", path, "--pod", "big", "-o", "json"}, json: true},
		{args: []string{"schedule", "-f", path}, want: "default/big"},
		{args: []string{"schedule", "-f", path, "-o", "json"}, json: true},
		{args: []string{"run", "-f", path, "--for", "1m", "--do", "cordon node-2"}, want: "NodeNotSchedulable"},
		{args: []string{"run", "-f", path, "--for", "1m", "-o", "json"}, json: true},
		{args: []string{"export", path}, want: "#  1. Blink ^[[5mnow^[[0m"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:1], " ")+strings.Join(tt.args[min(3, len(tt.args)):], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			run(tt.args, strings.NewReader(""), &stdout, &stderr)
			all := stdout.String() + stderr.String()
			assertSafe(t, "stdout", stdout.String())
			assertSafe(t, "stderr", stderr.String())
			if !strings.Contains(all, tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, all)
			}
			if tt.json {
				dec := json.NewDecoder(&stdout)
				for dec.More() {
					var v any
					if err := dec.Decode(&v); err != nil {
						t.Fatalf("JSON output does not decode: %v", err)
					}
				}
			}
		})
	}
}

func TestErrorMessagesQuotingInputAreSafe(t *testing.T) {
	var stdout, stderr bytes.Buffer
	run([]string{"check", "-f", "no\x1b[2Jsuch.yaml"}, strings.NewReader(""), &stdout, &stderr)
	assertSafe(t, "stderr", stderr.String())
	if !strings.Contains(stderr.String(), "no^[[2Jsuch.yaml") {
		t.Errorf("stderr = %q, want the file name shown visibly", stderr.String())
	}
}
