package main

import (
	"bytes"
	"strings"
	"testing"
)

// --speed NaN passed the range check (every comparison with NaN is false)
// and opened the lab; it is refused like --speed 65.
func TestSpeedFlagRefusesNaN(t *testing.T) {
	for _, v := range []string{"NaN", "-1", "65", "0.1"} {
		var out, errb bytes.Buffer
		code := run([]string{"-f", "spread-basics", "--speed", v}, strings.NewReader(""), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "--speed must be between 0.25 and 64") {
			t.Errorf("--speed %s: exit %d, stderr %q", v, code, errb.String())
		}
	}
}
