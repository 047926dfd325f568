package lab

import (
	"os"
	"strings"
	"testing"

	"podlab.dev/podlab/lab/manifest"
)

// FuzzLoadFile feeds the scenario loader (header + manifests) arbitrary
// input: it never panics, and every error names a position in the file.
func FuzzLoadFile(f *testing.F) {
	for _, p := range []string{"testdata/example.yaml", "../presets/spread-basics.yaml", "../presets/graceful-termination.yaml", "testdata/kubectl-get-all.yaml", "../presets/autoscaler-zone-spread.yaml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("apiVersion: podlab/v1\nkind: Scenario\ntimeline: [{at: 1s, do: cordon x}]\n"))
	// a valid workload beyond the object budget, and a use beyond the model (issue 17)
	f.Add([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  replicas: 1000000000\n  selector: {matchLabels: {a: w}}\n  template:\n    metadata: {labels: {a: w}}\n    spec: {containers: [{name: c, image: i}]}\n"))
	f.Add([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {lab.podlab.dev/memory-usage: 1e30%}}\nspec: {containers: [{name: c, image: i}]}\n"))
	f.Add([]byte("apiVersion: podlab/v1\nkind: Scenario\nlesson: {steps: [{title: a, checks: [\"skew(deployment/w, zone) <= 1\"]}]}\n---\n"))
	f.Add([]byte("apiVersion: podlab/v1\nkind: Scenario\nclock: {paused: true, speed: 4}\ndescheduler: {deschedulingInterval: 5m}\nlesson: {step: 2, steps: [{title: a}, {title: b}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := LoadFile("fuzz.yaml", data)
		if err != nil {
			var me *manifest.Error
			if !asManifestError(err, &me) {
				if !strings.HasPrefix(err.Error(), "fuzz.yaml:") {
					t.Fatalf("error without a position: %v", err)
				}
				return
			}
			for _, d := range me.Diagnostics {
				if d.File == "" || d.Line < 1 {
					t.Fatalf("diagnostic without a position: %+v", d)
				}
			}
			return
		}
		// A file that loads must also open as a session or say why.
		if file.Scenario != nil {
			if _, err := file.Scenario.Cluster.Nodes(); err != nil {
				return
			}
		}
		_, _ = NewSession(file, SessionOptions{})
	})
}

func asManifestError(err error, target **manifest.Error) bool {
	me, ok := err.(*manifest.Error)
	if ok {
		*target = me
	}
	return ok
}
