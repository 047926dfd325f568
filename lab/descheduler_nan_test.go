package lab

import (
	"os"
	"strings"
	"testing"
)

// thresholds: {cpu: NaN} passed LowNodeUtilization's [0, 100] check
// (every comparison with NaN is false). Upstream's decoder reads the
// plain scalar NaN as a string and refuses it for a Percentage; the lab
// says it is not a number, at its position.
func TestDeschedulerThresholdNaN(t *testing.T) {
	data, err := os.ReadFile("../presets/lownodeutilization-vs-scale-down.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"NaN", "Inf", "-Inf"} {
		in := strings.Replace(string(data), "thresholds: {cpu: 40}", "thresholds: {cpu: "+v+"}", 1)
		_, err := LoadFile("d.yaml", []byte(in))
		if err == nil || !strings.Contains(err.Error(), "d.yaml:83:25: profiles[0].pluginConfig[1].args.thresholds.cpu must be a number") {
			t.Errorf("cpu: %s: %v", v, err)
		}
	}
}
