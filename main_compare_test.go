package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestChangeLinesReadsFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.txt")
	if err := os.WriteFile(path, []byte("# policy b\nset spread deployment/web maxSkew=2\n\n  cordon node1  \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := changeLines([]string{"uncordon node2", path})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"uncordon node2", "set spread deployment/web maxSkew=2", "cordon node1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("changeLines = %q, want %q", got, want)
	}
}

func TestCompareCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"compare", "-f", "spread-basics", "--b", "set spread deployment/web maxSkew=3", "--do", "advance 30s", "--do", "cordon node3", "--do", "cordon node4", "--do", "scale deployment/web --replicas=8", "--for", "1m"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "* pending             5") {
		t.Fatalf("output:\n%s", out.String())
	}
	code = run([]string{"compare", "-f", "spread-basics", "--b", "@x nonsense"}, nil, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "--b #1") {
		t.Fatalf("bad change: exit %d, stderr %q", code, errb.String())
	}
}

func TestCompareTakesASchedulerConfigFile(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "binpack.yaml")
	if err := os.WriteFile(cfg, []byte(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]}
  plugins:
    multiPoint:
      enabled: [{name: NodeResourcesFit, weight: 5}]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"compare", "-f", "compare-binpack-vs-spread", "--b", cfg, "--do", "scale deployment/batch --replicas=4", "--for", "1m", "-o", "json"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		Lanes []struct {
			Changes []string `json:"changes"`
		} `json:"lanes"`
		Spread []struct {
			Workload    string `json:"workload"`
			TopologyKey string `json:"topologyKey"`
			A, B        struct {
				Skew int `json:"skew"`
			}
		} `json:"spread"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Lanes) != 2 || len(got.Lanes[1].Changes) != 1 || !strings.HasPrefix(got.Lanes[1].Changes[0], "apply --inline=") {
		t.Fatalf("lane b's change: %+v", got.Lanes)
	}
	found := false
	for _, s := range got.Spread {
		if s.Workload == "deployment/batch" && s.TopologyKey == "kubernetes.io/hostname" {
			found = true
			if s.A.Skew != 0 || s.B.Skew != 4 {
				t.Fatalf("hostname skew a %d, b %d: want 0 (spread) and 4 (packed)", s.A.Skew, s.B.Skew)
			}
		}
	}
	if !found {
		t.Fatalf("no hostname spread for batch: %s", out.String())
	}
}
