package kubelet

import (
	"strings"
	"testing"
)

// lab.podlab.dev/terminate-after: "NaN" parsed (NaN fails every
// comparison) and converted to the most negative duration: the timeline
// read "SIGTERM 5s–-9223372031.854776s". NaN is refused as Inf is.
func TestParseLabDurationRefusesNaN(t *testing.T) {
	for _, s := range []string{"NaN", "nan", "+Inf", "-Inf", "-1"} {
		if d, err := ParseLabDuration(s); err == nil {
			t.Errorf("ParseLabDuration(%q) = %v, want an error", s, d)
		}
	}
	if _, err := ParseLabDuration("NaN"); err == nil || !strings.Contains(err.Error(), `duration "NaN" is not a number`) {
		t.Errorf("NaN: %v", err)
	}
	if d, err := ParseLabDuration("1.5"); err != nil || d.String() != "1.5s" {
		t.Errorf("1.5: %v, %v", d, err)
	}
}

// evictionHard memory.available "NaN%" gave a threshold no memory level
// crosses: a lab that says it evicts and never does. Refused with the
// other bad percentages (upstream's parseThresholdStatement compares
// NaN and lets it through; the lab does not).
func TestEvictionThresholdRefusesNaN(t *testing.T) {
	for _, v := range []string{"NaN%", "nan%", "0%", "101%", "-5%"} {
		if th, err := NewThreshold(SignalMemoryAvailable, v); err == nil {
			t.Errorf("NewThreshold(%q) = %+v, want an error", v, th)
		}
	}
	if _, err := NewThreshold(SignalMemoryAvailable, "10%"); err != nil {
		t.Errorf("10%%: %v", err)
	}
}
