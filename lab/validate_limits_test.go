package lab

import (
	"bytes"
	"strings"
	"testing"
)

const validateLimitsScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: limits}
timeline:
- ENTRY
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: i}]}
`

// A timeline entry past the clock's end never runs: `at: 1000000h` was
// "valid". And a command the object budget refuses whatever the cluster
// holds (300,000 nodes) is one validate can tell will fail.
func TestValidateTimelineLimits(t *testing.T) {
	for _, tc := range []struct{ entry, want string }{
		{`{at: 1000000h, do: "cordon n1"}`, "t.yaml:5:8: timeline[0].at: the virtual clock stops at 100 years (876000h0m0s); 1000000h0m0s is beyond it"},
	} {
		_, err := LoadFile("t.yaml", []byte(strings.Replace(validateLimitsScenario, "ENTRY", tc.entry, 1)))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n%v\nwant %s", tc.entry, err, tc.want)
		}
	}
	for _, tc := range []struct{ entry, want string }{
		{`{at: 1s, do: "add zone zz --nodes 300000"}`, `t.yaml:5:3: timeline[0] (at 1s): add zone zz --nodes 300000: nodes is forbidden: exceeded quota: podlab-object-budget, requested: objects=300000, used: objects=2, limited: objects=200000 (the command will fail when it runs)`},
		{`{at: 1s, do: "scale deployment/web --replicas=300000"}`, `scale deployment/web --replicas=300000: pods is forbidden: exceeded quota: podlab-object-budget, requested: objects=300000`},
	} {
		f, err := LoadFile("t.yaml", []byte(strings.Replace(validateLimitsScenario, "ENTRY", tc.entry, 1)))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := Validate(&out, f); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%s:\n%s\nwant %s", tc.entry, out.String(), tc.want)
		}
	}
	// within the clock and the budget: valid, no warning
	f, err := LoadFile("t.yaml", []byte(strings.Replace(validateLimitsScenario, "ENTRY", `{at: 876000h, do: "add zone zz --nodes 3"}`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Validate(&out, f); err != nil || strings.Contains(out.String(), "warning") {
		t.Fatalf("%v\n%s", err, out.String())
	}
}
