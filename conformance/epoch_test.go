package conformance

import (
	"testing"

	"podlab.dev/podlab/conformance/podside"
	"podlab.dev/podlab/conformance/real"
	"podlab.dev/podlab/conformance/scenario"
)

// TestEpochsMatch: the instants the harness synthesizes must be the same
// on both sides, or preemption's victim order (start times) would differ.
func TestEpochsMatch(t *testing.T) {
	if !podside.Epoch.Equal(scenario.StartEpoch) {
		t.Errorf("podside.Epoch %v != scenario.StartEpoch %v", podside.Epoch, scenario.StartEpoch)
	}
	if !podside.BindEpoch.Equal(real.BindEpoch) {
		t.Errorf("podside.BindEpoch %v != real.BindEpoch %v", podside.BindEpoch, real.BindEpoch)
	}
}

// TestCheckReportsHarnessErrors: a file one side cannot load is a
// disagreement with a clear error, not a pass.
func TestCheckReportsHarnessErrors(t *testing.T) {
	o := Check("bad.yaml", []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {priorityClassName: nope, containers: [{name: c, image: i}]}\n"), Options{})
	if o.Agree() || o.Err == nil {
		t.Fatalf("unknown priority class accepted: %+v", o)
	}
	t.Log(o.Err)
}
