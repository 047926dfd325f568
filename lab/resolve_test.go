package lab

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/lab/check"
)

// resolveByList is resolve as it was written first: a scan of every
// object name. resolve must answer exactly as it does.
func resolveByList(s *Session, kind, name string) (string, string, error) {
	all := s.objectNames(kind)
	if i := strings.IndexByte(name, '/'); i >= 0 {
		for _, k := range all {
			if k == name {
				return name[:i], name[i+1:], nil
			}
		}
	} else {
		var found []string
		for _, k := range all {
			if k == "default/"+name {
				return "default", name, nil
			}
			if strings.HasSuffix(k, "/"+name) {
				found = append(found, k)
			}
		}
		if len(found) == 1 {
			i := strings.IndexByte(found[0], '/')
			return found[0][:i], found[0][i+1:], nil
		}
		if len(found) > 1 {
			return "", "", fmt.Errorf("%s %q exists in several namespaces (%s); write NAMESPACE/NAME", kind, name, strings.Join(found, ", "))
		}
	}
	return "", "", fmt.Errorf("unknown %s %q; %s", kind, name, summarizeNames(kind, all))
}

const resolveScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: resolve}
cluster: {zones: [{name: zone-a, nodes: 2}]}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-b}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: team-a}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: dup, namespace: team-a}
spec:
  replicas: 1
  selector: {matchLabels: {app: dup}}
  template:
    metadata: {labels: {app: dup}}
    spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: dup, namespace: team-b}
spec:
  replicas: 1
  selector: {matchLabels: {app: dup}}
  template:
    metadata: {labels: {app: dup}}
    spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: solo, namespace: team-b}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: solo, namespace: team-a}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: only, namespace: team-a}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: api-pdb, namespace: team-a}
spec: {minAvailable: 1, selector: {matchLabels: {app: api}}}
`

func resolveSession(t *testing.T) *Session {
	t.Helper()
	f, err := LoadFile("resolve.yaml", []byte(resolveScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	return s
}

// resolve answers (namespace, name, error text) exactly as the scan of
// every name did, for hits, misses, ambiguous and malformed names of
// every kind.
func TestResolveMatchesTheNameScan(t *testing.T) {
	s := resolveSession(t)
	names := []string{"", "/", "web", "default/web", "api", "team-a/api", "team-b/api", "dup", "team-a/dup", "ghost",
		"team-a/ghost", "/web", "web/", "default/web/x", "solo", "only", "team-a/only", "default/only", "web-pdb", "api-pdb",
		"team-a/api-pdb", "high", "node-1", "default/node-1", "zone-a"}
	for _, p := range s.Engine().Pods() {
		names = append(names, p.Name, p.Key())
	}
	for _, rs := range s.Controllers().ReplicaSets() {
		names = append(names, rs.Name, rs.Namespace+"/"+rs.Name)
	}
	for _, kind := range []string{"deployment", "replicaset", "statefulset", "daemonset", "job", "cronjob", "pod", "pdb", "node", "priorityclass", "widget"} {
		for _, name := range names {
			ns, n, err := s.resolve(kind, name)
			wns, wn, werr := resolveByList(s, kind, name)
			if ns != wns || n != wn || fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Errorf("resolve(%s, %q) = %q %q %v, want %q %q %v", kind, name, ns, n, err, wns, wn, werr)
			}
		}
	}
}

// A hit is a direct lookup: it neither lists nor sorts every pod, and a
// check of a pod that is gone builds no error text.
func TestResolveHitDoesNotListEveryObject(t *testing.T) {
	s := resolveSession(t)
	if _, err := s.Apply("scale deployment/web --replicas=200"); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	pod := ""
	for _, p := range s.Engine().Pods() {
		if p.Namespace == "default" {
			pod = p.Name
		}
	}
	for what, f := range map[string]func(){
		"pod in default": func() { _, _, _ = s.resolve("pod", pod) },
		"pod by key":     func() { _, _, _ = s.resolve("pod", "team-a/only") },
		"deployment":     func() { _, _, _ = s.resolve("deployment", "web") },
	} {
		if n := testing.AllocsPerRun(20, f); n > 4 {
			t.Errorf("%s: %v allocations per resolve, want a direct lookup", what, n)
		}
	}
	// A miss looks through the namespaces (one list of the pods), but
	// allocates nothing per pod: no name list, no error text.
	env := &checkEnv{s: s}
	gone := func() { _, _ = env.Call("phase", []check.Arg{{Kind: check.ArgRef, RefKind: "pod", Name: "gone"}}) }
	if n, pods := testing.AllocsPerRun(20, gone), len(s.Engine().Pods()); n > float64(pods)/10 {
		t.Errorf("a check of a pod that is gone: %v allocations with %d pods", n, pods)
	}
}

// A lesson's checks are parsed once, when the scenario loads; CheckStep
// evaluates those and answers as a fresh parse would (the palette's
// EvalCheck), error texts included.
func TestLessonChecksParsedOnce(t *testing.T) {
	for _, info := range Presets() {
		f, err := LoadPreset(info.Name)
		if err != nil {
			t.Fatal(err)
		}
		l := f.Scenario.Lesson
		if l == nil {
			continue
		}
		s, err := NewSession(f, SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(30 * time.Second); err != nil {
			t.Fatal(err)
		}
		for i, st := range l.Steps {
			results := s.CheckStep(i)
			for j, c := range st.Checks {
				if c.parsed == nil {
					t.Errorf("%s step %d check %q was not parsed at load", info.Name, i, c.Expr)
				}
				got := results[j]
				want, err := s.EvalCheck(c.Expr)
				if got.OK != want.OK || got.Detail != want.Detail || fmt.Sprint(got.Err) != fmt.Sprint(err) {
					t.Errorf("%s step %d %q: %+v, a fresh parse gives %+v %v", info.Name, i, c.Expr, got, want, err)
				}
			}
		}
	}
}
