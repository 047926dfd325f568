package lab

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/command"
)

// gatesScenario holds the "Pod Scheduling Readiness" docs page's
// test-pod verbatim, a node for it, and a Deployment whose template has
// a gate.
const gatesScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: gates}
cluster: {zones: [{name: zone-a, names: [n1]}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: test-pod
spec:
  schedulingGates:
  - name: example.com/foo
  - name: example.com/bar
  containers:
  - name: pause
    image: registry.k8s.io/pause:3.6
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      schedulingGates: [{name: example.com/quota}]
      containers: [{name: app, image: nginx, resources: {requests: {cpu: 100m}}}]
`

func gatesSession(t *testing.T) *Session {
	t.Helper()
	return loadSession(t, "gates.yaml", gatesScenario)
}

// gatedPodsScenario has gated pods named p in team-a and team-b, then
// the extra manifests given.
func gatedPodsScenario(extra string) string {
	return `apiVersion: podlab/v1
kind: Scenario
metadata: {name: ns}
cluster: {zones: [{name: zone-a, names: [n1]}]}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: team-a}
spec:
  schedulingGates: [{name: x.io/g}]
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: team-b}
spec:
  schedulingGates: [{name: x.io/g}]
  containers: [{name: c, image: x}]
` + extra
}

// validateOutput is podlab validate's output for a scenario text.
func validateOutput(t *testing.T, name, src string) string {
	t.Helper()
	f, err := LoadFile(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Validate(&out, f); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// explainText is podlab explain's output for a pod of a scenario text,
// -o text or json.
func explainText(t *testing.T, name, src, pod, output string) string {
	t.Helper()
	f, err := LoadFile(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Explain(&out, f, ExplainOptions{Pod: pod, Output: output}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func failedSchedulingOf(s *Session, name string) int {
	n := 0
	for _, ev := range s.Engine().Events() {
		if ev.Reason == "FailedScheduling" && strings.HasSuffix(ev.Object, "/"+name) {
			n++
		}
	}
	return n
}

// The docs page's pod loads and stays gated: Pending, STATUS
// SchedulingGated (printers.go:938), never attempted; the explain view
// names its gates instead of a scheduling cycle. A Deployment whose
// template has a gate creates gated pods.
func TestDocsPodStaysGated(t *testing.T) {
	s := gatesSession(t)
	if err := s.Advance(10 * time.Minute); err != nil {
		t.Fatal(err)
	}
	p := s.Engine().Pod("default/test-pod")
	if p == nil || p.Spec.NodeName != "" {
		t.Fatalf("test-pod %+v, want pending", p)
	}
	if got := PodStatus(p); got != "SchedulingGated" {
		t.Errorf("STATUS %q, want SchedulingGated", got)
	}
	if n := failedSchedulingOf(s, "test-pod"); n != 0 {
		t.Errorf("%d FailedScheduling events for a gated pod", n)
	}
	ex, err := s.Explain("default/test-pod")
	if err != nil {
		t.Fatal(err)
	}
	if ex.Gate == nil || len(ex.Nodes) != 0 {
		t.Fatalf("explain %+v, want the gate and no node verdicts", ex.Explanation)
	}
	if got := strings.Join(GateLines(ex.Explanation), "\n"); !strings.Contains(got, "waiting for its scheduling gates: example.com/foo, example.com/bar") || !strings.Contains(got, "ungate pod test-pod") {
		t.Errorf("gate lines:\n%s", got)
	}
	web := 0
	for _, p := range s.Engine().Pods() {
		if p.Labels["app"] == "web" {
			web++
			if p.Spec.NodeName != "" || PodStatus(p) != "SchedulingGated" || len(p.Spec.SchedulingGates) != 1 {
				t.Errorf("web pod %s on %q status %s gates %v, want gated", p.Name, p.Spec.NodeName, PodStatus(p), p.Spec.SchedulingGates)
			}
		}
	}
	if web != 2 {
		t.Errorf("%d web pods, want 2", web)
	}
}

// ungate pod removes one gate (still gated), refuses a gate the pod does
// not have, then removes the last and the pod is scheduled; undo and redo
// go back and forth, and a saved session replays to the same state.
func TestUngatePod(t *testing.T) {
	s := gatesSession(t)
	if err := s.Advance(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	out, err := s.Apply("ungate pod test-pod example.com/foo")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "still waiting for scheduling gates: example.com/bar") {
		t.Errorf("output %q", out)
	}
	if err := s.Advance(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	p := s.Engine().Pod("default/test-pod")
	if p.Spec.NodeName != "" || PodStatus(p) != "SchedulingGated" {
		t.Fatalf("after one gate: on %q, %s; want still gated", p.Spec.NodeName, PodStatus(p))
	}
	if _, err := s.Apply("ungate pod test-pod example.com/foo"); err == nil || !strings.Contains(err.Error(), `has no scheduling gate "example.com/foo"; its gates are example.com/bar`) {
		t.Errorf("removed gate again: %v", err)
	}
	if _, err := s.Apply("ungate pod nope"); err == nil || !strings.Contains(err.Error(), `unknown pod "nope"`) {
		t.Errorf("unknown pod: %v", err)
	}
	if _, got := s.Complete("ungate pod test-pod "); len(got) != 1 || got[0] != "example.com/bar" {
		t.Errorf("completion %v, want [example.com/bar]", got)
	}
	if _, got := s.Complete("ungate pod te"); len(got) != 1 || got[0] != "test-pod" {
		t.Errorf("completion %v, want [test-pod]", got)
	}
	if _, err := s.Apply("ungate pod test-pod"); err != nil {
		t.Fatal(err)
	}
	p = s.Engine().Pod("default/test-pod")
	if p.Spec.NodeName != "n1" || p.Condition(api.PodScheduled).Status != api.ConditionTrue {
		t.Fatalf("after the last gate: on %q, want n1 and PodScheduled=True", p.Spec.NodeName)
	}
	if _, err := s.Apply("ungate pod test-pod"); err == nil || !strings.Contains(err.Error(), "has no scheduling gates") {
		t.Errorf("pod without gates: %v", err)
	}
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	want := fullDigest(s)

	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "ungate pod test-pod example.com/foo") {
		t.Errorf("saved session lacks the ungate command:\n%s", buf.String())
	}
	if got := replayedDigest(t, buf.Bytes()); got != want {
		t.Fatalf("replayed state differs:\n%s", firstDiff(got, want))
	}

	if _, err := s.Undo(); err != nil { // the last ungate (Advance is not a command)
		t.Fatal(err)
	}
	p = s.Engine().Pod("default/test-pod")
	if p.Spec.NodeName != "" || len(p.Spec.SchedulingGates) != 1 || s.Engine().SchedulingGate("default/test-pod") == nil {
		t.Fatalf("after undo: on %q gates %v, want gated by example.com/bar", p.Spec.NodeName, p.Spec.SchedulingGates)
	}
	if _, err := s.Redo(); err != nil {
		t.Fatal(err)
	}
	if p = s.Engine().Pod("default/test-pod"); p.Spec.NodeName != "n1" {
		t.Errorf("after redo: on %q, want n1", p.Spec.NodeName)
	}
}

// PodStatus is printPod's STATUS (printers.go:924).
func TestPodStatus(t *testing.T) {
	gated := &api.Pod{Status: api.PodStatus{Phase: api.PodPending, Conditions: []api.Condition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: "SchedulingGated"}}}}
	creating := &api.Pod{Status: api.PodStatus{Phase: api.PodPending, ContainerStatuses: []api.ContainerStatus{{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ContainerCreating"}}}}}}
	crash := &api.Pod{Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}}}
	evicted := &api.Pod{Status: api.PodStatus{Phase: api.PodFailed, Reason: "Evicted"}}
	at := api.Time(0)
	deleting := &api.Pod{Status: api.PodStatus{Phase: api.PodRunning}}
	deleting.DeletionTimestamp = &at
	initWait := &api.Pod{Status: api.PodStatus{Phase: api.PodPending, InitContainerStatuses: []api.ContainerStatus{{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "PodInitializing"}}}}}}
	initWait.Spec.InitContainers = []api.Container{{Name: "a"}, {Name: "b"}}
	errored := &api.Pod{Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: []api.ContainerStatus{{State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}}}}}}
	for _, tc := range []struct {
		name string
		pod  *api.Pod
		want string
	}{
		{"pending", &api.Pod{Status: api.PodStatus{Phase: api.PodPending}}, "Pending"},
		{"gated", gated, "SchedulingGated"},
		{"creating", creating, "ContainerCreating"},
		{"crash loop", crash, "CrashLoopBackOff"},
		{"evicted", evicted, "Evicted"},
		{"terminating", deleting, "Terminating"},
		{"init", initWait, "Init:0/2"},
		{"error", errored, "Error"},
	} {
		if got := PodStatus(tc.pod); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// podlab explain on the docs pod: no scheduling cycle, the gates named,
// in text and JSON.
func TestExplainGatedPod(t *testing.T) {
	if got := explainText(t, "gates.yaml", gatesScenario, "test-pod", "text"); !strings.Contains(got, "waiting for its scheduling gates: example.com/foo, example.com/bar") || strings.Contains(got, "NODE") {
		t.Errorf("text:\n%s", got)
	}
	js := explainText(t, "gates.yaml", gatesScenario, "test-pod", "json")
	for _, want := range []string{`"message": "waiting for scheduling gates: [example.com/foo example.com/bar]"`, `"schedulingGates": [`, `"nodes": []`} {
		if !strings.Contains(js, want) {
			t.Errorf("json lacks %s:\n%s", want, js)
		}
	}
}

// podlab validate warns about an ungate that will fail: a gate the pod
// never had, or one an earlier command of the sequence removed (gates
// are only ever removed), and a pod with none left; a step's do (the
// instructor's alternative) removes nothing later commands count on,
// and pods of workloads are not followed.
func TestValidateUngate(t *testing.T) {
	head, objects, _ := strings.Cut(gatesScenario, "---\n")
	body := `lesson:
  steps:
  - title: one
    solution: ["ungate pod test-pod example.com/foo", "ungate pod test-pod example.com/baz"]
  - title: alt
    do: ["ungate pod test-pod"]
    solution: ["ungate pod test-pod example.com/foo"]
  - title: two
    solution: ["ungate pod test-pod example.com/bar", "ungate pod test-pod", "ungate pod web-abc12-xyz12 example.com/nope"]
---
`
	got := validateOutput(t, "g.yaml", head+body+objects)
	want := []string{
		`lesson.steps[0].solution[1]: ungate pod test-pod example.com/baz: pod test-pod has no scheduling gate "example.com/baz"; its gates are example.com/bar`,
		`lesson.steps[1].solution[0]: ungate pod test-pod example.com/foo: pod test-pod has no scheduling gate "example.com/foo"; its gates are example.com/bar`,
		`lesson.steps[2].solution[1]: ungate pod test-pod: pod test-pod has no scheduling gates left`,
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("validate lacks\n%s\nin\n%s", w, got)
		}
	}
	if n := strings.Count(got, "scheduling gate"); n != len(want) {
		t.Errorf("%d gate warnings, want %d:\n%s", n, len(want), got)
	}
}

// podlab schedule (the timeless pass) leaves a gated pod pending with
// the gate's message, and the others are placed.
func TestScheduleLeavesGatedPodPending(t *testing.T) {
	f, err := LoadFile("gates.yaml", []byte(gatesScenario))
	if err != nil {
		t.Fatal(err)
	}
	lines, err := ScheduleLines(f, ScheduleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if l.Pod == "default/test-pod" && (l.Node != "" || l.Message != "waiting for scheduling gates: [example.com/foo example.com/bar]") {
			t.Errorf("test-pod: %+v, want pending on its gates", l)
		}
	}
}

// podlab export writes an ungate as the kubectl patch that does it.
func TestExportUngate(t *testing.T) {
	for line, want := range map[string]string{
		"ungate pod test-pod example.com/foo": `kubectl patch pod test-pod -p '{"spec":{"schedulingGates":[{"$patch":"delete","name":"example.com/foo"}]}}'`,
		"ungate pod db-0":                     `kubectl patch pod db-0 --type=merge -p '{"spec":{"schedulingGates":null}}'`,
	} {
		if got := kubectlEquivalent(line); got != want {
			t.Errorf("%s:\n got %s\nwant %s", line, got, want)
		}
	}
}

// Applying the pod again without a gate points at ungate pod.
func TestApplyGatedPodAgain(t *testing.T) {
	s := gatesSession(t)
	manifest := "apiVersion: v1\nkind: Pod\nmetadata: {name: test-pod}\nspec:\n  schedulingGates: [{name: example.com/bar}]\n  containers: [{name: pause, image: registry.k8s.io/pause:3.6}]\n"
	_, err := s.Apply(command.Apply{Inline: manifest}.String())
	if err == nil || !strings.Contains(err.Error(), "use `ungate pod test-pod example.com/foo`") {
		t.Errorf("apply without a gate: %v", err)
	}
}

// A pod name in several namespaces: the lookup asks for NAMESPACE/NAME,
// so ungate takes it, its hints name the namespace, and the export
// patches the pod in its namespace.
func TestUngateNamespacedPod(t *testing.T) {
	if text := explainText(t, "ns.yaml", gatedPodsScenario(""), "team-b/p", "text"); !strings.Contains(text, "remove it with `ungate pod team-b/p`") {
		t.Errorf("explain's hint does not name the namespace:\n%s", text)
	}
	s := loadSession(t, "ns.yaml", gatedPodsScenario(""))
	if _, err := s.Apply("ungate pod p"); err == nil || !strings.Contains(err.Error(), "write NAMESPACE/NAME") {
		t.Fatalf("ambiguous name: %v", err)
	}
	out, err := s.Apply("ungate pod team-a/p")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "no scheduling gates left") {
		t.Errorf("output %q", out)
	}
	if got := s.Engine().Pod("team-a/p").Spec.SchedulingGates; len(got) != 0 {
		t.Errorf("team-a/p gates %v, want none", got)
	}
	if got := s.Engine().Pod("team-b/p").Spec.SchedulingGates; len(got) != 1 {
		t.Errorf("team-b/p gates %v, want its one gate", got)
	}
	manifest := "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team-b}\nspec:\n  containers: [{name: c, image: x}]\n"
	if _, err := s.Apply(command.Apply{Inline: manifest}.String()); err == nil || !strings.Contains(err.Error(), "use `ungate pod team-b/p x.io/g`") {
		t.Errorf("apply without the gate: %v", err)
	}
	for line, want := range map[string]string{
		"ungate pod team-a/p x.io/g": `kubectl patch pod p -n team-a -p '{"spec":{"schedulingGates":[{"$patch":"delete","name":"x.io/g"}]}}'`,
		"ungate pod pod/team-a/p":    `kubectl patch pod p -n team-a --type=merge -p '{"spec":{"schedulingGates":null}}'`,
	} {
		if got := kubectlEquivalent(line); got != want {
			t.Errorf("%s:\n got %s\nwant %s", line, got, want)
		}
	}
}

// A pod deleted and applied again (as a saved session records a
// manifest applied in the lab) has the new object's gates: validate does
// not warn about ungating them, and still warns about a gate it lacks.
func TestValidateUngateReappliedPod(t *testing.T) {
	head, objects, _ := strings.Cut(gatesScenario, "---\n")
	body := `timeline:
- {at: 1s, do: ungate pod test-pod}
- {at: 2s, do: delete pod test-pod --now}
- at: 5s
  apply: |
    apiVersion: v1
    kind: Pod
    metadata: {name: test-pod}
    spec:
      schedulingGates: [{name: example.com/foo}, {name: example.com/baz}]
      containers: [{name: pause, image: registry.k8s.io/pause:3.6}]
- {at: 6s, do: ungate pod test-pod example.com/foo}
- {at: 7s, do: ungate pod test-pod example.com/bar}
---
`
	got := validateOutput(t, "g.yaml", head+body+objects)
	want := `timeline[4] (at 7s): ungate pod test-pod example.com/bar: pod test-pod has no scheduling gate "example.com/bar"; its gates are example.com/baz`
	if !strings.Contains(got, want) || strings.Count(got, "scheduling gate") != 1 {
		t.Errorf("validate:\n%s\nwant only\n%s", got, want)
	}
	// and the run agrees
	s := loadSession(t, "g.yaml", head+body+objects)
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, ev := range s.Engine().Events() {
		if ev.Reason == ReasonTimelineCommandFailed {
			failed = append(failed, ev.Message)
		}
	}
	if len(failed) != 1 || !strings.Contains(failed[0], `no scheduling gate "example.com/bar"`) {
		t.Errorf("failed timeline commands %q, want the last ungate only", failed)
	}
}

// gates(pod/NAME) counts the pod's scheduling gates (kubectl get pod -o
// jsonpath='{.spec.schedulingGates}'): a lesson step that removes one
// gate of two can check that it was removed, which status() cannot tell.
func TestGatesCheck(t *testing.T) {
	s := gatesSession(t)
	eval := func(expr string, want bool) {
		t.Helper()
		res, err := s.EvalCheck(expr)
		if err != nil || res.OK != want {
			t.Errorf("%s: %+v, %v; want %v", expr, res, err, want)
		}
	}
	eval("gates(pod/test-pod) == 2", true)
	if _, err := s.Apply("ungate pod test-pod example.com/foo"); err != nil {
		t.Fatal(err)
	}
	eval("gates(pod/test-pod) == 1", true)
	eval("status(pod/test-pod) == SchedulingGated", true)
	if _, err := s.Apply("ungate pod test-pod"); err != nil {
		t.Fatal(err)
	}
	eval("gates(pod/test-pod) == 0", true)
	eval("gates(pod/nope) == 0", true)
}

// Completion offers a gated pod as the command must name it: NAME when
// that finds it, NAMESPACE/NAME when the name is in several namespaces.
func TestCompleteUngateNamespaced(t *testing.T) {
	s := loadSession(t, "ns.yaml", gatedPodsScenario(`---
apiVersion: v1
kind: Pod
metadata: {name: q, namespace: team-b}
spec:
  schedulingGates: [{name: x.io/g}]
  containers: [{name: c, image: x}]
`))
	_, got := s.Complete("ungate pod ")
	if want := []string{"q", "team-a/p", "team-b/p"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("completion %v, want %v", got, want)
	}
	for _, c := range got {
		if _, err := s.Apply("ungate pod " + c); err != nil {
			t.Errorf("ungate pod %s: %v", c, err)
		}
	}
}

// describe of a gated pod with a priority class: every key is followed
// by at least two spaces, as kubectl's tabwriter pads (a key longer than
// the column ran into its value: "Priority Class Name:high").
func TestDescribeGatedPodPriorityClass(t *testing.T) {
	const src = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: pc}
cluster: {zones: [{name: zone-a, names: [n1]}]}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Pod
metadata: {name: vip}
spec:
  priorityClassName: high
  schedulingGates: [{name: x.io/hold}]
  containers: [{name: c, image: x}]
`
	s := loadSession(t, "pc.yaml", src)
	out, err := s.DescribePod("vip")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Priority Class Name:  high\n") || !strings.Contains(out, "Status:           Pending\n") {
		t.Errorf("describe:\n%s", out)
	}
}

