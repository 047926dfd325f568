package lab

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The docs' topology-spread examples must give the real scheduler's
// decisions (testdata/spread/*.json were produced by kube-scheduler v1.36.3
// through ../shared/oracle).
func TestSpreadExamplesMatchRealScheduler(t *testing.T) {
	files, _ := filepath.Glob("../testdata/spread/*.yaml")
	if len(files) < 7 {
		t.Fatalf("expected the 7 docs examples, found %d", len(files))
	}
	for _, path := range files {
		base := strings.TrimSuffix(path, ".yaml")
		t.Run(filepath.Base(base), func(t *testing.T) {
			f, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := Explain(&buf, f, ExplainOptions{Output: "json", TieBreak: "name"}); err != nil {
				t.Fatal(err)
			}
			var got, want explainJSON
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(mustRead(t, base+".explain.json"), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Feasible, want.Feasible) {
				t.Errorf("feasible %v, want %v", got.Feasible, want.Feasible)
			}
			if len(got.Nodes) != len(want.Nodes) {
				t.Fatalf("%d nodes, want %d", len(got.Nodes), len(want.Nodes))
			}
			for i, w := range want.Nodes {
				g := got.Nodes[i]
				sort.Strings(g.Reasons)
				sort.Strings(w.Reasons)
				if g.Node != w.Node || g.Feasible != w.Feasible || !reflect.DeepEqual(g.Reasons, w.Reasons) {
					t.Errorf("node %s: got %v %v, want %v %v", w.Node, g.Feasible, g.Reasons, w.Feasible, w.Reasons)
				}
				for plugin, score := range w.Scores {
					if g.Scores[plugin] != score {
						t.Errorf("node %s %s: score %d, want %d", w.Node, plugin, g.Scores[plugin], score)
					}
				}
				if g.Total != w.Total {
					t.Errorf("node %s: total %d, want %d", w.Node, g.Total, w.Total)
				}
			}
			lines, err := ScheduleLines(f, ScheduleOptions{TieBreak: "name"})
			if err != nil {
				t.Fatal(err)
			}
			var gotLines []string
			for _, l := range lines {
				b, _ := json.Marshal(l)
				gotLines = append(gotLines, string(b))
			}
			wantLines := strings.Split(strings.TrimSpace(string(mustRead(t, base+".schedule.jsonl"))), "\n")
			if !reflect.DeepEqual(gotLines, wantLines) {
				t.Errorf("schedule:\n got %s\nwant %s", strings.Join(gotLines, "\n     "), strings.Join(wantLines, "\n     "))
			}
		})
	}
}

func TestExplainTextShowsSpreadArithmetic(t *testing.T) {
	f, err := Open("../testdata/spread/single-constraint.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Explain(&buf, f, ExplainOptions{TieBreak: "name"}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"chosen: node4 (feasible: node3, node4)",
		"node1  no    PodTopologySpread: node(s) didn't match pod topology spread constraints",
		"node1  zone=zoneA: 2 + 1 − min 1 = 2 > maxSkew 1 ✗",
		"node3  zone=zoneB: 1 + 1 − min 1 = 1 ≤ maxSkew 1 ✓",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
}

func TestExplainErrors(t *testing.T) {
	f, err := Open("../testdata/spread/single-constraint.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, c := range []struct {
		opts ExplainOptions
		want string
	}{
		{ExplainOptions{Pod: "ghost"}, `no pending pod "ghost"; pending pods are default/mypod`},
		{ExplainOptions{Pod: "p1"}, "pod default/p1 is already bound to node1"},
		{ExplainOptions{Output: "yaml"}, "-o must be json or text"},
		{ExplainOptions{TieBreak: "coin"}, "--tie-break must be random or name"},
	} {
		err := Explain(&buf, f, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opts, err, c.want)
		}
	}
	_, err = Open("../testdata/does-not-exist.yaml", nil)
	if err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("missing file: %v", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}
