package lab

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// deploymentOnly is ../testdata/workloads/deployment-only.yaml: a new
// user's scenario, nodes and a Deployment, no bare pods.
func deploymentOnly(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../testdata/workloads/deployment-only.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func explainString(t *testing.T, f *File, opts ExplainOptions) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	err := Explain(&buf, f, opts)
	return buf.String(), err
}

// With no bare pending pod, explain runs the lab: the ReplicaSet creates
// three 400m pods on a 1-cpu node, two fit and the third is explained
// with the scheduler's FailedScheduling message.
func TestExplainDeploymentPods(t *testing.T) {
	f, err := LoadFile("dep.yaml", deploymentOnly(t))
	if err != nil {
		t.Fatal(err)
	}
	pick := regexp.MustCompile(`^running lab at 0s: default/web-[a-z0-9]+-[a-z0-9]+, the only pending pod\npod default/web-[a-z0-9]+-[a-z0-9]+ · priority 0 · 1 node\n0/1 nodes are available: 1 Insufficient cpu\.\n`)
	for _, pod := range []string{"", "deployment/web", "deploy/web", "deployment/default/web"} {
		out, err := explainString(t, f, ExplainOptions{Pod: pod})
		if err != nil {
			t.Fatalf("--pod %q: %v", pod, err)
		}
		if pod != "" {
			out = strings.Replace(out, "deployment/web's only", "the only", 1)
		}
		if !pick.MatchString(out) || !strings.Contains(out, "n1    no    NodeResourcesFit: Insufficient cpu\n") {
			t.Errorf("--pod %q:\n%s", pod, out)
		}
	}
	out, err := explainString(t, f, ExplainOptions{Pod: "deployment/web", Output: "json"})
	if err != nil {
		t.Fatal(err)
	}
	var got explainJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.Pod, "default/web-") || got.Message != "0/1 nodes are available: 1 Insufficient cpu." ||
		got.At != "0s" || got.Workload != "deployment/web" || len(got.Nodes) != 1 || got.Nodes[0].Plugin != "NodeResourcesFit" {
		t.Errorf("json: %+v", got)
	}
	// the pick names a real pod: explaining it by name gives the same
	name := strings.TrimPrefix(got.Pod, "default/")
	out2, err := explainString(t, f, ExplainOptions{Pod: name, Output: "json"})
	if err != nil || strings.Replace(out, ",\n  \"workload\": \"deployment/web\"", "", 1) != out2 {
		t.Errorf("--pod %s: %v\n%s\nwant\n%s", name, err, out2, out)
	}
}

// --do and --at run the lab first, as describe does: a second node lets
// every pod run, so nothing is pending; scaling up leaves more pending.
func TestExplainRunningDoAndAt(t *testing.T) {
	f, err := LoadFile("dep.yaml", deploymentOnly(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = explainString(t, f, ExplainOptions{Do: []string{"add node n2 --zone a"}})
	if err == nil || err.Error() != "no pod is pending at 0s; try a later instant with --at (e.g. --at 1m) or change the cluster with --do" {
		t.Errorf("after adding n2: %v", err)
	}
	out, err := explainString(t, f, ExplainOptions{Do: []string{"scale deployment/web --replicas=5"}, At: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "running lab at 90s: default/web-") || !strings.Contains(out, ", the first of 3 pending pods\n") {
		t.Errorf("scaled to 5 at 90s:\n%s", out)
	}
	// a running pod is not explained
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	running := ""
	for _, p := range s.eng.Pods() {
		if p.Spec.NodeName != "" {
			running = p.Name
		}
	}
	if _, err := explainString(t, f, ExplainOptions{Pod: running}); err == nil || !strings.Contains(err.Error(), "is bound to n1 at 0s") {
		t.Errorf("--pod %s (running): %v", running, err)
	}
	if _, err := explainString(t, f, ExplainOptions{Pod: "statefulset/web"}); err == nil || !strings.Contains(err.Error(), `unknown statefulset "web"`) {
		t.Errorf("statefulset/web: %v", err)
	}
	if _, err := explainString(t, f, ExplainOptions{Do: []string{"delete pod ghost"}}); err == nil || errors.Is(err, ErrTimelineFailed) {
		t.Errorf("a failing --do is an input error: %v", err)
	}
}

// A StatefulSet's pod that the file does not hold is explained in the
// running lab: db-0 waits for its scheduling gate. The file's bare pod is
// still explained by the timeless pass.
func TestExplainStatefulSetPodGated(t *testing.T) {
	f, err := Open("../presets/scheduling-gates.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pod := range []string{"db-0", "default/db-0", "statefulset/db", "pod/db-0"} {
		out, err := explainString(t, f, ExplainOptions{Pod: pod})
		if err != nil {
			t.Fatalf("--pod %s: %v", pod, err)
		}
		if !strings.Contains(out, "pod default/db-0 · priority 0 · 2 nodes\nwaiting for its scheduling gate: example.com/admitted\n") {
			t.Errorf("--pod %s:\n%s", pod, out)
		}
	}
	out, err := explainString(t, f, ExplainOptions{})
	if err != nil || !strings.HasPrefix(out, "pod default/test-pod ") {
		t.Errorf("default pick is the file's bare pod (timeless): %v\n%s", err, out)
	}
}

// schedule says why it printed nothing for a workloads-only file.
func TestScheduleNothingNote(t *testing.T) {
	f, err := LoadFile("dep.yaml", deploymentOnly(t))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Schedule(&buf, f, ScheduleOptions{}); err != nil || buf.Len() != 0 {
		t.Fatalf("schedule: %v %q", err, buf.String())
	}
	want := "dep.yaml has no bare pending pods (pods without spec.nodeName); workloads create their pods when the lab runs: see `podlab run -f dep.yaml` or `podlab explain -f dep.yaml`"
	if got := ScheduleNothingNote(f, "dep.yaml"); got != want {
		t.Errorf("note %q", got)
	}
	g, err := Open("../presets/scheduling-gates.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ScheduleNothingNote(g, "scheduling-gates"); got != "" {
		t.Errorf("a file with a bare pending pod: %q", got)
	}
}

// As describe: a timeline command that failed before --at still explains
// the pod, then reports ErrTimelineFailed (exit 1). The timeline's
// second command cordoned node-1 at 2s.
func TestExplainRunningTimelineFailed(t *testing.T) {
	f, err := LoadFile("ghost.yaml", []byte(ghostScenario+`---
apiVersion: apps/v1
kind: Deployment
metadata: {name: big}
spec:
  replicas: 1
  selector: {matchLabels: {app: big}}
  template:
    metadata: {labels: {app: big}}
    spec:
      containers: [{name: app, image: nginx, resources: {requests: {cpu: "8"}}}]
`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := explainString(t, f, ExplainOptions{At: 5 * time.Second})
	if !errors.Is(err, ErrTimelineFailed) || !strings.Contains(err.Error(), `delete pod ghost failed`) {
		t.Errorf("error %v, want the timeline failure", err)
	}
	if !strings.HasPrefix(out, "running lab at 5s: default/big-") || !strings.Contains(out, "0/1 nodes are available: 1 node(s) were unschedulable.") {
		t.Errorf("output (the timeline cordoned node-1 at 2s):\n%s", out)
	}
	if _, err := explainString(t, f, ExplainOptions{}); err != nil {
		t.Errorf("at 0s the timeline has not failed yet: %v", err)
	}
}
