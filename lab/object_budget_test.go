package lab

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const budgetScenario = `apiVersion: podlab/v1
kind: Scenario
metadata: {name: big}
cluster:
  node: {cpu: "4", memory: 8Gi, pods: 110}
  zones:
  - {name: zone-a, nodes: 2}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: REPLICAS
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx
`

// Issue 17 point 1: a Deployment of 1e9 replicas (valid: an int32) made
// `podlab validate` grow without bound; it is refused at load, naming the
// object with file:line:col, in the ResourceQuota's words.
func TestObjectBudgetRefusesHugeWorkloadAtLoad(t *testing.T) {
	data := strings.Replace(budgetScenario, "REPLICAS", "1000000000", 1)
	_, err := LoadFile("big.yaml", []byte(data))
	want := `big.yaml:9:1: spec.replicas 1000000000 would take the cluster over the lab's object budget: deployments "web" is forbidden: exceeded quota: podlab-object-budget, requested: objects=1000000000, used: objects=2, limited: objects=200000`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("LoadFile: %v\nwant %s", err, want)
	}
	// the same file within the budget loads and validates
	f, err := LoadFile("big.yaml", []byte(strings.Replace(budgetScenario, "REPLICAS", "3", 1)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Validate(&out, f); err != nil {
		t.Fatal(err)
	}
}

func TestObjectBudgetCountsEveryWorkloadKind(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  replicas: 300000\n  serviceName: s\n  selector: {matchLabels: {a: s}}\n  template:\n    metadata: {labels: {a: s}}\n    spec: {containers: [{name: c, image: i}]}\n",
			`statefulsets "s" is forbidden`},
		{"apiVersion: v1\nkind: ReplicationController\nmetadata: {name: r}\nspec:\n  replicas: 300000\n  selector: {a: r}\n  template:\n    metadata: {labels: {a: r}}\n    spec: {containers: [{name: c, image: i}]}\n",
			`replicationcontrollers "r" is forbidden`},
		{"apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: 300000\n  template:\n    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}\n",
			`jobs "j" is forbidden`},
		// two workloads within the budget each, over it together: the
		// second is named
		{"apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: a}\nspec:\n  replicas: 150000\n  selector: {matchLabels: {a: a}}\n  template:\n    metadata: {labels: {a: a}}\n    spec: {containers: [{name: c, image: i}]}\n---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: b}\nspec:\n  replicas: 50001\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n",
			`t.yaml:11:1: spec.replicas 50001 would take the cluster over the lab's object budget: replicasets "b" is forbidden: exceeded quota: podlab-object-budget, requested: objects=50001, used: objects=150000`},
	} {
		_, err := LoadFile("t.yaml", []byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadFile:\n%v\nwant %s", err, tc.want)
		}
	}
}