// validate follows the pod the command will find: a bare name finds the
// pod in default first, so a bare gated pod of that name in another
// namespace is not the one it checks.
func TestValidateUngateFindsDefaultFirst(t *testing.T) {
	const src = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: ns}
cluster: {zones: [{name: zone-a, names: [n1]}]}
timeline:
- {at: 1s, do: ungate pod p x.io/a}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: team-a}
spec:
  schedulingGates: [{name: x.io/b}]
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeName: n1
  containers: [{name: c, image: x}]
`
	if out := validateOutput(t, "ns.yaml", src); strings.Contains(out, "its gates are x.io/b") {
		t.Errorf("validate checked team-a/p, which the command does not name:\n%s", out)
	}
}

// With SchedulingGates disabled a gated pod is attempted and the API
// server refuses its binding: podlab explain says so after the node the
// scheduler picks, as podlab schedule does.
func TestExplainGatedPodBindingRefused(t *testing.T) {
	src := gatesScenario + `---
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    preEnqueue:
      disabled: [{name: SchedulingGates}]
`
	want := `running Bind plugin "DefaultBinder": pod test-pod has non-empty .spec.schedulingGates`
	if got := explainText(t, "gates.yaml", src, "test-pod", "text"); !strings.Contains(got, "chosen: n1") || !strings.Contains(got, "the API server refuses the binding: "+want) {
		t.Errorf("text:\n%s", got)
	}
	if js := explainText(t, "gates.yaml", src, "test-pod", "json"); !strings.Contains(js, `"message": "`+strings.ReplaceAll(want, `"`, `\"`)+`"`) {
		t.Errorf("json:\n%s", js)
	}
}

// A Deployment whose template sets both nodeName and schedulingGates is
// accepted (ValidatePodTemplateSpec has no such rule), but each pod it
// creates is refused by ValidatePodCreate (pkg/apis/core/validation:
// "cannot be set until all schedulingGates have been cleared"), so the
// ReplicaSet records FailedCreate and no pod exists.
func TestTemplateWithNodeNameAndGatesFailsCreate(t *testing.T) {
	src := strings.Replace(gatesScenario, "      schedulingGates: [{name: example.com/quota}]\n",
		"      schedulingGates: [{name: example.com/quota}]\n      nodeName: n1\n", 1)
	if src == gatesScenario {
		t.Fatal("the template was not edited")
	}
	s := loadSession(t, "gates.yaml", src)
	want := `spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared`
	found := false
	for _, ev := range s.Engine().Events() {
		if ev.Reason == "FailedCreate" && strings.Contains(ev.Message, want) {
			found = true
		}
	}
	if !found {
		t.Errorf("no FailedCreate %q; events: %v", want, s.Engine().Events())
	}
	for _, p := range s.Engine().Pods() {
		if strings.HasPrefix(p.Name, "web-") {
			t.Errorf("pod %s was created with nodeName %q and gates %v", p.Name, p.Spec.NodeName, p.Spec.SchedulingGates)
		}
	}
}
