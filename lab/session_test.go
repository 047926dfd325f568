package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
)

func exampleSession(t *testing.T) *Session {
	t.Helper()
	f, err := LoadFile("example.yaml", mustRead(t, "testdata/example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func runningPods(s *Session) int {
	n := 0
	for _, p := range s.Engine().Pods() {
		if st, _ := s.Engine().PodState(p.Key()); st == engine.StateRunning {
			n++
		}
	}
	return n
}

func TestSessionRunsScenario(t *testing.T) {
	s := exampleSession(t)
	if err := s.Advance(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got := runningPods(s); got != 6 {
		t.Fatalf("running pods at 20s: %d, want 6 (the Deployment's replicas)", got)
	}
	// the timeline scales to 8 at 30s
	if err := s.Advance(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got := runningPods(s); got != 8 {
		t.Fatalf("running pods at 40s: %d, want 8 after the timeline's scale", got)
	}
}

func TestSessionUndoRestoresState(t *testing.T) {
	s := exampleSession(t)
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	before := stateDigest(s)
	if _, err := s.Apply("cordon node-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("scale deployment/web --replicas=3"); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	mid := stateDigest(s)
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := stateDigest(s); got != before {
		t.Fatalf("after two undos:\n%s\nwant\n%s", got, before)
	}
	if _, err := s.Redo(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Redo(); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got := stateDigest(s); got != mid {
		t.Fatalf("after redo:\n%s\nwant\n%s", got, mid)
	}
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(); err == nil || !strings.Contains(err.Error(), "nothing to undo") {
		t.Fatalf("third undo: %v", err)
	}
}

func TestSessionErrors(t *testing.T) {
	s := exampleSession(t)
	for _, c := range []struct{ line, want string }{
		{"cordon node-9", `unknown node "node-9"; nodes are node-1…node-5 (5)`},
		{"scale deployment/api --replicas=2", `unknown deployment "api"; deployments are default/web`},
		{"add zone zone-a", `zone "zone-a" exists`},
		{"remove zone zone-x", `unknown zone "zone-x"; zones are zone-a, zone-b, zone-c`},
		{"set priority deployment/web gold", "no PriorityClass with name gold was found"},
		{"set spread deployment/web --constraint 3 maxSkew=2", "has 1 spread constraint(s)"},
		{"delete pod nothing", `unknown pod "nothing"`},
	} {
		if _, err := s.Apply(c.line); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.line, err, c.want)
		}
	}
	if len(s.History()) != 0 {
		t.Fatalf("failed commands must not enter the history: %v", s.History())
	}
}

// stateDigest summarises what a learner sees: time, nodes and pods with
// their states and nodes.
func stateDigest(s *Session) string {
	var b strings.Builder
	b.WriteString(s.Now().String() + "\n")
	for _, n := range s.Engine().Nodes() {
		b.WriteString(n.Name)
		if n.Spec.Unschedulable {
			b.WriteString(" cordoned")
		}
		b.WriteString("\n")
	}
	for _, p := range s.Engine().Pods() {
		st, _ := s.Engine().PodState(p.Key())
		b.WriteString(p.Key() + " " + p.Spec.NodeName + " " + st.String() + "\n")
	}
	return b.String()
}

func TestExplainLivePod(t *testing.T) {
	s := exampleSession(t)
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	pods := s.Engine().Pods()
	before := stateDigest(s)
	ex, err := s.Explain(pods[0].Key())
	if err != nil {
		t.Fatal(err)
	}
	if ex.BoundTo == "" || ex.NumNodes != 5 || len(ex.Nodes) != 5 {
		t.Fatalf("explanation %+v", ex)
	}
	// the pod's own node must be feasible for it (it fits where it runs)
	found := false
	for _, f := range ex.Feasible {
		if f == ex.BoundTo {
			found = true
		}
	}
	if !found {
		t.Fatalf("pod on %s, feasible %v", ex.BoundTo, ex.Feasible)
	}
	if got := stateDigest(s); got != before {
		t.Fatal("Explain changed the cluster")
	}
	if _, err := s.Explain("default/nope"); err == nil {
		t.Fatal("unknown pod must fail")
	}
}

func TestComplete(t *testing.T) {
	s := exampleSession(t)
	for _, c := range []struct {
		line string
		want string
	}{
		{"cor", "cordon"},
		{"cordon no", "node-1"},
		{"cordon node node-", "node-5"},
		{"scale dep", "deployment/web"},
		{"drain node-1 --ig", "--ignore-daemonsets"},
		{"set sp", "spread"},
		{"set spread deployment/web max", "maxSkew="},
		{"rollout re", "restart"},
		{"label node node-1 disk", "disk=hdd"},
	} {
		_, got := s.Complete(c.line)
		found := false
		for _, g := range got {
			if g == c.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: candidates %v lack %q", c.line, got, c.want)
		}
	}
}

// A Deployment that finished its rollout and then lost its pods must not
// stall the clock once its progress deadline has passed (a requeue "now"
// at every instant did).
func TestStuckDeploymentDoesNotStallTheClock(t *testing.T) {
	f, err := LoadFile("stuck.yaml", []byte(`apiVersion: podlab/v1
kind: Scenario
metadata: {name: stuck}
cluster: {zones: [{name: zone-a, nodes: 2}]}
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
      nodeSelector: {kubernetes.io/hostname: node-2}
      tolerations: [{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}]
      containers: [{name: web, image: nginx}]
`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		if _, err := s.Apply("advance 10s"); err != nil {
			done <- err
			return
		}
		if _, err := s.Apply("fail node node-2"); err != nil {
			done <- err
			return
		}
		done <- s.Advance(30 * time.Minute)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("30 virtual minutes did not pass within 30 s")
	}
}

func TestSeedCommandChangesTieBreaks(t *testing.T) {
	placements := func(seed string) string {
		s := exampleSession(t)
		if _, err := s.Apply("seed " + seed); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Apply("scale deployment/web --replicas=9"); err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(30 * time.Second); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, p := range s.Engine().Pods() {
			b.WriteString(p.Spec.NodeName + " ")
		}
		return b.String()
	}
	a, again := placements("7"), placements("7")
	if a != again {
		t.Fatalf("the same seed placed pods differently:\n%s\n%s", a, again)
	}
	differs := false
	for _, seed := range []string{"8", "9", "10", "11"} {
		if placements(seed) != a {
			differs = true
		}
	}
	if !differs {
		t.Fatal("no other seed changed any tie-break")
	}
}

// An apply that fails halfway (its second object exists) changes nothing:
// the objects it created first are undone, and the history, undo and the
// state stay what they were.
func TestFailedApplyChangesNothing(t *testing.T) {
	s := exampleSession(t)
	if _, err := s.Apply("cordon node-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("advance 10s"); err != nil {
		t.Fatal(err)
	}
	existing := s.Engine().Pods()[0]
	manifest := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: extra}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: extra}}\n" +
		"  template:\n    metadata: {labels: {app: extra}}\n    spec: {containers: [{name: c, image: pause}]}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: " + existing.Name + ", namespace: " + existing.Namespace + "}\nspec: {containers: [{name: c, image: pause}]}\n"
	path := filepath.Join(t.TempDir(), "extra.yaml")
	if err := os.WriteFile(path, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	before, history := stateDigest(s), len(s.History())
	_, err := s.Apply("apply -f " + path)
	if err == nil || !strings.Contains(err.Error(), "exists") || !strings.Contains(err.Error(), "nothing was applied (undone: deployment/extra created)") {
		t.Fatalf("error %v", err)
	}
	if s.Controllers().Deployment("default", "extra") != nil {
		t.Fatal("the deployment created before the failure is still there")
	}
	if got := stateDigest(s); got != before || len(s.History()) != history {
		t.Fatalf("state or history changed:\n%s\nwant\n%s", got, before)
	}
	for range s.History() {
		if _, err := s.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if s.Engine().Node("node-1").Spec.Unschedulable {
		t.Fatal("undoing the history after the failed apply must undo the cordon")
	}
}