// Scale commands, `add zone --nodes` and `apply` meet the same budget
// with the same message; a workload that grows past it (here by its
// template's surge) gets FailedCreate events.
func TestObjectBudgetCommands(t *testing.T) {
	f, err := LoadFile("big.yaml", []byte(strings.Replace(budgetScenario, "REPLICAS", "3", 1)))
	if err != nil {
		t.Fatal(err)
	}
	f.Dir = t.TempDir()
	rs := "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec:\n  replicas: 9\n  selector: {matchLabels: {a: rs}}\n  template:\n    metadata: {labels: {a: rs}}\n    spec: {containers: [{name: c, image: i}]}\n"
	if err := os.WriteFile(filepath.Join(f.Dir, "rs.yaml"), []byte(rs), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{MaxObjects: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cmd, want string }{
		{"scale deployment/web --replicas=20", `scale deployment/web to 20: pods is forbidden: exceeded quota: podlab-object-budget, requested: objects=17, used: objects=5, limited: objects=10`},
		{"add zone zone-b --nodes 6", `add zone zone-b with 6 nodes: nodes is forbidden: exceeded quota: podlab-object-budget, requested: objects=6, used: objects=5, limited: objects=10`},
		{"apply -f rs.yaml",
			`replicasets "rs" is forbidden: exceeded quota: podlab-object-budget, requested: objects=9, used: objects=5, limited: objects=10`},
	} {
		_, err := s.Apply(tc.cmd)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n%v\nwant %s", tc.cmd, err, tc.want)
		}
	}
	if _, err := s.Apply("scale deployment/web --replicas=5"); err != nil {
		t.Fatal(err)
	}
	// 8 pods and 2 nodes fill the budget: the rollout's surge (25 %: 2
	// pods) is refused pod by pod
	if _, err := s.Apply("scale deployment/web --replicas=8"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("rollout restart deployment/web"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("advance 2m"); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ev := range s.Engine().Events() {
		if ev.Reason == "FailedCreate" && strings.Contains(ev.Message, "Error creating: pods \"web-") &&
			strings.Contains(ev.Message, "is forbidden: exceeded quota: podlab-object-budget") {
			found = true
		}
	}
	if !found {
		t.Fatal("no FailedCreate event for the surge beyond the budget")
	}
}

// The cluster shorthand meets the same budget with the same message, at
// the zone that crosses it.
func TestObjectBudgetClusterShorthand(t *testing.T) {
	in := "apiVersion: podlab/v1\nkind: Scenario\ncluster:\n  zones:\n  - {name: a, nodes: 150000}\n  - {name: b, nodes: 60000}\n"
	_, err := LoadFile("t.yaml", []byte(in))
	want := `t.yaml:6:5: cluster.zones[1] (b) would take the cluster over the lab's object budget: nodes is forbidden: exceeded quota: podlab-object-budget, requested: objects=60000, used: objects=150000, limited: objects=200000`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("LoadFile: %v\nwant %s", err, want)
	}
	if _, err := LoadFile("t.yaml", []byte(strings.Replace(in, "150000", "3000000000", 1))); err == nil || !strings.Contains(err.Error(), "must be a whole number from 0 to 2147483647") {
		t.Fatalf("a zone beyond int32: %v", err)
	}
}

// A DaemonSet asks for a pod on every node its nodeSelector matches.
func TestObjectBudgetDaemonSets(t *testing.T) {
	ds := func(name, sel string) string {
		return "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: " + name + "}\nspec:\n  selector: {matchLabels: {a: " + name + "}}\n  template:\n    metadata: {labels: {a: " + name + "}}\n    spec: {nodeSelector: {" + sel + "}, containers: [{name: c, image: i}]}\n"
	}
	head := "apiVersion: podlab/v1\nkind: Scenario\ncluster:\n  zones:\n  - {name: a, nodes: 70000}\n  - {name: b, nodes: 10}\n"
	// three DaemonSets on zone b's 10 nodes fit
	in := head + ds("d1", "topology.kubernetes.io/zone: b") + ds("d2", "topology.kubernetes.io/zone: b") + ds("d3", "topology.kubernetes.io/zone: b")
	if _, err := LoadFile("t.yaml", []byte(in)); err != nil {
		t.Fatal(err)
	}
	// on every node, the second one crosses 200,000
	in = head + ds("all1", "kubernetes.io/os: linux") + ds("all2", "kubernetes.io/os: linux")
	_, err := LoadFile("t.yaml", []byte(in))
	want := `70010 pods (one on each node its nodeSelector matches) would take the cluster over the lab's object budget: daemonsets "all2" is forbidden: exceeded quota: podlab-object-budget, requested: objects=70010, used: objects=140020, limited: objects=200000`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("LoadFile: %v\nwant %s", err, want)
	}
}

// A CronJob's jobTemplate asks for its Job's pods at every run: a
// parallelism of 1e9 is refused at load as a Job's is, not found out a
// minute into the run by a controller creating 200,000 pods.
func TestObjectBudgetCronJobTemplate(t *testing.T) {
	in := "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: \"* * * * *\"\n  jobTemplate:\n    spec:\n      parallelism: 1000000000\n      template:\n        spec: {restartPolicy: Never, containers: [{name: c, image: i}]}\n"
	_, err := LoadFile("t.yaml", []byte(in))
	want := `t.yaml:1:1: spec.jobTemplate.spec.parallelism 1000000000 would take the cluster over the lab's object budget: cronjobs "c" is forbidden: exceeded quota: podlab-object-budget, requested: objects=1000000000`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("LoadFile: %v\nwant %s", err, want)
	}
	if _, err := LoadFile("t.yaml", []byte(strings.Replace(in, "1000000000", "3", 1))); err != nil {
		t.Fatal(err)
	}
}
