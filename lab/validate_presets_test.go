package lab

import (
	"bytes"
	"strings"
	"testing"

	"podlab.dev/podlab/presets"
)

// No preset draws a warning from validate: its commands and checks name
// objects that are there (a warning on a preset would be a false alarm or
// a broken lesson).
func TestPresetsValidateWithoutWarnings(t *testing.T) {
	for _, name := range presets.Names() {
		f, err := LoadPreset(name)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := Validate(&out, f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 1 || strings.Contains(out.String(), "warning") {
			t.Errorf("%s:\n%s", name, out.String())
		}
	}
}
