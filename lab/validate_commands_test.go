package lab

import (
	"bytes"
	"strings"
	"testing"
)

// validateHeader is a two-node cluster with a Deployment web (pods with
// generated names) and a bare pod solo; cases append a timeline and a
// lesson.
const validateHeader = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: v}
cluster:
  node: {cpu: "4", memory: 8Gi, pods: 110}
  zones: [{name: zone-a, nodes: 2}]
`

const validateObjects = `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
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
metadata: {name: solo}
spec:
  containers: [{name: c, image: nginx}]
`

// validateWarnings runs Validate on header+body+objects and returns the
// warning lines.
func validateWarnings(t *testing.T, body string) []string {
	t.Helper()
	f, err := LoadFile("v.yaml", []byte(validateHeader+body+validateObjects))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Validate(&out, f); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return lines[:len(lines)-1]
}

// Issue 17: validate looks at what every timeline and lesson command
// names, without running it, and says which will fail and where; it never
// warns about a name it cannot know (generated pod, ReplicaSet, Job and
// autoscaled node names; whatever `apply -f` brings).
func TestValidateNamesTheObjectsCommandsWillNotFind(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		want []string // substrings, one per warning line, in order
	}{
		{"the issue's ghost pod", "timeline:\n- {at: 1s, do: \"delete pod ghost\"}\n",
			[]string{`v.yaml:8:3: timeline[0] (at 1s): delete pod ghost: unknown pod "ghost"; pods are default/solo, default/web-`}},
		{"a bare pod and generated pod names are fine", "timeline:\n- {at: 1s, do: \"delete pod solo\"}\n- {at: 2s, do: \"delete pod web-7d4b9-x2x9q\"}\n- {at: 3s, do: \"break pod web-abc12 readiness\"}\n", nil},
		{"an unknown node", "timeline:\n- {at: 1s, do: \"cordon node-9\"}\n- {at: 2s, do: \"drain node-1\"}\n",
			[]string{`timeline[0] (at 1s): cordon node-9: unknown node "node-9"; nodes are node-1, node-2`}},
		{"a node the timeline adds, only after it", "timeline:\n- {at: 1s, do: \"label node n9 a=b\"}\n- {at: 2s, do: \"add node n9 --zone zone-b\"}\n- {at: 3s, do: \"fail node n9\"}\n- {at: 4s, do: \"remove zone zone-b\"}\n- {at: 5s, do: \"recover node n9\"}\n- {at: 6s, do: \"remove zone zone-b\"}\n",
			[]string{`timeline[0] (at 1s): label node n9 a=b: unknown node "n9"`, `timeline[4] (at 5s): recover node n9: unknown node "n9"`, `timeline[5] (at 6s): remove zone zone-b: unknown zone "zone-b"; zones are zone-a`}},
		{"a label moves a node to another zone", "timeline:\n- {at: 1s, do: \"label node node-2 topology.kubernetes.io/zone=zone-x\"}\n- {at: 2s, do: \"remove zone zone-x\"}\n- {at: 3s, do: \"add node n7 --zone zone-y --label topology.kubernetes.io/zone=zone-z\"}\n- {at: 4s, do: \"remove zone zone-z\"}\n- {at: 5s, do: \"remove zone zone-x\"}\n",
			[]string{`timeline[4] (at 5s): remove zone zone-x: unknown zone "zone-x"; zones are zone-a`}},
		{"what exists cannot be added again", "timeline:\n- {at: 1s, do: \"add node node-1 --zone zone-a\"}\n- {at: 2s, do: \"add zone zone-a\"}\n- {at: 3s, do: \"add node n9 --zone zone-b\"}\n- {at: 4s, do: \"add node n9 --zone zone-b\"}\n- {at: 5s, do: \"autoscale deployment/web --max=3\"}\n- {at: 6s, do: \"autoscale deployment/web --max=4\"}\n- {at: 7s, do: \"autoscale deployment/web --max=4 --name=web2\"}\n- {at: 8s, do: \"add node n8 --zone zone-c\"}\nlesson:\n  steps:\n  - title: t\n    do: [\"add node n8 --zone zone-c\"]\n",
			[]string{`timeline[0] (at 1s): add node node-1 --zone zone-a: node "node-1" exists`,
				"timeline[1] (at 2s): add zone zone-a: zone \"zone-a\" exists; add nodes to it with `add node NAME --zone zone-a`",
				`timeline[3] (at 4s): add node n9 --zone zone-b: node "n9" exists`,
				`timeline[5] (at 6s): autoscale deployment/web --max=4: horizontalpodautoscalers.autoscaling "web" already exists`}},
		{"generated node names of add zone", "lesson:\n  steps:\n  - title: grow\n    solution: [\"add zone zone-c --nodes 2\"]\n  - title: use\n    solution: [\"cordon node-3\", \"cordon node-4\", \"cordon node-5\"]\n",
			[]string{`v.yaml:12:50: lesson.steps[1].solution[2]: cordon node-5: unknown node "node-5"; nodes are node-1…node-4 (4)`}},
		{"an inline manifest creates, a workload's kind matters", "timeline:\n- at: 1s\n  apply: |\n    apiVersion: apps/v1\n    kind: StatefulSet\n    metadata: {name: db}\n    spec:\n      replicas: 1\n      selector: {matchLabels: {app: db}}\n      template:\n        metadata: {labels: {app: db}}\n        spec:\n          containers: [{name: c, image: pg}]\n- {at: 2s, do: \"scale statefulset/db --replicas=3\"}\n- {at: 3s, do: \"delete pod db-2\"}\n- {at: 4s, do: \"scale deployment/db --replicas=3\"}\n",
			[]string{`timeline[3] (at 4s): scale deployment/db --replicas=3: unknown deployment "db"; deployments are default/web`}},
		{"apply -f may create anything", "timeline:\n- {at: 1s, do: \"apply -f more.yaml\"}\n- {at: 2s, do: \"scale deployment/api --replicas=3\"}\n", nil},
		{"what the lesson creates the timeline may use", "timeline:\n- {at: 1m, do: \"cordon n9\"}\n- {at: 2m, do: \"delete hpa web\"}\nlesson:\n  steps:\n  - title: add\n    do: [\"add node n9 --zone zone-a\", \"autoscale deployment/web --max=4\"]\n", nil},
		{"what the timeline removes the lesson may still see", "timeline:\n- {at: 1m, do: \"remove node node-1\"}\nlesson:\n  steps:\n  - title: t\n    do: [\"cordon node-1\"]\n", nil},
		{"a step's do is not the path the solution takes", "lesson:\n  steps:\n  - title: t\n    do: [\"remove node node-1\"]\n    solution: [\"cordon node-2\"]\n  - title: u\n    solution: [\"uncordon node-1\"]\n", nil},
		{"a priority class and a workload", "lesson:\n  steps:\n  - title: t\n    solution: [\"set priority deployment/web gold\", \"set priority deployment/api system-cluster-critical\", \"set spread deployment/web maxSkew=2\"]\n",
			[]string{`set priority deployment/web gold: no PriorityClass with name gold was found`, `set priority deployment/api system-cluster-critical: unknown deployment "api"`}},
		{"lanes of a lesson's fork share names", "lesson:\n  steps:\n  - title: t\n    solution: [\"fork\", \"@b cordon node-2\", \"@a cordon node-7\"]\n",
			[]string{`lesson.steps[0].solution[2]: @a cordon node-7: unknown node "node-7"`}},
		{"checks that need their object", "lesson:\n  steps:\n  - title: t\n    solution: [\"remove node node-2\"]\n    checks:\n    - check: pending(deployment/wbe) == 0\n    - check: cordoned(node/node-2) || phase(pod/gone) == Gone || !exists(deployment/nope)\n",
			[]string{`v.yaml:12:7: lesson.steps[0].checks[0]: pending(deployment/wbe) == 0: unknown deployment "wbe"; deployments are default/web (the check will end in an error`,
				`lesson.steps[0].checks[1]: cordoned(node/node-2) || phase(pod/gone) == Gone || !exists(deployment/nope): unknown node "node-2"; nodes are node-1`}},
		{"what one lane removes the other keeps", "lesson:\n  steps:\n  - title: t\n    solution: [\"fork\", \"@b remove node node-2\"]\n    checks:\n    - check: cordoned@a(node/node-2) == false\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := validateWarnings(t, c.body)
			if len(got) != len(c.want) {
				t.Fatalf("warnings:\n%s\nwant %d", strings.Join(got, "\n"), len(c.want))
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %d:\n%s\nwant it to contain\n%s", i, got[i], w)
				}
			}
		})
	}
}

// The index names the nodes of `add zone` as the lab does.
func TestValidateNodeNamesFollowTheLab(t *testing.T) {
	for _, pattern := range []string{"", "  nodeNames: \"{zone}-{i}\"\n", "  nodeNames: \"w{n}\"\n"} {
		text := strings.Replace(validateHeader, "cluster:\n", "cluster:\n"+pattern, 1) + validateObjects
		s := loadSession(t, "v.yaml", text)
		x := newObjectIndex(s)
		for _, line := range []string{"add zone zone-b --nodes 3", "remove node " + s.Engine().Nodes()[0].Name, "add zone zone-c --nodes 2"} {
			c := scenarioCommand{line: line}
			x.create(c.cmd())
			x.remove(c.cmd())
			if _, err := s.Apply(line); err != nil {
				t.Fatal(err)
			}
		}
		var want []string
		for _, n := range s.Engine().Nodes() {
			want = append(want, n.Name)
		}
		if got := x.sorted("node"); strings.Join(got, " ") != strings.Join(sortedCopy(want), " ") {
			t.Errorf("pattern %q: index %v, lab %v", pattern, got, want)
		}
	}
}

func sortedCopy(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// An autoscaled cluster's nodes have generated names: no warning.
func TestValidateNodesOfAnAutoscaledClusterAreUnknowable(t *testing.T) {
	f, err := LoadFile("v.yaml", []byte(validateHeader+"timeline:\n- {at: 5m, do: \"cordon node-9\"}\n"+validateObjects))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := validateCommands(f, s); len(got) != 1 {
		t.Fatalf("without an autoscaler: %v", got)
	}
	f.Scenario.Autoscaler = &AutoscalerSpec{}
	if got := validateCommands(f, s); len(got) != 0 {
		t.Fatalf("with an autoscaler: %v", got)
	}
}

// Issue 17: an empty file was "valid" without a word.
func TestValidateWarnsAboutAnEmptyFile(t *testing.T) {
	for _, c := range []struct {
		name, text string
		warn       bool
	}{
		{"empty", "", true},
		{"comments only", "# a lab\n# to do\n", true},
		{"a header alone", "apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: x}\n", true},
		{"a priority class alone", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n", true},
		{"a cluster shorthand", validateHeader, false},
		{"one node", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n", false},
		{"a header whose lesson adds a zone", "apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: x}\nlesson:\n  steps:\n  - title: t\n    do: [\"add zone a --nodes 2\"]\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := LoadFile("e.yaml", []byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := Validate(&out, f); err != nil {
				t.Fatal(err)
			}
			got := strings.Contains(out.String(), "e.yaml:1:1: nothing to run")
			if got != c.warn {
				t.Fatalf("warned %v, want %v:\n%s", got, c.warn, out.String())
			}
			if c.warn && !strings.Contains(out.String(), "1 warning)") {
				t.Fatalf("the summary does not count the warning:\n%s", out.String())
			}
		})
	}
}

// A command that does not parse stops the load with where it is.
func TestTimelineSyntaxErrorHasAPosition(t *testing.T) {
	_, err := LoadFile("v.yaml", []byte(validateHeader+"timeline:\n- {at: 1s, do: \"delte pod x\"}\n"))
	if err == nil || !strings.Contains(err.Error(), "v.yaml:8:") {
		t.Fatalf("err %v", err)
	}
}
