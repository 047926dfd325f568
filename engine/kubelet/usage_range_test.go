package kubelet

import (
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// Issue 17 point 6: 1e30% of a 1Gi request overflowed int64 into a
// negative use (and a self-contradicting eviction message); the `usage`
// command and the annotation are refused beyond the model's range.
func TestParseMemoryUsageRange(t *testing.T) {
	q, err := api.ParseQuantity("1Gi")
	if err != nil {
		t.Fatal(err)
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c",
		Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: q}}}}}}
	for _, tc := range []struct {
		spec string
		want int64
		err  string
	}{
		{"150%", 3 << 29, ""},
		{"10000%", 100 << 30, ""},
		{"1Pi", 1 << 50, ""},
		{"1e30%", 0, "give a percentage from 0% to 10000%"},
		{"NaN%", 0, "give a percentage from 0% to 10000%"},
		{"Inf%", 0, "give a percentage from 0% to 10000%"},
		{"-1%", 0, "give a percentage from 0% to 10000%"},
		{"2Pi", 0, "more than the lab models (at most 1Pi)"},
	} {
		got, err := ParseMemoryUsage(pod, tc.spec)
		if tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("%s = %d, %v; want %d", tc.spec, got, err, tc.want)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: error %v, want %q", tc.spec, err, tc.err)
		}
	}
}
