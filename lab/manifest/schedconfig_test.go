package manifest

import (
	"strings"
	"testing"
)

// The example of the kube-scheduler docs ("Scheduling Policies" /
// "Configure Multiple Schedulers"): two profiles, one scoring with
// MostAllocated.
const docsSchedulerConfig = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: /etc/srv/kubernetes/kube-scheduler/kubeconfig
profiles:
  - schedulerName: default-scheduler
  - schedulerName: no-scoring-scheduler
    plugins:
      preScore:
        disabled:
        - name: '*'
      score:
        disabled:
        - name: '*'
  - schedulerName: bin-packing-scheduler
    pluginConfig:
    - name: NodeResourcesFit
      args:
        scoringStrategy:
          type: MostAllocated
          resources:
          - name: cpu
            weight: 1
          - name: memory
            weight: 1
`

func TestSchedulerConfigDecodes(t *testing.T) {
	objs, err := Load("k.yaml", []byte(docsSchedulerConfig), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.SchedulerConfigs) != 1 {
		t.Fatalf("configs = %d", len(objs.SchedulerConfigs))
	}
	c := objs.SchedulerConfigs[0]
	if len(c.Profiles) != 3 || c.Profiles[1].SchedulerName != "no-scoring-scheduler" {
		t.Fatalf("profiles = %+v", c.Profiles)
	}
	if d := c.Profiles[1].Plugins["score"]; d == nil || len(d.Disabled) != 1 || d.Disabled[0] != "*" {
		t.Fatalf("score set = %+v", d)
	}
	fit := c.Profiles[2].PluginConfig[0].NodeResourcesFit
	if fit == nil || fit.ScoringStrategy.Type != "MostAllocated" || len(fit.ScoringStrategy.Resources) != 2 {
		t.Fatalf("fit args = %+v", fit)
	}
}

func TestSchedulerConfigDefaults(t *testing.T) {
	objs, err := Load("k.yaml", []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {}\n  - name: InterPodAffinity\n    args: {}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := objs.SchedulerConfigs[0].Profiles[0]
	if p.SchedulerName != "default-scheduler" {
		t.Errorf("schedulerName = %q, want default-scheduler (a single profile is defaulted)", p.SchedulerName)
	}
	if s := p.PluginConfig[0].NodeResourcesFit.ScoringStrategy; s.Type != "LeastAllocated" || len(s.Resources) != 2 || s.Resources[0].Weight != 1 {
		t.Errorf("fit defaults = %+v", s)
	}
	if w := p.PluginConfig[1].InterPodAffinity.HardPodAffinityWeight; w != 1 {
		t.Errorf("hardPodAffinityWeight = %d, want 1", w)
	}
}

// TestSchedulerConfigValidation: upstream's messages
// (pkg/scheduler/apis/config/validation/validation_pluginargs.go), at the
// offending field.
func TestSchedulerConfigValidation(t *testing.T) {
	head := "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
	cases := []struct {
		name, body, want string
	}{
		{"resource weight", "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n        resources:\n        - name: cpu\n          weight: 101\n",
			"k.yaml:11:19: KubeSchedulerConfiguration is invalid: profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]"},
		{"unknown strategy", "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: Packed\n",
			`k.yaml:8:15: KubeSchedulerConfiguration is invalid: profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "Packed": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"`},
		{"shape not increasing", "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape:\n          - {utilization: 50, score: 0}\n          - {utilization: 20, score: 10}\n",
			"k.yaml:12:27: KubeSchedulerConfiguration is invalid: profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 20: values must be sorted in increasing order"},
		{"hard weight", "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args:\n      hardPodAffinityWeight: 101\n",
			"k.yaml:7:30: KubeSchedulerConfiguration is invalid: profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"},
		{"two profiles need names", "profiles:\n- schedulerName: a\n- plugins: {}\n",
			"KubeSchedulerConfiguration is invalid: profiles[1].schedulerName: Required value"},
		{"percentage", "percentageOfNodesToScore: 120\n",
			"k.yaml:3:27: KubeSchedulerConfiguration is invalid: percentageOfNodesToScore: Invalid value: 120: not in valid range [0-100]"},
		{"system with constraints", "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultConstraints:\n      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}\n",
			`profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load("k.yaml", []byte(head+c.body), Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestSchedulerConfigUnknownFieldWarns(t *testing.T) {
	objs, err := Load("k.yaml", []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerNam: x\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range objs.Warnings {
		found = found || (strings.Contains(w.String(), `unknown field "profiles[0].schedulerNam"`) && strings.Contains(w.Hint, "schedulerName"))
	}
	if !found {
		t.Fatalf("warnings = %v", objs.Warnings)
	}
}

func TestSchedulerConfigUnknownPlugin(t *testing.T) {
	_, err := Load("k.yaml", []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    score:\n      enabled:\n      - name: ImageLocalty\n"), Options{})
	want := `k.yaml:7:15: KubeSchedulerConfiguration is invalid: profiles[0].plugins.score.enabled[0].name: ScorePlugin "ImageLocalty" does not exist (did you mean ImageLocality?)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

func TestSchedulerConfigPluginAtWrongPoint(t *testing.T) {
	_, err := Load("k.yaml", []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodePorts\n"), Options{})
	want := `k.yaml:7:15: KubeSchedulerConfiguration is invalid: profiles[0].plugins.score.enabled[0].name: plugin "NodePorts" does not extend ScorePlugin plugin`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}
