package lab

import (
	"strings"
	"testing"
	"time"
)

func TestLoadExampleScenario(t *testing.T) {
	data := mustRead(t, "testdata/example.yaml")
	f, err := LoadFile("example.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	s := f.Scenario
	if s == nil || s.Name != "spread-demo" || s.Seed != 42 || s.Clock.Speed != 2 {
		t.Fatalf("header: %+v", s)
	}
	if len(f.Objects.Deployments) != 1 || f.Objects.Deployments[0].Name != "web" {
		t.Fatalf("manifests: %+v", f.Objects.Deployments)
	}
	// positions of manifests are those of the original file
	if p := f.Objects.PosOf(f.Objects.Deployments[0]); p.Line < 40 {
		t.Fatalf("deployment position %v: lines must be the file's own", p)
	}
	nodes, err := s.Cluster.Nodes()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range nodes {
		names = append(names, n.Name+"@"+n.Labels["topology.kubernetes.io/zone"])
	}
	if got := strings.Join(names, ","); got != "node-1@zone-a,node-2@zone-a,node-3@zone-b,node-4@zone-b,node-5@zone-c" {
		t.Fatalf("nodes %s", got)
	}
	if nodes[4].Labels["disk"] != "hdd" {
		t.Fatalf("labels %+v", nodes[4].Labels)
	}
	if len(s.Timeline) != 1 || s.Timeline[0].At != 30*time.Second {
		t.Fatalf("timeline %+v", s.Timeline)
	}
	if s.Lesson == nil || len(s.Lesson.Steps) != 2 || len(s.Lesson.Steps[1].Solution) != 3 {
		t.Fatalf("lesson %+v", s.Lesson)
	}
	if s.Lesson.Steps[1].Checks[0].Hint == "" {
		t.Fatal("hint lost")
	}
}

func TestScenarioErrors(t *testing.T) {
	head := "apiVersion: podlab/v1\nkind: Scenario\n"
	cases := []struct{ body, want string }{
		{"titel: x\n", `x.yaml:3:1: Scenario: unknown field "titel" (fields are apiVersion, kind, metadata, title`},
		{"seed: abc\n", "x.yaml:3:7: seed must be a whole number"},
		{"clock: {speed: 100}\n", "clock.speed must be a number from 0.25 to 64"},
		// NaN passed the range check (every comparison with it is false)
		{"clock: {speed: NaN}\n", `x.yaml:3:16: clock.speed must be a number from 0.25 to 64, not "NaN"`},
		{"autoscaler:\n  scaleDownUtilizationThreshold: nan\n  nodeGroups: [{name: a, max: 2}]\n", `scaleDownUtilizationThreshold must be a number from 0.01 to 1, not "nan"`},
		{"cluster:\n  zones:\n  - nodes: 2\n", "x.yaml:5:5: cluster.zones[0] needs a name"},
		{"cluster:\n  zones:\n  - name: a\n    cpu: lots\n", `cluster.zones[0].cpu: quantity "lots"`},
		{"cluster:\n  zones:\n  - name: a\n    taints: [gpu]\n", `is not a taint`},
		{"cluster:\n  zones:\n  - name: a\n    taints: [\"a=1:NoSchedule b=2:NoExecute\"]\n", `is not a taint`},
		{"cluster:\n  zones:\n  - name: a\n    taints: [\"gpu=x:NoSchedule-\"]\n", `is not a taint`},
		{"cluster:\n  nodeNames: worker\n", "must contain {n} or {i}"},
		{"scheduler: {tieBreak: first}\n", "scheduler.tieBreak must be random or name"},
		{"scheduler:\n  defaultConstraints:\n  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {}}\n", "may not set labelSelector"},
		{"kubelet:\n  evictionSoft: {memory.available: 500Mi}\n", "needs a grace period"},
		{"kubelet:\n  evictionHard: {nodefs.available: 10%}\n", `signal "nodefs.available" is not modelled`},
		// refused only when the session started, without file:line:col
		{"kubelet:\n  evictionHard: {memory.available: \"200%\"}\n", `x.yaml:4:17: kubelet.evictionHard[memory.available]: "200%" is not a percentage in (0, 100]`},
		{"kubelet:\n  evictionSoft: {memory.available: \"NaN%\"}\n  evictionSoftGracePeriod: {memory.available: 1m}\n", `kubelet.evictionSoft[memory.available]: "NaN%" is not a percentage in (0, 100]`},
		{"timeline:\n- at: 10s\n  do: scale web\n", `x.yaml:5:7: timeline[0].do: missing name after "web"`},
		{"timeline:\n- do: cordon n1\n", "timeline[0] needs at:"},
		{"timeline:\n- at: 20s\n  do: cordon n1\n- at: 10s\n  do: cordon n2\n", "comes before the previous entry"},
		{"lesson:\n  steps:\n  - title: a\n    checks: [\"skew(deployment/web) <= 1\"]\n", "skew takes 2 arguments"},
		{"lesson:\n  steps:\n  - text: no title\n", "lesson.steps[0] needs a title"},
		{"lesson: {steps: []}\n", "lesson needs at least one step"},
		{"timeline: [\n", "x.yaml:"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			_, err := LoadFile("x.yaml", []byte(head+c.body))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

func TestPlainManifestsHaveNoHeader(t *testing.T) {
	f, err := LoadFile("p.yaml", []byte("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Scenario != nil || len(f.Objects.Nodes) != 1 {
		t.Fatalf("%+v", f)
	}
}

func TestTwoHeadersRejected(t *testing.T) {
	doc := "apiVersion: podlab/v1\nkind: Scenario\n"
	_, err := LoadFile("x.yaml", []byte(doc+"---\n"+doc))
	if err == nil || !strings.Contains(err.Error(), "x.yaml:4:1: a file may hold only one Scenario document") {
		t.Fatalf("%v", err)
	}
}

// A file with errors in its lab header and in its manifests reports both,
// in file order (the header's used to be hidden behind the manifests').
func TestLoadReportsHeaderAndManifestErrors(t *testing.T) {
	data := "apiVersion: podlab/v1\nkind: Scenario\ncluster:\n  zones: [a, b\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: x}\n"
	_, err := LoadFile("broken.yaml", []byte(data))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "broken.yaml:3:") || !strings.HasPrefix(lines[1], "broken.yaml:6:1: Pod \"x\" is invalid") {
		t.Fatalf("errors:\n%s\nwant the header's (line 3) then the Pod's (line 6)", err)
	}
}
