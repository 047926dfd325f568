package lab

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
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

const packScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: pack}
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
  containers: [{name: c, image: x, resources: {requests: {cpu: "2", memory: 2Gi}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`

// webNodes lists the nodes of web's pods.
func webNodes(s *Session) []string {
	var out []string
	for _, p := range s.Engine().Pods() {
		if strings.HasPrefix(p.Name, "web-") {
			out = append(out, p.Spec.NodeName)
		}
	}
	return out
}

func TestSetSchedulerLive(t *testing.T) {
	f, err := LoadFile("s.yaml", []byte(packScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	apply := func(line string) {
		t.Helper()
		if _, err := s.Apply(line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	for _, line := range []string{
		"set scheduler disable NodeResourcesBalancedAllocation",
		"set scheduler disable PodTopologySpread",
		"set scheduler scoringStrategy=MostAllocated",
	} {
		apply(line)
	}
	if _, err := s.Apply("set scheduler weight NodePorts=3"); err == nil || !strings.Contains(err.Error(), "not a score plugin") {
		t.Errorf("weight on a filter plugin: %v", err)
	}
	if _, err := s.Apply("set scheduler scoringStrategy=RequestedToCapacityRatio"); err == nil ||
		!strings.Contains(err.Error(), "profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio") {
		t.Errorf("RequestedToCapacityRatio without a shape: %v", err)
	}
	apply("scale deployment/web --replicas=1")
	if got := webNodes(s); len(got) != 1 || got[0] != "node-2" {
		t.Errorf("MostAllocated placed web on %v, want node-2", got)
	}
	var buf strings.Builder
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "set scheduler scoringStrategy=MostAllocated") {
		t.Fatalf("saved file lacks the command:\n%s", buf.String())
	}
	for i := 0; i < 2; i++ {
		if _, err := s.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if s.policy == nil || len(s.policy.Profiles[0].PluginConfig) != 0 {
		t.Errorf("undo left the strategy: %+v", s.policy)
	}
	apply("scale deployment/web --replicas=1")
	if got := webNodes(s); len(got) != 1 || got[0] != "node-1" {
		t.Errorf("LeastAllocated placed web on %v, want node-1", got)
	}
	// the saved file replays the policy change
	f2, err := LoadFile("saved.yaml", []byte(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	s2, err := NewSession(f2, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.advanceTo(api.Time(f2.Scenario.Clock.ResumeAt)); err != nil {
		t.Fatal(err)
	}
	if got := webNodes(s2); len(got) != 1 || got[0] != "node-2" {
		t.Errorf("saved and reloaded: web on %v, want node-2", got)
	}
}

// TestSaveEmbedsConfigFile: a policy from scheduler.configFile is written
// into the saved scenario, which loads to the same profiles.
func TestSaveEmbedsConfigFile(t *testing.T) {
	dir := t.TempDir()
	scen := strings.Replace(twoProfilesScenario, "scheduler: {tieBreak: name}", "scheduler: {tieBreak: name, configFile: sched.yaml}", 1)
	for name, data := range map[string]string{"sched.yaml": binPackerConfig, "s.yaml": scen} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := Open(filepath.Join(dir, "s.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "configFile") {
		t.Errorf("saved file still points at the config file:\n%s", buf.String())
	}
	f2, err := LoadFile("saved.yaml", []byte(buf.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	s2, err := NewSession(f2, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := s2.Engine().Pod("default/packed").Spec.NodeName; n != "node-2" {
		t.Errorf("reloaded: packed on %q, want node-2", n)
	}
}

// TestServiceFeedsDefaultSpread: a bare pod selected by a Service gets the
// System default constraints (helper.DefaultSelector takes the Service's
// selector), so it avoids the node already running its peer; without the
// Service nothing selects it and the tie goes to node-1.
func TestServiceFeedsDefaultSpread(t *testing.T) {
	scen := `apiVersion: podlab/v1
kind: Scenario
metadata: {name: svc}
scheduler: {tieBreak: name}
cluster:
  node: {cpu: "4", memory: 8Gi}
  zones:
  - {name: a, nodes: 2}
---
apiVersion: v1
kind: Pod
metadata: {name: peer, labels: {app: web}}
spec:
  nodeName: node-1
  containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: other, labels: {app: db}}
spec:
  nodeName: node-2
  containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: new, labels: {app: web}}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`
	svc := "---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n"
	for _, c := range []struct {
		name, extra, want string
	}{{"without a service", "", "node-1"}, {"with a service", svc, "node-2"}} {
		t.Run(c.name, func(t *testing.T) {
			f, err := LoadFile("s.yaml", []byte(scen+c.extra))
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewSession(f, SessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Engine().Pod("default/new").Spec.NodeName; got != c.want {
				t.Fatalf("new pod on %q, want %q", got, c.want)
			}
		})
	}
}

func TestCompleteSetScheduler(t *testing.T) {
	f, err := LoadFile("s.yaml", []byte(packScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ line, want string }{
		{"set scheduler scoringStrategy=M", "scoringStrategy=MostAllocated"},
		{"set scheduler weight PodTop", "PodTopologySpread="},
		{"set scheduler disable ImageLoc", "ImageLocality"},
		{"set sch", "scheduler"},
	}
	for _, c := range cases {
		_, got := s.Complete(c.line)
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("Complete(%q) = %v, want [%s]", c.line, got, c.want)
		}
	}
}

// TestAddedAffinity: NodeAffinity's addedAffinity filters every pod of the
// profile with upstream's reason and survives save and reload.
func TestAddedAffinity(t *testing.T) {
	scen := packScenario + `---
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - {key: kubernetes.io/hostname, operator: NotIn, values: [node-2]}
`
	f, err := LoadFile("s.yaml", []byte(scen))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("scale deployment/web --replicas=3"); err != nil {
		t.Fatal(err)
	}
	for _, n := range webNodes(s) {
		if n != "node-1" {
			t.Errorf("web pod on %q: addedAffinity excludes node-2", n)
		}
	}
	ex, err := s.Explain(s.Engine().Pods()[len(s.Engine().Pods())-1].Key())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range ex.Nodes {
		if v.Node == "node-2" && len(v.Reasons) == 1 && v.Reasons[0] == "node(s) didn't match scheduler-enforced node affinity" {
			found = true
		}
	}
	if !found {
		t.Errorf("node-2 verdict lacks the enforced-affinity reason: %+v", ex.Nodes)
	}
}

// TestConfigConstructionErrorOnLoad: what only building the framework
// finds is reported when the file loads, at the document, with the
// framework's message.
func TestConfigConstructionErrorOnLoad(t *testing.T) {
	data := "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    multiPoint:\n      disabled: [{name: DefaultBinder}]\n"
	_, err := LoadFile("s.yaml", []byte(data))
	want := `s.yaml:5:1: KubeSchedulerConfiguration: creating profile for scheduler name default-scheduler: at least one bind plugin is needed for profile with scheduler name "default-scheduler"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

// TestPluginNamesAgree: the names lab/manifest validates against are the
// scheduler's registry.
func TestPluginNamesAgree(t *testing.T) {
	a := manifest.InTreePluginNames()
	b := scheduler.RegisteredPlugins()
	sort.Strings(a)
	sort.Strings(b)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("manifest %v\nscheduler %v", a, b)
	}
}

