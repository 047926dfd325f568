package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `apply -f FILE` reads the file once (the history records its text) and
// its errors name the file with line:col, not "inline manifest:1:1".
func TestApplyFileErrorsNameTheFile(t *testing.T) {
	f, err := LoadFile("big.yaml", []byte(strings.Replace(budgetScenario, "REPLICAS", "3", 1)))
	if err != nil {
		t.Fatal(err)
	}
	f.Dir = t.TempDir()
	docs := map[string]string{
		"huge.yaml": "# a comment\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec:\n  replicas: 1000000000\n  selector: {matchLabels: {a: rs}}\n  template:\n    metadata: {labels: {a: rs}}\n    spec: {containers: [{name: c, image: i}]}\n",
		"bad.yaml":  "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i, resources: {requests: {cpu: x}}}]}\n",
	}
	for name, doc := range docs {
		if err := os.WriteFile(filepath.Join(f.Dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cmd, want string }{
		{"apply -f huge.yaml", "huge.yaml:2:1: spec.replicas 1000000000 would take the cluster over the lab's object budget"},
		{"apply -f bad.yaml", "bad.yaml:4:"},
	} {
		_, err := s.Apply(tc.cmd)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n%v\nwant it to start %q", tc.cmd, err, tc.want)
		}
	}
}
