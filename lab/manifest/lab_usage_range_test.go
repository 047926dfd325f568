package manifest

import (
	"strings"
	"testing"
)

// Issue 17 point 6: lab.podlab.dev/memory-usage: 1e30% was accepted (and
// wrapped round to a negative use); memory and cpu use are range-checked
// where they are written, with the bounds of the `usage` command.
func TestUsageAnnotationsAreRangeChecked(t *testing.T) {
	pod := func(ann, v string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations: {" + ann + ": \"" + v + "\"}\nspec:\n  containers: [{name: c, image: i, resources: {requests: {memory: 1Gi, cpu: 100m}}}]\n"
	}
	for _, tc := range []struct{ ann, v, want string }{
		{"lab.podlab.dev/memory-usage", "1e30%", `t.yaml:5:17: Pod "p" is invalid: metadata.annotations[lab.podlab.dev/memory-usage]: Invalid value: "1e30%": not a percentage from 0% to 10000%`},
		{"lab.podlab.dev/memory-usage", "NaN%", "not a percentage from 0% to 10000%"},
		{"lab.podlab.dev/memory-usage", "-5%", "not a percentage from 0% to 10000%"},
		{"lab.podlab.dev/memory-usage", "2Pi", "more than the lab models (at most 1Pi)"},
		{"lab.podlab.dev/memory-usage", "-1Gi", "not a non-negative quantity"},
		{"lab.podlab.dev/cpu-usage", "NaN%", "not a percentage from 0% to 10000%"},
		{"lab.podlab.dev/cpu-usage", "2e12", "more than the lab models"},
	} {
		e := loadErr(t, pod(tc.ann, tc.v), Options{})
		if !strings.Contains(e.Error(), tc.want) {
			t.Errorf("%s: %s:\n got %v\nwant %s", tc.ann, tc.v, e, tc.want)
		}
	}
	for _, v := range []string{"10000%", "0%", "1Pi", "900Mi"} {
		if _, err := Load("t.yaml", []byte(pod("lab.podlab.dev/memory-usage", v)), Options{}); err != nil {
			t.Errorf("memory-usage %s: %v", v, err)
		}
	}
}
