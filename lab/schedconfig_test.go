package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"podlab.dev/podlab/engine"
)

const twoProfilesScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: two-profiles}
seed: 1
scheduler: {tieBreak: name}
cluster:
  node: {cpu: "4", memory: 8Gi}
  zones:
  - {name: a, nodes: 2}
---
apiVersion: v1
kind: Pod
metadata: {name: busy}
spec:
  nodeName: node-2
  containers: [{name: c, image: x, resources: {requests: {cpu: "2", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: spread}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: packed}
spec:
  schedulerName: bin-packer
  containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: orphan}
spec:
  schedulerName: my-scheduler
  containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`

const binPackerConfig = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: bin-packer
  plugins:
    score:
      disabled:
      - name: NodeResourcesBalancedAllocation
      - name: PodTopologySpread
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
`

func TestSchedulerConfigProfilesInSession(t *testing.T) {
	for _, how := range []string{"document", "configFile", "flag"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			scen := twoProfilesScenario
			switch how {
			case "document":
				scen += "---\n" + binPackerConfig
			case "configFile":
				scen = strings.Replace(scen, "scheduler: {tieBreak: name}", "scheduler: {tieBreak: name, configFile: sched.yaml}", 1)
			}
			if err := os.WriteFile(filepath.Join(dir, "sched.yaml"), []byte(binPackerConfig), 0o644); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "s.yaml")
			if err := os.WriteFile(path, []byte(scen), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if how == "flag" {
				if err := f.UseSchedulerConfigFile(filepath.Join(dir, "sched.yaml")); err != nil {
					t.Fatal(err)
				}
			}
			s, err := NewSession(f, SessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			e := s.Engine()
			if n := e.Pod("default/spread").Spec.NodeName; n != "node-1" {
				t.Errorf("default profile put spread on %q, want node-1 (least allocated)", n)
			}
			if n := e.Pod("default/packed").Spec.NodeName; n != "node-2" {
				t.Errorf("bin-packer put packed on %q, want node-2 (most allocated)", n)
			}
			if n := e.Pod("default/orphan").Spec.NodeName; n != "" {
				t.Errorf("orphan bound to %q: no profile is my-scheduler", n)
			}
			for _, ev := range e.Events() {
				if strings.Contains(ev.Object, "orphan") && ev.Reason == engine.ReasonFailedScheduling {
					t.Errorf("orphan got %s: upstream never attempts a pod of another scheduler", ev.Reason)
				}
			}
		})
	}
}

func TestSchedulerConfigWithoutOneKeepsDefaults(t *testing.T) {
	f, err := LoadFile("s.yaml", []byte(twoProfilesScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// without a configuration only default-scheduler exists
	if n := s.Engine().Pod("default/packed").Spec.NodeName; n != "" {
		t.Errorf("packed bound to %q without a bin-packer profile", n)
	}
}
