package lab

import (
	"bytes"
	"strings"
	"testing"

	"podlab.dev/podlab/presets"
)

// Every preset loads, validates, and its lesson checks pass when the
// lesson's own solution commands are applied — and do not all pass without
// them (a check that cannot fail teaches nothing).
func TestPresetsPassWithTheirSolutions(t *testing.T) {
	names := presets.Names()
	if len(names) == 0 {
		t.Fatal("no presets embedded")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			f, err := LoadPreset(name)
			if err != nil {
				t.Fatal(err)
			}
			if f.Scenario == nil || f.Scenario.Lesson == nil || f.Scenario.Title == "" || f.Scenario.Description == "" {
				t.Fatal("a preset needs a title, a description and a lesson")
			}
			if len(f.Objects.Warnings) > 0 {
				t.Fatalf("warnings: %v", f.Objects.Warnings)
			}
			var out bytes.Buffer
			if err := Validate(&out, f); err != nil {
				t.Fatal(err)
			}
			out.Reset()
			ok, err := Check(&out, f, CheckOptions{Solutions: true})
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Fatalf("checks fail with the solutions applied:\n%s", out.String())
			}
			hasSolution := false
			for _, st := range f.Scenario.Lesson.Steps {
				if len(st.Solution) > 0 {
					hasSolution = true
				}
			}
			if hasSolution {
				out.Reset()
				ok, err = Check(&out, f, CheckOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					t.Fatalf("every check passes without the solutions too:\n%s", out.String())
				}
			}
			out.Reset()
			if err := Export(&out, f); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out.String(), "podlab/v1") {
				t.Fatal("export must drop the lab header")
			}
		})
	}
	if _, err := LoadPreset(presets.Default); err != nil {
		t.Fatalf("default preset: %v", err)
	}
}
