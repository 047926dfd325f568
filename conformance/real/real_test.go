package real

import (
	"os"
	"reflect"
	"testing"

	"podlab.dev/podlab/conformance/scenario"
)

func load(t *testing.T, path string) *scenario.Scenario {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExplainSpreadZoneSkew(t *testing.T) {
	s := load(t, "../testdata/spread-zone-skew.yaml")
	r, err := New(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ex, err := r.Explain(s.Pending[0])
	if err != nil {
		t.Fatal(err)
	}
	var feasible []string
	for _, n := range ex.Nodes {
		if n.Feasible {
			feasible = append(feasible, n.Node)
		} else if want := []string{"node(s) didn't match pod topology spread constraints"}; !reflect.DeepEqual(n.Reasons, want) {
			t.Errorf("%s reasons = %q, want %q", n.Node, n.Reasons, want)
		}
	}
	if want := []string{"node3", "node4"}; !reflect.DeepEqual(feasible, want) {
		t.Errorf("feasible = %v, want %v", feasible, want)
	}
	if ex.Weights["TaintToleration"] != 3 || ex.Weights["PodTopologySpread"] != 2 {
		t.Errorf("weights = %v", ex.Weights)
	}
	sc, err := r.Schedule(s.Pending)
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Placements[0].Node; got != "node4" {
		t.Errorf("placed on %s, want node4 (emptier: higher NodeResourcesFit)", got)
	}
	t.Logf("%+v", ex)
}
