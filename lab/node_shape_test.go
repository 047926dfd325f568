package lab

import (
	"strings"
	"testing"
)

// A node's cpu and memory are never negative and its pods go from 1 to
// 10000, in a file's cluster shorthand and in `add zone` / `add node`
// alike (ValidateNodeResources refuses a negative capacity; `add zone
// --cpu -1` made nodes that fit nothing, `--pods 0` and `--pods
// 2147483648` passed where the shorthand refuses them).
func TestNodeShapeRangesMatchTheLoader(t *testing.T) {
	for _, tc := range []struct{ shape, want string }{
		{`{cpu: "-1", memory: 8Gi, pods: 10}`, `t.yaml:4:15: cluster.node.cpu: Invalid value: "-1": must be greater than or equal to 0`},
		{`{cpu: "1", memory: "-8Gi", pods: 10}`, `t.yaml:4:28: cluster.node.memory: Invalid value: "-8Gi": must be greater than or equal to 0`},
	} {
		in := "apiVersion: podlab/v1\nkind: Scenario\ncluster:\n  node: " + tc.shape + "\n  zones: [{name: a, nodes: 1}]\n"
		_, err := LoadFile("t.yaml", []byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n%v\nwant %s", tc.shape, err, tc.want)
		}
	}
	f, err := LoadPreset("spread-basics")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cmd, want string }{
		{"add zone zc --nodes 1 --cpu -1", `cpu: Invalid value: "-1": must be greater than or equal to 0`},
		{"add node n9 --zone zoneA --memory -1", `memory: Invalid value: "-1": must be greater than or equal to 0`},
		{"add zone zc --pods 0", `--pods takes a whole number from 1 to 10000, not "0"`},
		{"add zone zc --pods 2147483648", `--pods takes a whole number from 1 to 10000, not "2147483648"`},
	} {
		before := len(s.Engine().Nodes())
		if _, err := s.Apply(tc.cmd); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n%v\nwant %s", tc.cmd, err, tc.want)
		}
		if got := len(s.Engine().Nodes()); got != before {
			t.Errorf("%s: the refused command added nodes (%d → %d)", tc.cmd, before, got)
		}
	}
	if _, err := s.Apply("add zone zc --nodes 1 --cpu 0 --pods 10000"); err != nil {
		t.Errorf("cpu 0 and pods 10000 are in range: %v", err)
	}
}
