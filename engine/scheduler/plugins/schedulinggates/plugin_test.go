package schedulinggates

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// TestPreEnqueue pins scheduling_gates_test.go's cases: no gates passes,
// gates reject as UnschedulableAndUnresolvable naming them in order.
func TestPreEnqueue(t *testing.T) {
	for _, tc := range []struct {
		name  string
		gates []string
		want  *framework.Status
	}{
		{"no gates", nil, nil},
		{"one gate", []string{"foo"}, &framework.Status{Code: framework.UnschedulableAndUnresolvable, Reasons: []string{"waiting for scheduling gates: [foo]"}, Plugin: Name}},
		{"two gates", []string{"example.com/foo", "example.com/bar"}, &framework.Status{Code: framework.UnschedulableAndUnresolvable, Reasons: []string{"waiting for scheduling gates: [example.com/foo example.com/bar]"}, Plugin: Name}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &api.Pod{}
			pod.Spec.SchedulingGates = tc.gates
			got := New().PreEnqueue(pod)
			if (got == nil) != (tc.want == nil) {
				t.Fatalf("PreEnqueue = %+v, want %+v", got, tc.want)
			}
			if got != nil && (got.Code != tc.want.Code || got.Message() != tc.want.Message() || got.Plugin != tc.want.Plugin) {
				t.Errorf("PreEnqueue = %+v, want %+v", got, tc.want)
			}
		})
	}
}