// TestApplySchedulerConfig: `apply -f` of a KubeSchedulerConfiguration
// replaces the policy from then on; undo restores the scenario's.
func TestApplySchedulerConfig(t *testing.T) {
	f, err := LoadFile("s.yaml", []byte(packScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	line := command.Apply{Inline: "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    score:\n      disabled: [{name: NodeResourcesBalancedAllocation}, {name: PodTopologySpread}]\n  pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: MostAllocated}}\n"}.String()
	if msg, err := s.Apply(line); err != nil || !strings.Contains(msg, "kubeschedulerconfiguration configured") {
		t.Fatalf("apply: %q %v", msg, err)
	}
	if got := s.PolicyLabel(); got != "profile default-scheduler" {
		t.Errorf("header label %q", got)
	}
	if _, err := s.Apply("scale deployment/web --replicas=1"); err != nil {
		t.Fatal(err)
	}
	if got := webNodes(s); len(got) != 1 || got[0] != "node-2" {
		t.Errorf("after apply: web on %v, want node-2 (MostAllocated)", got)
	}
	for i := 0; i < 2; i++ {
		if _, err := s.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if s.PolicyLabel() != "" {
		t.Errorf("undo left the policy: %q", s.PolicyLabel())
	}
	// an invalid configuration changes nothing
	bad := command.Apply{Inline: "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 101\n"}.String()
	if _, err := s.Apply(bad); err == nil || !strings.Contains(err.Error(), "percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]") {
		t.Errorf("invalid apply: %v", err)
	}
	if s.PolicyLabel() != "" || len(s.History()) != 0 {
		t.Errorf("a failed apply changed the lab: %q %v", s.PolicyLabel(), s.History())
	}
}

func TestExplainJSONNamesProfile(t *testing.T) {
	f, err := LoadFile("s.yaml", []byte(twoProfilesScenario+"---\n"+binPackerConfig))
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	// "packed" runs in bin-packer: its explanation names the profile and
	// what it changes; "spread" runs in the default profile: no profile keys
	if err := Explain(&buf, f, ExplainOptions{Pod: "packed", Output: "json"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"profile": "bin-packer"`, `"score disabled: PodTopologySpread, NodeResourcesBalancedAllocation"`, `"NodeResourcesFit scoringStrategy MostAllocated (cpu×1, memory×1)"`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("explain json lacks %s:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	if err := Explain(&buf, f, ExplainOptions{Pod: "spread", Output: "json"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `"profile"`) {
		t.Errorf("default profile explanation names a profile:\n%s", buf.String())
	}
}
