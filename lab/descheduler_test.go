package lab

import (
	"strings"
	"testing"

	"podlab.dev/podlab/lab/manifest"
	"podlab.dev/podlab/presets"
)

const policyScenario = `apiVersion: podlab/v1
kind: Scenario
descheduler: {deschedulingInterval: 1m}
cluster:
  zones:
  - {name: zone-a, nodes: 1}
  - {name: zone-b, nodes: 1}
---
apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
maxNoOfPodsToEvictTotal: 3
profiles:
- name: p
  pluginConfig:
  - name: DefaultEvictor
    args: {nodeFit: true, surprise: 1}
  plugins:
    balance:
      enabled: [RemovePodsViolatingTopologySpreadConstraint]
`

func TestDeschedulerPolicyDecodes(t *testing.T) {
	f, err := LoadFile("s.yaml", []byte(policyScenario))
	if err != nil {
		t.Fatal(err)
	}
	d := f.Descheduler
	if d == nil || d.Policy == nil || len(d.Policy.Profiles) != 1 || !d.Policy.Profiles[0].Evictor.NodeFit || *d.Policy.MaxNoOfPodsToEvictTotal != 3 {
		t.Fatalf("policy %+v", d)
	}
	if f.Scenario.Descheduler.DeschedulingInterval.String() != "1m0s" {
		t.Errorf("interval %v", f.Scenario.Descheduler.DeschedulingInterval)
	}
	var warned bool
	for _, w := range f.Objects.Warnings {
		if strings.Contains(w.Message, `unknown field "surprise"`) && w.Line == 16 {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning for the unknown field at line 16: %v", f.Objects.Warnings)
	}
}

func TestDeschedulerPolicyErrorsHavePositions(t *testing.T) {
	bad := strings.Replace(policyScenario, "maxNoOfPodsToEvictTotal: 3", "maxNoOfPodsToEvictTotal: lots", 1)
	bad = strings.Replace(bad, "enabled: [RemovePodsViolatingTopologySpreadConstraint]", "enabled: [RemovePodsViolatingNodeTaints]", 1)
	_, err := LoadFile("s.yaml", []byte(bad))
	me, ok := err.(*manifest.Error)
	if !ok {
		t.Fatalf("err %v", err)
	}
	got := ""
	for _, d := range me.Diagnostics {
		got += d.String() + "\n"
	}
	for _, want := range []string{"s.yaml:11:26", "maxNoOfPodsToEvictTotal must be a whole number", "is not a balance plugin"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestDescheduleCommandRebalances(t *testing.T) {
	f, err := LoadFile("p.yaml", mustPreset(t, "descheduler-rebalance"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"scale deployment/web --replicas=6", "advance 2m", "scale deployment/web --replicas=3", "advance 2m"} {
		if _, err := s.Apply(l); err != nil {
			t.Fatal(err)
		}
	}
	out, err := s.Apply("deschedule --dry-run")
	if err != nil || !strings.Contains(out, "would be evicted (RemovePodsViolatingTopologySpreadConstraint") || !strings.Contains(out, "skew 2 > maxSkew 1") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	if prev := s.DeschedulePreview(); prev.Evicted() != 1 {
		t.Errorf("preview evicts %d, want 1", prev.Evicted())
	}
	out, err = s.Apply("deschedule")
	if err != nil || !strings.Contains(out, "— evicted (") {
		t.Fatalf("deschedule: %v\n%s", err, out)
	}
	if _, err := s.Apply("advance 1m"); err != nil {
		t.Fatal(err)
	}
	if prev := s.DeschedulePreview(); len(prev.Evictions) != 0 {
		t.Errorf("after rebalancing the preview still evicts %+v", prev.Evictions)
	}
}

func mustPreset(t *testing.T, name string) []byte {
	t.Helper()
	b, err := presets.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
